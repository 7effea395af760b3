import type { Executor } from '../../db/database.js';
import { recordEvent } from '../events/record-event.js';
import type { MemberView } from './member-view.js';

/**
 * Member events are objects of their account: `objectId` is the account's id, so an account's member history is one
 * ordered sequence (docs/members.md#events).
 */
export async function recordMemberEvent(
  tx: Executor,
  integratorId: string,
  type: 'member.added' | 'member.role_changed' | 'member.removed',
  member: MemberView,
  at: Date,
  previousAttributes?: Record<string, unknown>,
): Promise<void> {
  await recordEvent(tx, { integratorId, type, objectType: 'member', objectId: member.accountId, object: member, ...(previousAttributes ? { previousAttributes } : {}), at });
}
