import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import { sha256 } from '../../crypto/request-signature.js';
import { rememberNonce } from '../../db/repositories/request-nonces.js';
import { ApiError } from '../../domain/errors.js';
import { TIMESTAMP_TOLERANCE_SECONDS } from './authenticate.js';
import { authOf } from '../context.js';

/**
 * Refuses a mutating request whose (public key, message hash) was already seen while its timestamp is still
 * acceptable. Keyed on the message hash, not the signature bytes: ECDSA signatures are malleable (s vs n-s).
 */
export function createReplayGuard(deps: { db: Db; clock: Clock }) {
  return async function guard(request: FastifyRequest): Promise<void> {
    const auth = authOf(request);
    // The message stays acceptable until timestamp + tolerance; one extra second covers rounding.
    const expiresAt = new Date((auth.timestamp + TIMESTAMP_TOLERANCE_SECONDS + 1) * 1000);
    if (!auth.message) throw new Error('the replay guard needs the signed message, and it was already let go');
    const messageHash = (await sha256(auth.message)).toString('hex');
    if (!(await rememberNonce(deps.db, auth.publicKey, messageHash, expiresAt, deps.clock()))) {
      throw new ApiError(
        'duplicate_request',
        'This exact signed request was already received; sign again with a new timestamp, or send an Idempotency-Key to retry safely',
      );
    }
  };
}
