import type { Tx } from '../../../db/database.js';
import { insertMember } from '../../../db/repositories/members.js';
import { invalidFields, type FieldError } from '../../errors.js';
import { recordMemberEvent } from '../../members/member-events.js';
import { toMemberView } from '../../members/member-view.js';
import { createEntityAccount, updateEntityAccount } from '../../onboarding/entities/entity-accounts.js';
import { createAssociatedPerson, removeAssociatedPerson, updateAssociatedPerson } from '../../onboarding/persons/associated-persons.js';
import type { BeneficiaryDetails, EntityInfo, SubmittedDocument, UserInfo } from '../../onboarding/types.js';
import { requestVerification } from '../../verification/request-verification.js';
import { entityFlowStateOf, type EntityFlowState } from './entity-state.js';
import { linkMutation, type FlowContext, type FlowLink } from './flow-link.js';

// An entity link's steps (docs/onboarding-links.md#the-entity-flow), each through the API's own domain functions
// (create-entity-account, update-entity-account, the associated-person operations, request-verification), inside
// withLiveLink's transaction (save.ts): a domain error rolls everything back, the link's changes included.

const needs = (pointer: string, detail: string): FieldError => ({ pointer, code: 'required', detail, in: 'body' });

function representative(link: FlowLink) {
  if (!link.user) throw invalidFields([needs('/userInfo', 'Your own details come first')]);
  return link.user;
}

function company(link: FlowLink): EntityFlowState {
  if (!link.entity) throw invalidFields([needs('/entityInfo', 'The company’s details come first')]);
  return link.entity;
}

/**
 * The company's details: a new company is made by create-entity-account's function (its terms the representative's)
 * and the representative becomes the owner of its account (member.added), which is how a later step, or a fresh
 * link for the same user, finds it. An existing company's details are changed by update-entity-account's.
 */
export async function saveCompany(ctx: FlowContext, tx: Tx, link: FlowLink, entityInfo: EntityInfo): Promise<void> {
  const user = representative(link);
  const mutation = linkMutation(ctx, tx, link.row);
  if (link.entity) {
    await updateEntityAccount(mutation, { accountId: link.entity.accountId, entityInfo });
  } else {
    const signedAt = link.row.termsAcceptedAt ?? user.serviceTermsSignedAt;
    const created = await createEntityAccount(mutation, { entityInfo, serviceTermsSignedAt: signedAt.toISOString() });
    const member = await insertMember(tx, { integratorId: link.row.integratorId, accountId: created.accountId, userId: user.id, role: 'owner', createdAt: ctx.now, updatedAt: ctx.now });
    if (member) await recordMemberEvent(tx, link.row.integratorId, 'member.added', toMemberView({ ...member, userInfo: user.userInfo }), ctx.now);
  }
}

export interface PersonInput {
  /** Absent: a new person. */
  beneficiaryId?: string;
  userInfo: Partial<UserInfo>;
  beneficiaryDetails: BeneficiaryDetails;
  documents: SubmittedDocument[];
}

/** One of the company's persons, or the same error as a missing one (an id from another company is not its). */
function personOf(state: EntityFlowState, beneficiaryId: string) {
  const person = state.persons.find((p) => p.row.id === beneficiaryId);
  if (!person) throw invalidFields([{ pointer: '/beneficiaryId', code: 'not_found', detail: 'beneficiaryId is not a person of this company', in: 'body' }]);
  return person;
}

/** Adds a person (create-associated-person's function) or changes one (update-associated-person's). */
export async function savePerson(ctx: FlowContext, tx: Tx, link: FlowLink, input: PersonInput): Promise<void> {
  const state = company(link);
  const mutation = linkMutation(ctx, tx, link.row);
  const documents = input.documents.length > 0 ? { verificationDocuments: input.documents } : {};
  if (input.beneficiaryId !== undefined) {
    personOf(state, input.beneficiaryId);
    await updateAssociatedPerson(mutation, { beneficiaryId: input.beneficiaryId, userInfo: input.userInfo, beneficiaryDetails: input.beneficiaryDetails, ...documents });
  } else {
    await createAssociatedPerson(mutation, { accountId: state.accountId, userInfo: input.userInfo as UserInfo, beneficiaryDetails: input.beneficiaryDetails, ...documents });
  }
}

/** Removes one of the company's persons (remove-associated-person's function). */
export async function removePerson(ctx: FlowContext, tx: Tx, link: FlowLink, beneficiaryId: string): Promise<void> {
  personOf(company(link), beneficiaryId);
  await removeAssociatedPerson(linkMutation(ctx, tx, link.row), beneficiaryId);
}

/**
 * Going on from the persons' list: refused, with what is missing, while the persons owe something; otherwise the
 * submission (verification requested). Nothing else requests it, so the list can grow until the customer goes on.
 */
export async function confirmPersons(ctx: FlowContext, tx: Tx, link: FlowLink, describe: (state: EntityFlowState) => FieldError[]): Promise<void> {
  const errors = describe(company(link));
  if (errors.length > 0) throw invalidFields(errors, 'The associated persons are not complete');
  await requestWhenComplete(ctx, tx, link);
}

/** The company's documents, added by update-entity-account's function. */
export async function saveCompanyDocuments(ctx: FlowContext, tx: Tx, link: FlowLink, documents: SubmittedDocument[]): Promise<void> {
  const state = company(link);
  await updateEntityAccount(linkMutation(ctx, tx, link.row), { accountId: state.accountId, entityDocuments: documents });
}

/**
 * Once the company owes nothing (its persons included), verification is requested as the API's request-verification
 * would be: each complete person not yet submitted (init), then the company (init: it then waits for its persons).
 */
async function requestWhenComplete(ctx: FlowContext, tx: Tx, link: FlowLink): Promise<void> {
  const { entity: state } = await entityFlowStateOf(tx, link.row, link.user);
  if (!state || state.requirements.currentlyDue.length > 0) return;
  const mutation = linkMutation(ctx, tx, link.row);
  for (const person of state.persons) {
    if (person.row.verificationStatus === 'init') await requestVerification(mutation, { beneficiaryId: person.row.id });
  }
  const { entity: after } = await entityFlowStateOf(tx, link.row, link.user);
  if (after?.entity.verificationStatus === 'init') await requestVerification(mutation, { accountId: after.accountId });
}
