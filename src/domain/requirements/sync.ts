import type { Executor } from '../../db/database.js';
import { findAccountByEntity, findAccountByUser } from '../../db/repositories/accounts.js';
import { listDocuments } from '../../db/repositories/documents.js';
import { findEntity, updateEntity } from '../../db/repositories/entities.js';
import { findUser, updateUser } from '../../db/repositories/users.js';
import { recordEvent } from '../events/record-event.js';
import type { EntityInfo, UserInfo } from '../onboarding/types.js';
import { personStatesOf } from './entity-persons.js';
import { entityRequirements, personRequirements, sameRequirements, type Requirements } from './requirements.js';

/**
 * Brings a customer's announced requirements up to date, in the transaction of the change that may have moved them
 * (docs/onboarding-links.md#requirements): when they differ from those last stored, the new ones are stored and
 * `requirements.updated` written with them (`previousAttributes.requirements` the old ones). At creation
 * (`announce: false`) they are stored without an event: the `*.created` event carries them in its view. A record
 * from before requirements were stored gets them stored the first time, without an event.
 */
export async function syncUserRequirements(tx: Executor, integratorId: string, userId: string, at: Date, options: { announce?: boolean } = {}): Promise<void> {
  const user = await findUser(tx, integratorId, userId);
  if (!user) return;
  const requirements = personRequirements(user.userInfo as UserInfo, await listDocuments(tx, 'user', userId), user.verificationStatus);
  if (user.requirements !== null && sameRequirements(user.requirements, requirements)) return;
  await updateUser(tx, userId, { requirements });
  if (options.announce === false || user.requirements === null) return;
  const account = await findAccountByUser(tx, userId);
  await announce(tx, integratorId, 'user', userId, { userId, accountId: account?.id ?? null, requirements }, user.requirements as Requirements, at);
}

export async function syncEntityRequirements(tx: Executor, integratorId: string, entityId: string, at: Date, options: { announce?: boolean } = {}): Promise<void> {
  const entity = await findEntity(tx, integratorId, entityId);
  if (!entity) return;
  const requirements = entityRequirements(entity.entityInfo as EntityInfo, await listDocuments(tx, 'entity', entityId), entity.verificationStatus, await personStatesOf(tx, entityId));
  if (entity.requirements !== null && sameRequirements(entity.requirements, requirements)) return;
  await updateEntity(tx, entityId, { requirements });
  if (options.announce === false || entity.requirements === null) return;
  const account = await findAccountByEntity(tx, entityId);
  await announce(tx, integratorId, 'entity', entityId, { entityId, accountId: account?.id ?? null, requirements }, entity.requirements as Requirements, at);
}

/** requirements.updated is about the customer (objectType user or entity, objectId its id), like its other events. */
function announce(tx: Executor, integratorId: string, objectType: 'user' | 'entity', objectId: string, object: Record<string, unknown>, previous: Requirements, at: Date) {
  return recordEvent(tx, { integratorId, type: 'requirements.updated', objectType, objectId, object, previousAttributes: { requirements: previous }, at });
}

/** After a change to a verification subject: its requirements, when it is a customer (a user or an entity). */
export async function syncRequirementsOf(tx: Executor, subject: { type: 'user' | 'entity' | 'associated_person'; id: string; integratorId: string }, at: Date): Promise<void> {
  if (subject.type === 'user') await syncUserRequirements(tx, subject.integratorId, subject.id, at);
  else if (subject.type === 'entity') await syncEntityRequirements(tx, subject.integratorId, subject.id, at);
}
