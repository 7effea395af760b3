import type { FastifyRequest } from 'fastify';
import type { MutationContext } from '../domain/context.js';
import type { Authenticated } from './auth/authenticate.js';
import type { Deps } from './types.js';

/** The signed caller of a /v1 request. Every /v1 route runs after authentication: its absence is a wiring bug (a 500). */
export function authOf(request: FastifyRequest): Authenticated {
  if (!request.auth) throw new Error(`${request.method} ${request.routeOptions.url ?? request.url} ran without an authenticated caller`);
  return request.auth;
}

/** The integrator a signed request acts for: every read is scoped to it. */
export function integratorOf(request: FastifyRequest): string {
  return authOf(request).integratorId;
}

/** The domain's view of an authenticated request: who acts, when, under which idempotency claim. */
export function actorFrom(request: FastifyRequest, deps: Deps): MutationContext {
  const auth = authOf(request);
  const ctx: MutationContext = {
    db: deps.database,
    now: deps.clock(),
    secrets: deps.secrets,
    ...(deps.custody ? { custody: deps.custody } : {}),
    policy: deps.policy,
    actor: { kind: 'integrator', integratorId: auth.integratorId, credentialId: auth.credentialId, publicKey: auth.publicKey },
  };
  if (request.idempotency) {
    const { integratorId, key, lockedAt } = request.idempotency;
    ctx.idempotency = { integratorId, key, lockedAt };
  }
  return ctx;
}
