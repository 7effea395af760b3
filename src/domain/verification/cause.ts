import type { MutationContext } from '../context.js';

/** The integrator as its credential id, which verification_transitions have always stored (signingKeyCause: the public key). */
export function credentialCause(ctx: MutationContext) {
  return { actorType: 'integrator' as const, ...(ctx.actor.credentialId ? { actorId: ctx.actor.credentialId } : {}) };
}
