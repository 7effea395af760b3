import { lt } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { requestNonces } from '../schema/index.js';
import { DELETE_BATCH, deleteBounded } from './bounded-delete.js';

/** Records a signed request's hash; false when the same key already sent the same message. */
export async function rememberNonce(
  db: Executor,
  publicKey: string,
  messageHash: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .insert(requestNonces)
    .values({ publicKey, messageHash, expiresAt })
    .onConflictDoUpdate({
      target: [requestNonces.publicKey, requestNonces.messageHash],
      // An expired row not yet purged no longer counts as a replay.
      set: { expiresAt },
      setWhere: lt(requestNonces.expiresAt, now),
    })
    .returning({ publicKey: requestNonces.publicKey });
  return rows.length === 1;
}

/** Deletes up to `limit` hashes that expired before `now`; returns how many (the maintenance round repeats it). */
export function purgeExpiredNonces(db: Executor, now: Date, limit = DELETE_BATCH): Promise<number> {
  return deleteBounded(db, requestNonces, lt(requestNonces.expiresAt, now), limit, requestNonces.expiresAt);
}
