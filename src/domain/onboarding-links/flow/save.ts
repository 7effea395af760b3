import type { Tx } from '../../../db/database.js';
import type { OnboardingLinkRow } from '../../../db/repositories/onboarding-links.js';
import { completeOnboardingLink, type ClosedStatus } from '../link-life.js';
import { findAccountByUser } from '../../../db/repositories/accounts.js';
import { requestVerification } from '../../verification/request-verification.js';
import { flowLinkOf, linkByToken, linkMutation, type FlowContext, type FlowLink } from './flow-link.js';
import { owedSteps } from './steps.js';

/** A save on a link that no longer works: the page answers 410 saying why, and nothing was written. */
export class LinkClosedError extends Error {
  constructor(readonly closed: ClosedStatus) {
    super(`The onboarding link is ${closed}`);
  }
}

/** After a save: the next step the link owes, or `completed` when the save finished the flow. */
export type SaveOutcome = { next: string } | { completed: FlowLink };

/**
 * Runs one step's save in one transaction with the link locked (so two tabs of one link cannot both create a user):
 * a link no longer live, or past its date, is a LinkClosedError (nothing written; the expiry itself is written by
 * the page's read, openFlowLink). After the step's own change, the link is read again: when it owes nothing more
 * it is completed in the same transaction (onboarding_link.completed with its user), so the last step and the
 * completion commit together, and a replayed POST meets a completed link.
 */
export async function withLiveLink(ctx: FlowContext, token: string, save: (tx: Tx, link: FlowLink) => Promise<OnboardingLinkRow | void>): Promise<SaveOutcome> {
  return ctx.db.db.transaction(async (tx) => {
    const row = await linkByToken(tx, ctx.secrets, token, { lock: true });
    if (row.status === 'completed' || row.status === 'expired' || row.status === 'revoked') throw new LinkClosedError(row.status);
    if (row.expiresAt.getTime() <= ctx.now.getTime()) throw new LinkClosedError('expired');
    const changed = (await save(tx, await flowLinkOf(tx, row))) ?? row;
    return finishIfDone(ctx, tx, await flowLinkOf(tx, changed));
  });
}

/** The link's next owed step, or its completion (with the user) when nothing more is owed. */
export async function finishIfDone(ctx: FlowContext, tx: Tx, link: FlowLink): Promise<SaveOutcome> {
  const next = owedSteps(link)[0];
  if (next) return { next: next.name };
  // Nothing owed but no user: a flow whose steps made none (cannot happen for an individual; the details step makes it).
  if (!link.user) throw new Error('The hosted flow owes nothing but made no user');
  await requestVerificationIfReady(ctx, tx, link);
  await completeOnboardingLink(tx, link.row.integratorId, link.row.id, link.user.id, ctx.now);
  return { completed: await flowLinkOf(tx, { ...link.row, status: 'completed', completedAt: ctx.now }) };
}

/**
 * Completing a link requests its user's verification when nothing is due and it was not requested yet (init or
 * awaiting_information), as Bridge's KYC link submits for review at its end: request-verification's own function, so
 * the checks and events are the API's. An entity link's user is the company's representative, verified as any member
 * who acts on transactions is (docs/members.md#verified-members). A user already in review, decided, or asked to
 * resubmit (the resubmission itself moved it back to review) is left as it is.
 */
async function requestVerificationIfReady(ctx: FlowContext, tx: Tx, link: FlowLink): Promise<void> {
  const user = link.user;
  if (!user || (link.requirements?.currentlyDue.length ?? 1) > 0) return;
  if (user.verificationStatus !== 'init' && user.verificationStatus !== 'awaiting_information') return;
  const account = await findAccountByUser(tx, user.id);
  if (account) await requestVerification(linkMutation(ctx, tx, link.row), { accountId: account.id });
}
