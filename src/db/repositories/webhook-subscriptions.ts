import { and, asc, eq, getTableColumns, gt, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { webhookSigningKeys, webhookSubscriptions } from '../schema/index.js';

export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;
export type SigningKeyRow = typeof webhookSigningKeys.$inferSelect;
export type SubscriptionWithKey = SubscriptionRow & { activePublicKey: string };

const WITH_KEY = { ...getTableColumns(webhookSubscriptions), activePublicKey: webhookSigningKeys.publicKey };

export async function insertSubscription(db: Executor, row: typeof webhookSubscriptions.$inferInsert): Promise<SubscriptionRow> {
  const [inserted] = await db.insert(webhookSubscriptions).values(row).returning();
  return inserted!;
}

export async function insertSigningKey(db: Executor, row: typeof webhookSigningKeys.$inferInsert): Promise<void> {
  await db.insert(webhookSigningKeys).values(row);
}

/** The integrator's subscriptions, oldest first, each with its active public key. */
export async function listSubscriptions(db: Executor, integratorId: string): Promise<SubscriptionWithKey[]> {
  return db
    .select(WITH_KEY)
    .from(webhookSubscriptions)
    .innerJoin(webhookSigningKeys, eq(webhookSigningKeys.id, webhookSubscriptions.activeSigningKeyId))
    .where(eq(webhookSubscriptions.integratorId, integratorId))
    .orderBy(asc(webhookSubscriptions.id));
}

/** One subscription of the integrator; `lock` takes its row lock for the rest of the transaction. */
export async function findSubscription(db: Executor, integratorId: string, id: string, lock = false): Promise<SubscriptionWithKey | undefined> {
  const query = db
    .select(WITH_KEY)
    .from(webhookSubscriptions)
    .innerJoin(webhookSigningKeys, eq(webhookSigningKeys.id, webhookSubscriptions.activeSigningKeyId))
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.integratorId, integratorId)));
  const [row] = lock ? await query.for('update', { of: webhookSubscriptions }) : await query;
  return row;
}

export async function updateSubscription(db: Executor, id: string, patch: Partial<typeof webhookSubscriptions.$inferInsert>): Promise<SubscriptionRow> {
  const [row] = await db.update(webhookSubscriptions).set(patch).where(eq(webhookSubscriptions.id, id)).returning();
  return row!;
}

export async function deleteSubscription(db: Executor, id: string): Promise<void> {
  await db.delete(webhookSubscriptions).where(eq(webhookSubscriptions.id, id));
}

/** Keys that sign deliveries at `now`: the active one and any rotated-out one still in its grace period. */
export async function signingKeysOf(db: Executor, subscriptionIds: string[], now: Date): Promise<SigningKeyRow[]> {
  if (subscriptionIds.length === 0) return [];
  return db
    .select()
    .from(webhookSigningKeys)
    .where(and(inArray(webhookSigningKeys.subscriptionId, subscriptionIds), or(isNull(webhookSigningKeys.retiresAt), gt(webhookSigningKeys.retiresAt, now))))
    .orderBy(asc(webhookSigningKeys.createdAt));
}

export async function retireSigningKey(db: Executor, keyId: string, at: Date): Promise<void> {
  await db.update(webhookSigningKeys).set({ retiresAt: at }).where(eq(webhookSigningKeys.id, keyId));
}

export async function findSubscriptionsByIds(db: Executor, ids: string[]): Promise<SubscriptionRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(webhookSubscriptions).where(inArray(webhookSubscriptions.id, ids));
}

/**
 * Lock order between the delivery worker and the API: the subscription before its deliveries. The API locks a
 * subscription FOR UPDATE and then changes or deletes its deliveries; a worker recording attempts or giving
 * claims back takes their subscriptions first, in id order, so neither ever waits for the other while holding
 * what the other needs. `share` (KEY SHARE): recording successes or releasing claims, which leaves the
 * subscription row alone and must not queue behind other workers; `update` (NO KEY UPDATE): recording a
 * failure, which updates the subscription. `ids` may repeat.
 */
export async function lockSubscriptionsBeforeDeliveries(db: Executor, ids: string[], mode: 'share' | 'update'): Promise<void> {
  if (ids.length === 0) return;
  await db
    .select({ id: webhookSubscriptions.id })
    .from(webhookSubscriptions)
    .where(inArray(webhookSubscriptions.id, [...new Set(ids)]))
    .orderBy(asc(webhookSubscriptions.id))
    .for(mode === 'share' ? 'key share' : 'no key update');
}

/**
 * A failed attempt starts the subscription's failing streak, or continues the one under way (failingSince is kept).
 * Returns the subscription as it is now; undefined when it was deleted.
 */
export async function startFailingStreak(db: Executor, id: string, now: Date): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .update(webhookSubscriptions)
    .set({ failingSince: sql`coalesce(${webhookSubscriptions.failingSince}, ${now.toISOString()}::timestamptz)` })
    .where(eq(webhookSubscriptions.id, id))
    .returning();
  return row;
}

/** A success ends these subscriptions' failing streaks. */
export async function endFailingStreaks(db: Executor, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(webhookSubscriptions)
    .set({ failingSince: null })
    .where(and(inArray(webhookSubscriptions.id, ids), isNotNull(webhookSubscriptions.failingSince)));
}

/**
 * Rows written before custom headers were sealed: values in clear, nothing sealed. Locked for the caller's
 * transaction; rows another transaction holds (a PATCH, a worker recording a failure) are skipped, to be taken next
 * time.
 */
export async function lockUnsealedHeaders(db: Executor, limit: number): Promise<Pick<SubscriptionRow, 'id' | 'httpHeaders'>[]> {
  return db
    .select({ id: webhookSubscriptions.id, httpHeaders: webhookSubscriptions.httpHeaders })
    .from(webhookSubscriptions)
    .where(and(isNull(webhookSubscriptions.httpHeadersSealed), sql`${webhookSubscriptions.httpHeaders} <> '{}'::jsonb`))
    .orderBy(asc(webhookSubscriptions.id))
    .limit(limit)
    // NO KEY UPDATE (no key changes): a worker's KEY SHARE while it records successes does not hold it up.
    .for('no key update', { skipLocked: true });
}

/** Replaces a legacy row's clear values; only while it is still unsealed (a PATCH may have sealed it meanwhile). */
export async function storeSealedHeaders(db: Executor, id: string, masked: Record<string, string>, sealed: string): Promise<boolean> {
  const rows = await db
    .update(webhookSubscriptions)
    .set({ httpHeaders: masked, httpHeadersSealed: sealed })
    .where(and(eq(webhookSubscriptions.id, id), isNull(webhookSubscriptions.httpHeadersSealed)))
    .returning({ id: webhookSubscriptions.id });
  return rows.length > 0;
}
