import type { MutationContext } from '../context.js';

/** The integrator credential behind a change, for the verification audit trail. */
export function integratorCause(ctx: MutationContext) {
  return { actorType: 'integrator' as const, ...(ctx.actor.credentialId ? { actorId: ctx.actor.credentialId } : {}) };
}
