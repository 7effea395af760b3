import { personStatesOf } from '../../requirements/entity-persons.js';
import { syncEntityRequirements } from '../../requirements/sync.js';
import { findAccount, findAccountByEntity, insertAccount } from '../../../db/repositories/accounts.js';
import { listDocuments } from '../../../db/repositories/documents.js';
import { findEntity, insertEntity, listPersons, updateEntity, type EntityRow } from '../../../db/repositories/entities.js';
import type { Executor } from '../../../db/database.js';
import { runMutation, type MutationContext } from '../../context.js';
import { notFound, type FieldError } from '../../errors.js';
import { recordEvent } from '../../events/record-event.js';
import { newId } from '../../ids.js';
import { toAccountView } from '../accounts/account-view.js';
import { giveEntityWallet } from '../accounts/entity-wallet.js';
import { prepareDocuments, storeDocuments, toDocumentView } from '../document-store.js';
import { missingCompanyData, missingEntityDocuments } from '../requirements.js';
import { initialEntityStatus } from '../status.js';
import { recordInitialStatus } from '../../verification/apply-transition.js';
import { credentialCause } from '../../verification/cause.js';
import { checkIfEnteredReview } from '../../verification/checks/run-checks.js';
import type { EntityInfo, SubmittedDocument } from '../types.js';
import { validateEntityInfo } from '../validation/index.js';
import { checkSignedAt, throwIfInvalid } from '../validation-result.js';
import { changedFields, mergeEntityInfo } from './entity-info-merge.js';
import { toEntityAccountView, personSummary, type AssociatedPersonSummary, type EntityAccountView } from './entity-view.js';
import { recomputeEntityStatus } from './recompute-status.js';

/** Set by us, not by the integrator (the spec: returned in responses, not in the update request). */
const DEFAULT_PRIMARY_CURRENCY = 'usd';

async function viewOf(tx: Executor, entity: EntityRow): Promise<EntityAccountView> {
  const account = (await findAccountByEntity(tx, entity.id))!;
  return toEntityAccountView(entity, account, await listDocuments(tx, 'entity', entity.id), await personStatesOf(tx, entity.id));
}

/** The entity behind an entity account of this integrator, or the same 404 as a missing one. */
export async function entityOfAccount(tx: Executor, integratorId: string, accountId: string, lock: boolean): Promise<EntityRow> {
  const account = await findAccount(tx, integratorId, accountId);
  if (!account || account.type !== 'entity' || !account.entityId) throw notFound('Entity account');
  return (await findEntity(tx, integratorId, account.entityId, { lock }))!;
}

export interface CreateEntityInput {
  entityInfo?: EntityInfo;
  entityDocuments?: SubmittedDocument[] | null;
  serviceTermsSignedAt: string;
}

function entityInfoErrors(input: { entityInfo?: EntityInfo; serviceTermsSignedAt?: string }, now: Date): FieldError[] {
  return [
    ...validateEntityInfo(input.entityInfo ?? {}, '/entityInfo'),
    ...(input.serviceTermsSignedAt === undefined ? [] : checkSignedAt(input.serviceTermsSignedAt, '/serviceTermsSignedAt', now)),
  ];
}

/** Every domain-level error of a create or update body, documents included. */
export function entitySubmissionErrors(input: { entityInfo?: EntityInfo; entityDocuments?: SubmittedDocument[] | null; serviceTermsSignedAt?: string }, now: Date): FieldError[] {
  return [...entityInfoErrors(input, now), ...prepareDocuments(input.entityDocuments, '/entityDocuments').errors];
}

