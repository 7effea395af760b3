import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../clock.js';
import { sha256 } from '../../crypto/request-signature.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Db } from '../../db/database.js';
import * as repo from '../../db/repositories/idempotency-keys.js';
import { databaseUnavailableCause } from '../../db/unavailable.js';
import type { IdempotencyClaim } from '../../domain/context.js';
import { ApiError, invalidFields } from '../../domain/errors.js';
import { sealContexts } from '../../crypto/seal-contexts.js';
import { authOf, integratorOf } from '../context.js';

/** How long a stored response is replayed (Stripe: 24 h). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** An in-progress claim older than this belongs to a request that died; a retry may take it over. */
export const IDEMPOTENCY_STALE_MS = 60 * 1000;

const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: IdempotencyClaim & { settled: boolean };
  }
}

async function fingerprint(request: FastifyRequest): Promise<string> {
  const head = Buffer.from(`${request.method} ${request.raw.url ?? request.url}\n`);
  return (await sha256(Buffer.concat([head, request.rawBody ?? Buffer.alloc(0)]))).toString('hex');
}

export function createIdempotency(deps: { db: Db; clock: Clock; secrets: SecretBox }) {
  /** The stored answer's body: sealed (every row since 0014), or in clear for a row written before. */
  function storedBody(row: repo.IdempotencyRow): string {
    if (row.responseSealed !== null) return deps.secrets.open(row.responseSealed, sealContexts.idempotentAnswer(row.integratorId, row.key)).toString('utf8');
    return row.responseBody ?? '';
  }

  /**
   * preHandler: claims the key, or answers from the stored response. Returns true when the reply was sent.
   * Only POST takes a key (PATCH and DELETE are idempotent by their nature).
   */
  async function claim(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const raw = request.headers['idempotency-key'];
    if (raw === undefined || request.method !== 'POST') return false;
    const key = Array.isArray(raw) ? raw[0] ?? '' : raw;
    if (!KEY_FORMAT.test(key)) {
      throw invalidFields(
        [{ pointer: '/idempotency-key', code: 'invalid_format', detail: 'must be 1-255 visible ASCII characters', in: 'header' }],
        'Idempotency-Key must be 1-255 visible ASCII characters',
      );
    }
    const integratorId = integratorOf(request);
    const print = await fingerprint(request);
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = deps.clock();
      if (await repo.insertClaim(deps.db, { integratorId, key, fingerprint: print, lockedAt: now, createdAt: now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) })) {
        request.idempotency = { integratorId, key, lockedAt: now, settled: false };
        return false;
      }
      const existing = await repo.findClaim(deps.db, integratorId, key);
      if (!existing) continue; // released meanwhile: claim again
      if (existing.expiresAt < now) {
        await repo.deleteExpiredClaim(deps.db, integratorId, key, now);
        continue;
      }
      if (existing.fingerprint !== print) {
        throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used with a different method, path or body');
      }
      if (existing.state === 'completed') {
        if (existing.responseSecret && existing.credentialId !== authOf(request).credentialId) {
          throw new ApiError(
            'idempotency_key_other_credential',
            'The answer stored under this Idempotency-Key carries a secret; only the credential that made the request can replay it',
          );
        }
        await reply
          .code(existing.responseStatus!)
          .header('content-type', existing.responseContentType ?? 'application/json')
          .header('idempotent-replayed', 'true')
          .send(storedBody(existing));
        return true;
      }
      if (existing.state === 'in_progress' && now.getTime() - existing.lockedAt.getTime() > IDEMPOTENCY_STALE_MS) {
        if (await repo.takeOverClaim(deps.db, integratorId, key, existing.lockedAt, now)) {
          request.idempotency = { integratorId, key, lockedAt: now, settled: false };
          return false;
        }
        continue;
      }
      if (existing.state === 'committed' && now.getTime() - existing.lockedAt.getTime() > IDEMPOTENCY_STALE_MS) {
        throw new ApiError(
          'idempotency_request_in_progress',
          'The request with this Idempotency-Key committed its change but its response was not recorded; read the resource to see the outcome',
        );
      }
      throw new ApiError('idempotency_request_in_progress', 'A request with this Idempotency-Key is still being processed; retry later');
    }
    throw new ApiError('idempotency_request_in_progress', 'A request with this Idempotency-Key is contended; retry later');
  }

  /**
   * onSend: stores the final response under the key, or gives the key back after a 5xx that changed nothing. With the
   * database gone, neither can be done: the answer goes out anyway (a success was committed, and must be
   * acknowledged), and the claim stays as it was: a retry within IDEMPOTENCY_STALE_MS is told to wait, and after it
   * takes the claim over, or learns that the change committed.
   */
  async function settle(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
    const claimed = request.idempotency;
    if (!claimed || claimed.settled) return;
    claimed.settled = true;
    try {
      await store(request, reply, payload, claimed);
    } catch (err) {
      const cause = databaseUnavailableCause(err);
      if (!cause) throw err;
      // A failed request was logged already; a success whose answer cannot be replayed is worth a line.
      if (reply.statusCode < 500) request.log.warn({ cause }, 'database unavailable: the answer was not stored under its Idempotency-Key');
    }
  }

  async function store(request: FastifyRequest, reply: FastifyReply, payload: unknown, claimed: IdempotencyClaim): Promise<void> {
    const { integratorId, key, lockedAt } = claimed;
    if (reply.statusCode >= 500) {
      // Deletes only a claim still in progress: a committed change keeps its key (and gets the 5xx stored below).
      await repo.releaseClaim(deps.db, integratorId, key, lockedAt);
      const still = await repo.findClaim(deps.db, integratorId, key);
      // A 503 is never final (the connection was lost as the change committed): the key stays committed, unanswered,
      // so a retry is told that the change was made rather than replayed a failure.
      if (!still || reply.statusCode === 503) return;
    }
    const contentType = String(reply.getHeader('content-type') ?? 'application/json');
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
    // Every stored answer is sealed: bodies carry personal data, and some (secretResponse routes) keys or tokens.
    const secret = reply.statusCode < 300 && request.routeOptions.config?.secretResponse === true;
    await repo.completeClaim(deps.db, integratorId, key, lockedAt, {
      status: reply.statusCode,
      sealedBody: deps.secrets.seal(body, sealContexts.idempotentAnswer(integratorId, key)),
      contentType,
      credentialId: authOf(request).credentialId,
      secret,
    });
  }

  /** Gives the key back without storing anything (the request was refused before it ran). */
  async function release(request: FastifyRequest): Promise<void> {
    const claimed = request.idempotency;
    if (!claimed || claimed.settled) return;
    claimed.settled = true;
    await repo.releaseClaim(deps.db, claimed.integratorId, claimed.key, claimed.lockedAt);
  }

  return { claim, settle, release };
}
