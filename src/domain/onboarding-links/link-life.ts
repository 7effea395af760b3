import type { Executor } from '../../db/database.js';
import { findOnboardingLink, updateLiveOnboardingLink, type OnboardingLinkRow } from '../../db/repositories/onboarding-links.js';
import { findUser } from '../../db/repositories/users.js';
import { ApiError, invalidFields, notFound } from '../errors.js';
import { recordLinkEvent, type OnboardingLinkView } from './link-view.js';

// A link's life after it was made (docs/onboarding-links.md): opened when its page is first served, completed when
// the hosted flow (or, in the sandbox, simulate-onboarding-link) finishes, expired at its date. Each move is guarded
// (only from a live status), so of two racing moves one wins, and each writes its event in its own transaction.

const overdue = (row: OnboardingLinkRow, now: Date) => (row.status === 'pending' || row.status === 'opened') && row.expiresAt.getTime() <= now.getTime();

/** Expires one live link past its date, with onboarding_link.expired; the expired row, or undefined when it was not due. */
export async function expireIfOverdue(db: Executor, row: OnboardingLinkRow, now: Date): Promise<OnboardingLinkRow | undefined> {
  if (!overdue(row, now)) return undefined;
  return db.transaction(async (tx) => {
    const current = await findOnboardingLink(tx, row.integratorId, row.id, { lock: true });
    if (!current || !overdue(current, now)) return current;
    const expired = (await updateLiveOnboardingLink(tx, row.id, { status: 'expired', updatedAt: now }))!;
    await recordLinkEvent(tx, 'onboarding_link.expired', expired, now, current);
    return expired;
  });
}

/** The mail sender's round: expires one link by id; true when it did. */
export async function expireOnboardingLink(db: Executor, integratorId: string, id: string, now: Date): Promise<boolean> {
  const row = await findOnboardingLink(db, integratorId, id);
  if (!row || !overdue(row, now)) return false;
  return (await expireIfOverdue(db, row, now))?.status === 'expired';
}

/** Why a link no longer works, for the page (410) and the API (409). */
export type ClosedStatus = 'completed' | 'expired' | 'revoked';

/**
 * Marks a live link opened (the first time its page is served): onboarding_link.opened. A link already opened stays
 * as it is (no second event). Answers the link as it now is; its status says whether it can still be used.
 */
export async function openOnboardingLink(db: Executor, row: OnboardingLinkRow, now: Date): Promise<OnboardingLinkRow> {
  const current = (await expireIfOverdue(db, row, now)) ?? row;
  if (current.status !== 'pending') return current;
  return db.transaction(async (tx) => {
    const opened = await updateLiveOnboardingLink(tx, row.id, { status: 'opened', openedAt: now, updatedAt: now }, ['pending']);
    if (!opened) return (await findOnboardingLink(tx, row.integratorId, row.id))!;
    await recordLinkEvent(tx, 'onboarding_link.opened', opened, now, current);
    return opened;
  });
}

/**
 * Completes a live link for `userId` (the user the flow created or completed): onboarding_link.completed with the
 * userId. Written in the caller's transaction, with the flow's own changes. A link made for a user completes for that
 * user only.
 */
export async function completeOnboardingLink(tx: Executor, integratorId: string, id: string, userId: string, now: Date): Promise<OnboardingLinkView> {
  const row = await findOnboardingLink(tx, integratorId, id, { lock: true });
  if (!row) throw notFound('Onboarding link');
  if (row.userId !== null && row.userId !== userId) {
    throw invalidFields([{ pointer: '/userId', code: 'user_mismatch', detail: 'The link was made for another user', in: 'body' }]);
  }
  if (!(await findUser(tx, integratorId, userId))) throw notFound('User');
  if (row.status !== 'pending' && row.status !== 'opened') throw new ApiError('onboarding_link_closed', `The onboarding link is ${row.status}`);
  if (overdue(row, now)) throw new ApiError('onboarding_link_closed', 'The onboarding link is expired');
  const completed = (await updateLiveOnboardingLink(tx, row.id, { status: 'completed', userId, completedAt: now, updatedAt: now }))!;
  return recordLinkEvent(tx, 'onboarding_link.completed', completed, now, row);
}
