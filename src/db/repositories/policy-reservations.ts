import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { policyReservations } from '../schema/index.js';

/** Where a reservation counts: an account's asset (`native` or the token's lower-case address) on a chain. */
export interface ReservationKey {
  accountId: string;
  chainId: number;
  asset: string;
}

/** The statement of reservedSince (the index's test explains it). */
export function reservedSinceQuery(db: Executor, key: ReservationKey, since: Date) {
  return db
    .select({ total: sql<string>`coalesce(sum(${policyReservations.amount}), 0)::text` })
    .from(policyReservations)
    .where(
      and(
        eq(policyReservations.accountId, key.accountId),
        eq(policyReservations.chainId, key.chainId),
        eq(policyReservations.asset, key.asset),
        isNull(policyReservations.releasedAt),
        gt(policyReservations.reservedAt, since),
      ),
    );
}

/**
 * The unreleased amounts of an account's asset reserved after `since`, in base units: one range scan of
 * policy_reservations_window_idx. The caller holds the lock that serializes the account's checks (the enforcement's).
 */
export async function reservedSince(db: Executor, key: ReservationKey, since: Date): Promise<bigint> {
  const [row] = await reservedSinceQuery(db, key, since);
  return BigInt(row?.total ?? '0');
}

/** Reserves what a transaction moves of an asset; a second reservation of the same transaction and asset is a no-op (false). */
export async function reserve(
  db: Executor,
  row: ReservationKey & { id: string; integratorId: string; transactionId: string; amount: bigint; at: Date },
): Promise<boolean> {
  const inserted = await db
    .insert(policyReservations)
    .values({ id: row.id, integratorId: row.integratorId, accountId: row.accountId, chainId: row.chainId, asset: row.asset, transactionId: row.transactionId, amount: row.amount.toString(), reservedAt: row.at })
    .onConflictDoNothing({ target: [policyReservations.transactionId, policyReservations.chainId, policyReservations.asset] })
    .returning({ id: policyReservations.id });
  return inserted.length > 0;
}

/** Takes back reservations just made by id (a judgement that reserved with its read, then refused). */
export async function unreserve(db: Executor, ids: string[]): Promise<void> {
  if (ids.length > 0) await db.delete(policyReservations).where(inArray(policyReservations.id, ids));
}

/** Releases a transaction's reservations (it failed, or its block left the chain); how many were released. */
export async function releaseReservations(db: Executor, transactionId: string, at: Date): Promise<number> {
  const released = await db
    .update(policyReservations)
    .set({ releasedAt: at })
    .where(and(eq(policyReservations.transactionId, transactionId), isNull(policyReservations.releasedAt)))
    .returning({ id: policyReservations.id });
  return released.length;
}

/** Releases the reservations of several transactions (those failing in one change of the watcher's round). */
export async function releaseReservationsOf(db: Executor, transactionIds: string[], at: Date): Promise<void> {
  if (transactionIds.length === 0) return;
  await db
    .update(policyReservations)
    .set({ releasedAt: at })
    .where(and(inArray(policyReservations.transactionId, transactionIds), isNull(policyReservations.releasedAt)));
}
