import type { FastifyRequest } from 'fastify';
import type { MutationContext } from '../domain/context.js';
import type { Deps } from './types.js';

/** The domain's view of an authenticated request: who acts, when, under which idempotency claim. */
export function actorFrom(request: FastifyRequest, deps: Deps): MutationContext {
  const auth = request.auth!;
  const ctx: MutationContext = {
    db: deps.database,
    now: deps.clock(),
    secrets: deps.secrets,
    policy: deps.policy,
    actor: { kind: 'integrator', integratorId: auth.integratorId, credentialId: auth.credentialId, publicKey: auth.publicKey },
  };
  if (request.idempotency) {
    const { integratorId, key, lockedAt } = request.idempotency;
    ctx.idempotency = { integratorId, key, lockedAt };
  }
  return ctx;
}