export async function createEntityAccount(
  ctx: MutationContext,
  input: CreateEntityInput,
): Promise<EntityAccountView> {
  const info: EntityInfo = { ...(input.entityInfo ?? {}) };
  info.financialInfo = { ...info.financialInfo, preferredPrimaryCurrency: DEFAULT_PRIMARY_CURRENCY };
  const documents = prepareDocuments(input.entityDocuments, '/entityDocuments');
  throwIfInvalid([...entityInfoErrors(input, ctx.now), ...documents.errors]);
  return runMutation(ctx, async (tx) => {
    const integratorId = ctx.actor.integratorId;
    const entityId = newId();
    const accountId = newId();
    // A new entity has no associated persons yet, so a complete one waits for them.
    const status = initialEntityStatus(
      missingEntityDocuments(
        documents.prepared.map((d) => d.documentType),
        info,
      ),
      missingCompanyData(info),
    );
    const entity = await insertEntity(tx, {
      id: entityId,
      integratorId,
      entityInfo: info,
      serviceTermsSignedAt: new Date(input.serviceTermsSignedAt),
      verificationStatus: status,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    });
    await recordInitialStatus(tx, { type: 'entity', id: entityId, integratorId, status }, credentialCause(ctx), ctx.now);
    const created = await insertAccount(tx, { id: accountId, integratorId, type: 'entity', entityId, createdAt: ctx.now, updatedAt: ctx.now });
    // Every entity holds a custodial wallet from the start, operated by its members (docs/members.md).
    const account = (await giveEntityWallet(tx, created, ctx.now, ctx))!;
    await storeDocuments(tx, ctx.secrets, { integratorId, type: 'entity', id: entityId }, documents.prepared, ctx.now);
    // Screened as it is created, like a user or a person (docs/screening.md): its hits are on record before any change.
    await checkIfEnteredReview(tx, { type: 'entity', id: entityId, integratorId, status }, 'not_started', ctx.policy, ctx.now);
    const view = await viewOf(tx, entity);
    await recordEvent(tx, { integratorId, type: 'entity.created', objectType: 'entity', objectId: entityId, object: view, at: ctx.now });
    await recordEvent(tx, { integratorId, type: 'account.created', objectType: 'account', objectId: accountId, object: toAccountView(account, entity.verificationStatus), at: ctx.now });
    // Stored, not announced: entity.created carries them.
    await syncEntityRequirements(tx, integratorId, entityId, ctx.now, { announce: false });
    return view;
  });
}

export async function updateEntityAccount(
  ctx: MutationContext,
  input: { accountId: string; entityInfo?: EntityInfo; entityDocuments?: SubmittedDocument[] | null },
): Promise<EntityAccountView> {
  const documents = prepareDocuments(input.entityDocuments, '/entityDocuments');
  throwIfInvalid([...entityInfoErrors(input, ctx.now), ...documents.errors]);
  return runMutation(ctx, async (tx) => {
    const integratorId = ctx.actor.integratorId;
    const entity = await entityOfAccount(tx, integratorId, input.accountId, true);
    const before = entity.entityInfo as EntityInfo;
    const merged = mergeEntityInfo(before, input.entityInfo ?? {});
    // Rules spanning fields (a flag and its explanation) are checked on the merged result.
    throwIfInvalid(validateEntityInfo(merged, '/entityInfo'));
    const changes = changedFields(before, merged);
    let current = entity;
    if (Object.keys(changes).length > 0) current = await updateEntity(tx, entity.id, { entityInfo: merged, updatedAt: ctx.now });
    const docsBefore = (await listDocuments(tx, 'entity', entity.id)).map(toDocumentView);
    await storeDocuments(tx, ctx.secrets, { integratorId, type: 'entity', id: entity.id }, documents.prepared, ctx.now);
    current = await recomputeEntityStatus(tx, current, credentialCause(ctx), ctx.policy, ctx.now);
    const view = await viewOf(tx, current);
    const docsAdded = view.entityDocuments.length > docsBefore.length;
    if (Object.keys(changes).length > 0 || docsAdded) {
      const previousAttributes: Record<string, unknown> = {};
      if (Object.keys(changes).length > 0) previousAttributes.entityInfo = changes;
      if (docsAdded) previousAttributes.entityDocuments = docsBefore;
      await recordEvent(tx, { integratorId, type: 'entity.updated', objectType: 'entity', objectId: entity.id, object: view, previousAttributes, at: ctx.now });
    }
    return view;
  });
}

export interface EntityDetails extends EntityAccountView {
  associatedPersons: AssociatedPersonSummary[];
}

export async function getEntityDetails(db: Executor, integratorId: string, accountId: string): Promise<EntityDetails> {
  const entity = await entityOfAccount(db, integratorId, accountId, false);
  const view = await viewOf(db, entity);
  return { ...view, associatedPersons: (await listPersons(db, entity.id)).map(personSummary) };
}

