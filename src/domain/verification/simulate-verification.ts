import { runMutation, type MutationContext } from '../context.js';
import type { Cause } from './apply-transition.js';
import { applyDecision, type DecisionInput } from './decisions.js';
import type { VerificationState } from './request-verification.js';
import { loadSubject } from './subjects.js';

export type SimulatedOutcome = 'approve' | 'reject' | 'request_resubmission';

export interface SimulationInput extends DecisionInput {
  accountId?: string;
  beneficiaryId?: string;
  outcome: SimulatedOutcome;
}

/** Sandbox only: the same decisions an operator makes, so every branch can be tested without a human. */
export function simulateVerification(ctx: MutationContext, input: SimulationInput): Promise<VerificationState> {
  return runMutation(ctx, async (tx) => {
    const subject = await loadSubject(tx, ctx.actor.integratorId, input);
    const reason = input.reasons && input.reasons.length > 0 ? input.reasons.join('; ') : `sandbox ${input.outcome}`;
    const cause: Cause = { actorType: 'sandbox', reason, ...(ctx.actor.credentialId ? { actorId: ctx.actor.credentialId } : {}) };
    const status = await applyDecision(tx, subject, input.outcome, input, cause, ctx.policy, ctx.now);
    return { ...subject.key, verificationStatus: status };
  });
}
