import { desc, lt } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { addressScreeningHits } from '../schema/index.js';

export type AddressHitRow = typeof addressScreeningHits.$inferSelect;

export async function insertAddressHit(db: Executor, row: AddressHitRow): Promise<void> {
  await db.insert(addressScreeningHits).values(row);
}

/** Newest first (ids are UUIDv7); `limit` rows, after the row `before` when given. */
export function listAddressHits(db: Executor, options: { limit: number; before?: string }): Promise<AddressHitRow[]> {
  return db
    .select()
    .from(addressScreeningHits)
    .where(options.before ? lt(addressScreeningHits.id, options.before) : undefined)
    .orderBy(desc(addressScreeningHits.id))
    .limit(options.limit);
}
