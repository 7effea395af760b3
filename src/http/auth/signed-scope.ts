import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { CredentialCache } from '../../db/credential-cache.js';
import { scopeAllows, type Access } from '../../domain/credentials/scopes.js';
import { ApiError } from '../../domain/errors.js';
import type { Api, Deps, Operation } from '../types.js';
import { createAuthenticator } from './authenticate.js';
import { createIdempotency } from './idempotency.js';
import { createReplayGuard } from './replay-guard.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function accessOf(request: FastifyRequest): Access {
  return request.routeOptions.config.access ?? (MUTATING.has(request.method) ? 'write' : 'read');
}

/**
 * The encapsulated scope every /v1 route lives in. Order per request: authenticate and check scope
 * (preValidation, so a bad key is a 401 even with a bad body), rate limit per credential, validate the
 * input, claim the Idempotency-Key, refuse replays, then the handler.
 */
const CREDENTIAL_ROUTES = '/v1/integrator/credentials';

export async function registerSignedScope(app: Api, deps: Deps, operations: Operation[], routes: (api: Api) => void): Promise<void> {
  const credentials = new CredentialCache(deps.database);
  await credentials.start();
  app.addHook('onClose', () => credentials.stop());
  const authenticate = createAuthenticator({ credentials, clock: deps.clock });
  const idempotency = createIdempotency({ db: deps.database.db, clock: deps.clock });
  const replayGuard = createReplayGuard({ db: deps.database.db, clock: deps.clock });

  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const operationId = (route.schema as { operationId?: string } | undefined)?.operationId;
      if (!operationId || methods.includes('HEAD')) return;
      for (const method of methods) {
        operations.push({ operationId, method, url: route.url, access: route.config?.access ?? (MUTATING.has(method) ? 'write' : 'read') });
      }
    });

    scope.addHook('preValidation', async (request) => {
      request.auth = await authenticate(request);
      if (!scopeAllows(request.auth.scope, accessOf(request))) {
        throw new ApiError('insufficient_scope', `A ${request.auth.scope} credential cannot call ${request.method} ${request.routeOptions.url}`);
      }
    });

    await scope.register(rateLimit, {
      hook: 'preValidation',
      max: deps.config.rateLimitMax,
      timeWindow: deps.config.rateLimitWindowSeconds * 1000,
      keyGenerator: (request) => request.auth?.publicKey ?? request.ip,
      enableDraftSpec: true,
      errorResponseBuilder: (_request, context) =>
        new ApiError('rate_limited', `Rate limit of ${context.max} requests per ${context.after} exceeded for this credential`),
    });

    scope.addHook('preHandler', async (request, reply) => {
      if (await idempotency.claim(request, reply)) return reply;
      if (MUTATING.has(request.method)) {
        try {
          await replayGuard(request);
        } catch (err) {
          await idempotency.release(request);
          throw err;
        }
      }
      return undefined;
    });

    scope.addHook('onSend', async (request, reply, payload) => {
      await idempotency.settle(request, reply, payload);
      // Other processes drop cached credentials on the NOTIFY; this one must not wait for its own: the client
      // may send its next request the moment this answer arrives.
      if (MUTATING.has(request.method) && reply.statusCode < 300 && request.routeOptions.url?.startsWith(CREDENTIAL_ROUTES)) credentials.clear();
      return payload;
    });

    routes(scope as unknown as Api);
  });
}

