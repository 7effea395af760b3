import type { FastifyReply, FastifyRequest } from 'fastify';
import { CredentialCache } from '../../db/credential-cache.js';
import { scopeAllows, type Access } from '../../domain/credentials/scopes.js';
import { ApiError } from '../../domain/errors.js';
import type { Api, Deps, Operation } from '../types.js';
import { createAuthenticator, type PendingAuth } from './authenticate.js';
import { bodyPending } from '../body-limits.js';
import { listOf } from '../route-options.js';
import type { FailureLimiter } from './failure-limiter.js';
import { createIdempotency } from './idempotency.js';
import { createReplayGuard } from './replay-guard.js';
import { rateLimitHook } from './rate-limit-hook.js';
import { openRateCounter } from './rate-limits.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function accessOf(request: FastifyRequest): Access {
  return request.routeOptions.config.access ?? (MUTATING.has(request.method) ? 'write' : 'read');
}

const CREDENTIAL_ROUTES = '/v1/integrator/credentials';

declare module 'fastify' {
  interface FastifyRequest {
    pendingAuth?: PendingAuth;
  }
}

/**
 * The encapsulated scope every /v1 route lives in. Order per request:
 * 1. onRequest, before any of the body is read: headers, timestamp window, key known and active (an upload
 *    from anyone else is refused at the cost of its headers; the connection is closed rather than drained);
 * 2. the body's bytes are read, within the operation's limit (body-limits.ts);
 * 3. preValidation: the signature over those raw bytes, the scope, the rate limit per credential, and only then
 *    the JSON is parsed (so a bad key is a 401 even with a bad body, and an unsigned body is never parsed);
 * 4. validation, the Idempotency-Key claim, the replay guard, the handler.
 * Every authentication failure counts against the source address (failure-limiter.ts).
 */
export async function registerSignedScope(
  app: Api,
  deps: Deps,
  operations: Operation[],
  body: { parse: (request: FastifyRequest) => Promise<void>; failures: FailureLimiter },
  routes: (api: Api) => void,
): Promise<void> {
  const credentials = new CredentialCache(deps.database);
  await credentials.start();
  app.addHook('onClose', () => credentials.stop());
  const authenticator = createAuthenticator({ credentials, clock: deps.clock });
  const idempotency = createIdempotency({ db: deps.database.db, clock: deps.clock, secrets: deps.secrets });
  const replayGuard = createReplayGuard({ db: deps.database.db, clock: deps.clock });
  // Per credential, counted where every process sees it (Redis or PostgreSQL), or in this process (rate-limits.ts).
  const rateCounter = await openRateCounter(deps, app.log);
  app.addHook('onClose', () => rateCounter.close());

  /** Counts a 401 against the caller's address (a 429 once over the limit); anything else passes through. */
  const refuse = (request: FastifyRequest, err: unknown): unknown => (err instanceof ApiError && err.status === 401 ? body.failures.fail(request.ip, err) : err);

  /** preHandler of a mutation: its Idempotency-Key claimed (or its stored answer replayed), then the replay guard. */
  const mutationGuards = async (request: FastifyRequest, reply: FastifyReply) => {
    if (await idempotency.claim(request, reply)) return reply;
    // A route may take a read as well as a mutation.
    if (!MUTATING.has(request.method)) return undefined;
    try {
      await replayGuard(request);
    } catch (err) {
      await idempotency.release(request);
      throw err;
    }
    // The body's bytes have served (signature, fingerprint, replay key): the handler works on the parsed body, and an
    // upload need not hold two more copies of itself until it answers (docs/benchmarks.md#releasing-an-uploads-bytes).
    request.rawBody = undefined;
    request.auth!.message = undefined;
    return undefined;
  };
  /** onSend of a mutation: its answer stored under its Idempotency-Key. */
  const settleMutation = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    await idempotency.settle(request, reply, payload);
    // Other processes drop cached credentials on the NOTIFY; this one must not wait for its own: the client
    // may send its next request the moment this answer arrives.
    if (MUTATING.has(request.method) && reply.statusCode < 300 && request.routeOptions.url?.startsWith(CREDENTIAL_ROUTES)) credentials.clear();
    return payload;
  };

  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      const methods = listOf(route.method);
      // The Idempotency-Key and the replay guard are a mutation's: a read never runs their hooks. Ahead of any hook
      // of the route's own, as a scope's hooks would be.
      if (methods.some((method) => MUTATING.has(method))) {
        route.preHandler = [mutationGuards, ...listOf(route.preHandler)] as typeof route.preHandler;
        route.onSend = [settleMutation, ...listOf(route.onSend)] as typeof route.onSend;
      }
      const operationId = (route.schema as { operationId?: string } | undefined)?.operationId;
      if (!operationId || methods.includes('HEAD')) return;
      for (const method of methods) {
        operations.push({ operationId, method, url: route.url, access: route.config?.access ?? (MUTATING.has(method) ? 'write' : 'read') });
      }
    });

    scope.addHook('onRequest', async (request, reply) => {
      try {
        request.pendingAuth = await authenticator.checkHeaders(request);
      } catch (err) {
        if (bodyPending(request)) reply.header('connection', 'close');
        throw refuse(request, err);
      }
    });

    scope.addHook('preValidation', async (request) => {
      try {
        request.auth = await authenticator.verify(request, request.pendingAuth!);
      } catch (err) {
        throw refuse(request, err);
      }
      if (!scopeAllows(request.auth.scope, accessOf(request))) {
        throw new ApiError('insufficient_scope', `A ${request.auth.scope} credential cannot call ${request.method} ${request.routeOptions.url}`);
      }
    });

    // After the signature's: a request counts against the credential that signed it.
    scope.addHook('preValidation', rateLimitHook(rateCounter, { max: deps.config.rateLimitMax, windowMs: deps.config.rateLimitWindowSeconds * 1000 }));

    // After the rate limit: a throttled caller's body is not parsed either. A callback hook: a request without a
    // body (every GET) passes without a promise.
    scope.addHook('preValidation', (request, _reply, done) => {
      if (!request.rawBody) return done();
      body.parse(request).then(() => done(), done);
    });

    routes(scope as unknown as Api);
  });
}
