import type { Executor } from '../../db/database.js';
import { findAccount } from '../../db/repositories/accounts.js';
import { appendActivity, openCase, type ReviewCaseRow } from '../../db/repositories/cases.js';
import { findEntity } from '../../db/repositories/entities.js';
import { findUser } from '../../db/repositories/users.js';
import type { VerificationStatus } from '../../db/schema/index.js';
import { recordEvent } from '../events/record-event.js';
import { newId } from '../ids.js';
import type { CaseSubjectType } from '../screening/subject-hits.js';

export type OpenReason = NonNullable<ReviewCaseRow['openReason']>;

const ID_FIELD: Record<CaseSubjectType, string> = { user: 'userId', associated_person: 'beneficiaryId', entity: 'entityId' };

const SUMMARY: Record<OpenReason, string> = {
  screening_hit: 'Case opened: a new screening hit on an active customer',
  incoming_from_listed_address: 'Case opened: money arrived from a wallet address on a screening list',
};

/**
 * Opens an operator case on a customer outside review (docs/back-office.md#cases-on-active-customers): the record
 * keeps its status until an operator decides; the case shows in the queue, and `review_case.opened` tells the
 * integrator. Nothing happens when the case is open already.
 */
export async function openCaseOn(
  tx: Executor,
  subject: { type: CaseSubjectType; id: string; integratorId: string; status: VerificationStatus },
  reason: OpenReason,
  at: Date,
  detail: Record<string, unknown> = {},
): Promise<boolean> {
  const opened = await openCase(tx, { subjectType: subject.type, subjectId: subject.id, integratorId: subject.integratorId }, reason, at);
  if (!opened) return false;
  await appendActivity(tx, [
    { id: newId(), integratorId: subject.integratorId, subjectType: subject.type, subjectId: subject.id, kind: 'opened', operatorId: null, summary: SUMMARY[reason], detail: { reason, ...detail }, createdAt: at },
  ]);
  await recordEvent(tx, {
    integratorId: subject.integratorId,
    type: 'review_case.opened',
    objectType: 'review_case',
    objectId: subject.id,
    object: { subjectType: subject.type, [ID_FIELD[subject.type]]: subject.id, verificationStatus: subject.status, reason, openedAt: at.toISOString() },
    at,
  });
  return true;
}

/**
 * Money arrived at an account from a listed wallet address: a case on the account's owner (its user, or its
 * entity), whatever its status, for an operator to look at; the transfer itself was recorded as it happened.
 */
export async function openCaseOnAccountOwner(tx: Executor, integratorId: string, accountId: string, at: Date, detail: Record<string, unknown>): Promise<void> {
  const account = await findAccount(tx, integratorId, accountId);
  if (!account) return;
  const owner = account.userId
    ? { type: 'user' as const, id: account.userId, row: await findUser(tx, integratorId, account.userId) }
    : { type: 'entity' as const, id: account.entityId!, row: await findEntity(tx, integratorId, account.entityId!) };
  if (!owner.row) return;
  await openCaseOn(tx, { type: owner.type, id: owner.id, integratorId, status: owner.row.verificationStatus }, 'incoming_from_listed_address', at, detail);
}
