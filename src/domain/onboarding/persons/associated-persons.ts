import type { VerificationStatus } from '../../../db/schema/index.js';
import type { Db, Executor } from '../../../db/database.js';
import type { DocumentMeta } from '../../../db/repositories/documents.js';
import { listDocuments } from '../../../db/repositories/documents.js';
import { findEntity, findPerson, findPersonWithDocuments, insertPerson, listPersons, updatePerson, type PersonRow } from '../../../db/repositories/entities.js';
import { runMutation, type MutationContext } from '../../context.js';
import { notFound, type FieldError } from '../../errors.js';
import { recordEvent } from '../../events/record-event.js';
import { adoptRepresentativeAsOwner } from '../../members/first-owner.js';
import { newId } from '../../ids.js';
import { prepareDocuments, storeDocuments, toDocumentView, usableDocumentTypes } from '../document-store.js';
import { entityOfAccount } from '../entities/entity-accounts.js';
import { recomputeEntityStatus } from '../entities/recompute-status.js';
import { missingPersonRequirements } from '../requirements.js';
import { initialPersonStatus } from '../status.js';
import { afterDataChange } from '../../verification/after-data-change.js';
import { recordInitialStatus } from '../../verification/apply-transition.js';
import { checkIfEnteredReview } from '../../verification/checks/run-checks.js';
import type { BeneficiaryDetails, DocumentView, SubmittedDocument, UserInfo } from '../types.js';
import { mergeUserInfo, previousAttributesOf } from '../person-update.js';
import { credentialCause } from '../../verification/cause.js';
import { sealSsn, withoutSsn } from '../ssn-at-rest.js';
import { maskedUserInfo } from '../users/user-view.js';
import { checkUboTotal, validateBeneficiaryDetails, validateUserInfo } from '../validation/index.js';
import { throwIfInvalid } from '../validation-result.js';

export interface AssociatedPersonView {
  beneficiaryId: string;
  verificationStatus: VerificationStatus;
  userInfo: UserInfo;
  beneficiaryDetails: BeneficiaryDetails;
  verificationDocuments: DocumentView[];
  missingDocuments?: string[];
}

async function toAssociatedPersonView(db: Executor, person: PersonRow): Promise<AssociatedPersonView> {
  return personViewFrom(person, await listDocuments(db, 'associated_person', person.id));
}

function personViewFrom(person: PersonRow, documents: DocumentMeta[]): AssociatedPersonView {
  const missing = missingPersonRequirements(
    person.userInfo as UserInfo,
    usableDocumentTypes(documents),
  );
  const view: AssociatedPersonView = {
    beneficiaryId: person.id,
    verificationStatus: person.verificationStatus,
    userInfo: maskedUserInfo(person.userInfo, person.ssnLast4),
    beneficiaryDetails: person.beneficiaryDetails as BeneficiaryDetails,
    verificationDocuments: documents.map(toDocumentView),
  };
  if (missing.length > 0) view.missingDocuments = missing;
  return view;
}

/** UBO shares of one entity may not add up to more than 100 %. */
function uboTotalErrors(others: PersonRow[], details: BeneficiaryDetails, pointer: string): FieldError[] {
  const shares = others
    .map((p) => p.beneficiaryDetails as BeneficiaryDetails)
    .filter((d) => d.beneficiaryType.includes('ubo'))
    .map((d) => d.ownershipPercentage ?? 0);
  if (details.beneficiaryType.includes('ubo')) shares.push(details.ownershipPercentage ?? 0);
  return checkUboTotal(shares, pointer);
}

export async function getAssociatedPerson(db: Db, integratorId: string, beneficiaryId: string): Promise<AssociatedPersonView> {
  const found = await findPersonWithDocuments(db, integratorId, beneficiaryId);
  if (!found) throw notFound('Associated person');
  return personViewFrom(found.person, found.documents);
}

export interface CreatePersonInput {
  accountId: string;
  userInfo: UserInfo;
  beneficiaryDetails: BeneficiaryDetails;
  verificationDocuments?: SubmittedDocument[] | null;
}

function personErrors(input: CreatePersonInput, now: Date): FieldError[] {
  return [...validateUserInfo(input.userInfo, '/userInfo', now), ...validateBeneficiaryDetails(input.beneficiaryDetails, '/beneficiaryDetails')];
}

/** Every domain-level error of a create body, documents included. */
export function personSubmissionErrors(input: CreatePersonInput, now: Date): FieldError[] {
  return [...personErrors(input, now), ...prepareDocuments(input.verificationDocuments, '/verificationDocuments').errors];
}

