import { and, eq, lt } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { driverValue, type PendingWrite } from '../pending-writes.js';
import { idempotencyKeys } from '../schema/index.js';
import { DELETE_BATCH, deleteBounded } from './bounded-delete.js';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

export async function insertClaim(
  db: Executor,
  row: { integratorId: string; key: string; fingerprint: string; lockedAt: Date; createdAt: Date; expiresAt: Date },
): Promise<boolean> {
  const rows = await db
    .insert(idempotencyKeys)
    .values({ ...row, state: 'in_progress' })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
}

export async function findClaim(db: Executor, integratorId: string, key: string): Promise<IdempotencyRow | undefined> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.integratorId, integratorId), eq(idempotencyKeys.key, key)));
  return row;
}

const byToken = (integratorId: string, key: string, lockedAt: Date) =>
  and(eq(idempotencyKeys.integratorId, integratorId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.lockedAt, lockedAt));

/** Moves the lock token from `from` to `to`; only one contender can succeed. */
export async function takeOverClaim(db: Executor, integratorId: string, key: string, from: Date, to: Date): Promise<boolean> {
  const rows = await db
    .update(idempotencyKeys)
    .set({ lockedAt: to })
    .where(and(byToken(integratorId, key, from), eq(idempotencyKeys.state, 'in_progress')))
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
}

/**
 * Marks a claim committed, as a write of the mutation's own change (its transaction, or its one statement): affects
 * no row if another request took the claim over meanwhile.
 */
export function markCommittedWrite(integratorId: string, key: string, lockedAt: Date): PendingWrite {
  return {
    shape: 'mark an idempotency claim committed',
    sql: (db, slot) =>
      db
        .update(idempotencyKeys)
        .set({ state: 'committed' })
        .where(and(eq(idempotencyKeys.integratorId, slot('integratorId')), eq(idempotencyKeys.key, slot('key')), eq(idempotencyKeys.lockedAt, slot('lockedAt')), eq(idempotencyKeys.state, 'in_progress')))
        .returning({ key: idempotencyKeys.key })
        .getSQL(),
    values: { integratorId, key, lockedAt: driverValue(idempotencyKeys.lockedAt, lockedAt) },
  };
}

export async function completeClaim(
  db: Executor,
  integratorId: string,
  key: string,
  lockedAt: Date,
  response: { status: number; sealedBody: string; contentType: string; credentialId: string; secret: boolean },
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({
      state: 'completed',
      responseStatus: response.status,
      responseBody: null,
      responseSealed: response.sealedBody,
      responseContentType: response.contentType,
      credentialId: response.credentialId,
      responseSecret: response.secret,
    })
    .where(byToken(integratorId, key, lockedAt));
}

/** Gives the key back (nothing was committed), so a retry may run it again. */
export async function releaseClaim(db: Executor, integratorId: string, key: string, lockedAt: Date): Promise<void> {
  await db.delete(idempotencyKeys).where(and(byToken(integratorId, key, lockedAt), eq(idempotencyKeys.state, 'in_progress')));
}

export async function deleteExpiredClaim(db: Executor, integratorId: string, key: string, now: Date): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.integratorId, integratorId), eq(idempotencyKeys.key, key), lt(idempotencyKeys.expiresAt, now)));
}

/** Deletes up to `limit` records that expired before `now`; returns how many (the maintenance round repeats it). */
export function purgeExpiredClaims(db: Executor, now: Date, limit = DELETE_BATCH): Promise<number> {
  return deleteBounded(db, idempotencyKeys, lt(idempotencyKeys.expiresAt, now), limit, idempotencyKeys.expiresAt);
}
