import { findOnboardingLink } from '../../db/repositories/onboarding-links.js';
import { runMutation, type MutationContext } from '../context.js';
import { invalidFields, notFound } from '../errors.js';
import { completeOnboardingLink, expireIfOverdue, openOnboardingLink } from './link-life.js';
import { toOnboardingLinkView, type OnboardingLinkView } from './link-view.js';

export interface SimulateOnboardingLinkInput {
  onboardingLinkId: string;
  outcome: 'opened' | 'completed';
  userId?: string;
}

/**
 * Sandbox only (docs/onboarding-links.md#sandbox): what the customer would do on the hosted page, so an integrator
 * can try its webhook handling. `opened` as if the page were served; `completed` for `userId` (the link's own user,
 * or for a new customer an existing user of the integrator standing for the one the flow would create).
 */
export async function simulateOnboardingLink(ctx: MutationContext, input: SimulateOnboardingLinkInput): Promise<OnboardingLinkView> {
  const integratorId = ctx.actor.integratorId;
  const found = await findOnboardingLink(ctx.db.db, integratorId, input.onboardingLinkId);
  if (!found) throw notFound('Onboarding link');
  const row = (await expireIfOverdue(ctx.db.db, found, ctx.now)) ?? found;
  if (input.outcome === 'opened') return toOnboardingLinkView(await openOnboardingLink(ctx.db.db, row, ctx.now));
  const userId = input.userId ?? row.userId;
  if (userId === null) throw invalidFields([{ pointer: '/userId', code: 'required', detail: 'userId is required: the link was made for a new customer', in: 'body' }]);
  return runMutation(ctx, (tx) => completeOnboardingLink(tx, integratorId, row.id, userId, ctx.now));
}