export async function createAssociatedPerson(
  ctx: MutationContext,
  input: CreatePersonInput,
): Promise<AssociatedPersonView> {
  const documents = prepareDocuments(input.verificationDocuments, '/verificationDocuments');
  throwIfInvalid([...personErrors(input, ctx.now), ...documents.errors]);
  return runMutation(ctx, async (tx) => {
    const integratorId = ctx.actor.integratorId;
    const entity = await entityOfAccount(tx, integratorId, input.accountId, true);
    throwIfInvalid(uboTotalErrors(await listPersons(tx, entity.id), input.beneficiaryDetails, '/beneficiaryDetails/ownershipPercentage'));
    const id = newId();
    const missing = missingPersonRequirements(
      input.userInfo,
      documents.prepared.map((d) => d.documentType),
    );
    const person = await insertPerson(tx, {
      id,
      integratorId,
      entityId: entity.id,
      userInfo: withoutSsn(input.userInfo),
      ...sealSsn(ctx, input.userInfo.socialSecurityNumber, id),
      beneficiaryDetails: input.beneficiaryDetails,
      verificationStatus: initialPersonStatus(missing),
      createdAt: ctx.now,
      updatedAt: ctx.now,
    });
    await recordInitialStatus(tx, { type: 'associated_person', id, integratorId, status: person.verificationStatus }, credentialCause(ctx), ctx.now);
    await storeDocuments(tx, ctx.secrets, { integratorId, type: 'associated_person', id }, documents.prepared, ctx.now);
    // Before the checks: a representative who is the new owner's own user is one person to them (same-person.ts).
    await adoptRepresentativeAsOwner(tx, integratorId, entity.id, ctx.now);
    await checkIfEnteredReview(tx, { type: 'associated_person', id, integratorId, status: person.verificationStatus }, 'not_started', ctx.policy, ctx.now);
    const view = await toAssociatedPersonView(tx, person);
    await recordEvent(tx, { integratorId, type: 'associated_person.created', objectType: 'associated_person', objectId: id, object: view, at: ctx.now });
    await recomputeEntityStatus(tx, entity, credentialCause(ctx), ctx.policy, ctx.now);
    return view;
  });
}

export interface PersonPatch {
  beneficiaryId: string;
  userInfo?: Partial<UserInfo>;
  beneficiaryDetails?: Partial<BeneficiaryDetails>;
  verificationDocuments?: SubmittedDocument[] | null;
}

export async function updateAssociatedPerson(ctx: MutationContext, input: PersonPatch): Promise<AssociatedPersonView> {
  const documents = prepareDocuments(input.verificationDocuments, '/verificationDocuments');
  throwIfInvalid(documents.errors);
  return runMutation(ctx, async (tx) => {
    const integratorId = ctx.actor.integratorId;
    const person = await findPerson(tx, integratorId, input.beneficiaryId, { lock: true });
    if (!person) throw notFound('Associated person');
    const entity = (await findEntity(tx, integratorId, person.entityId, { lock: true }))!;
    const before = await toAssociatedPersonView(tx, person);

    // Partial update: fields given replace the stored ones; an address is replaced whole.
    const { userInfo, sealed, ssnChanged, errors: userInfoErrors } = mergeUserInfo(ctx, person, input.userInfo);
    const details: BeneficiaryDetails = { ...(person.beneficiaryDetails as BeneficiaryDetails), ...input.beneficiaryDetails };
    const others = (await listPersons(tx, entity.id)).filter((p) => p.id !== person.id);
    throwIfInvalid([
      ...userInfoErrors,
      ...validateBeneficiaryDetails(details, '/beneficiaryDetails'),
      ...uboTotalErrors(others, details, '/beneficiaryDetails/ownershipPercentage'),
    ]);

    let updated = await updatePerson(tx, person.id, { userInfo: withoutSsn(userInfo), ...sealed, beneficiaryDetails: details, updatedAt: ctx.now });
    await storeDocuments(tx, ctx.secrets, { integratorId, type: 'associated_person', id: person.id }, documents.prepared, ctx.now);
    const complete = missingPersonRequirements(userInfo, usableDocumentTypes(await listDocuments(tx, 'associated_person', person.id))).length === 0;
    const ref = { type: 'associated_person' as const, id: person.id, integratorId, status: updated.verificationStatus };
    await afterDataChange(tx, ref, complete, credentialCause(ctx), ctx.now);
    await adoptRepresentativeAsOwner(tx, integratorId, entity.id, ctx.now);
    await checkIfEnteredReview(tx, ref, person.verificationStatus, ctx.policy, ctx.now);
    updated = (await findPerson(tx, integratorId, person.id))!;
    const view = await toAssociatedPersonView(tx, updated);
    const previousAttributes = previousAttributesOf(before, view, ['userInfo', 'beneficiaryDetails', 'verificationDocuments'], ssnChanged);
    if (Object.keys(previousAttributes).length > 0) {
      await recordEvent(tx, { integratorId, type: 'associated_person.updated', objectType: 'associated_person', objectId: person.id, object: view, previousAttributes, at: ctx.now });
    }
    await recomputeEntityStatus(tx, entity, credentialCause(ctx), ctx.policy, ctx.now);
    return view;
  });
}

export async function removeAssociatedPerson(ctx: MutationContext, beneficiaryId: string): Promise<{ beneficiaryId: string; removed: true }> {
  return runMutation(ctx, async (tx) => {
    const integratorId = ctx.actor.integratorId;
    const person = await findPerson(tx, integratorId, beneficiaryId, { lock: true });
    if (!person) throw notFound('Associated person');
    const entity = (await findEntity(tx, integratorId, person.entityId, { lock: true }))!;
    const view = await toAssociatedPersonView(tx, person);
    await updatePerson(tx, person.id, { removedAt: ctx.now, updatedAt: ctx.now });
    await recordEvent(tx, { integratorId, type: 'associated_person.removed', objectType: 'associated_person', objectId: person.id, object: view, at: ctx.now });
    await recomputeEntityStatus(tx, entity, credentialCause(ctx), ctx.policy, ctx.now);
    return { beneficiaryId, removed: true };
  });
}
