import { lt, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { preparedStatement } from '../prepared.js';
import { requestNonces } from '../schema/index.js';
import { DELETE_BATCH, deleteBounded } from './bounded-delete.js';

const insertNonce = preparedStatement<{ publicKey: string; messageHash: string; expiresAt: Date; now: Date }, { publicKey: string }[]>('remember_nonce', (db) =>
  db
    .insert(requestNonces)
    .values({ publicKey: sql.placeholder('publicKey'), messageHash: sql.placeholder('messageHash'), expiresAt: sql.placeholder('expiresAt') })
    .onConflictDoUpdate({
      target: [requestNonces.publicKey, requestNonces.messageHash],
      // An expired row not yet purged no longer counts as a replay.
      set: { expiresAt: sql`excluded.expires_at` },
      setWhere: lt(requestNonces.expiresAt, sql.placeholder('now')),
    })
    .returning({ publicKey: requestNonces.publicKey }),
);

/** Records a signed request's hash; false when the same key already sent the same message. Every signed request runs it. */
export async function rememberNonce(db: Executor, publicKey: string, messageHash: string, expiresAt: Date, now: Date): Promise<boolean> {
  const rows = await insertNonce(db, { publicKey, messageHash, expiresAt, now });
  return rows.length === 1;
}

/** Deletes up to `limit` hashes that expired before `now`; returns how many (the maintenance round repeats it). */
export function purgeExpiredNonces(db: Executor, now: Date, limit = DELETE_BATCH): Promise<number> {
  return deleteBounded(db, requestNonces, lt(requestNonces.expiresAt, now), limit, requestNonces.expiresAt);
}
