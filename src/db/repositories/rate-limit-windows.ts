import { lt, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { rateLimitWindows } from '../schema/index.js';
import { DELETE_BATCH, deleteBounded } from './bounded-delete.js';

/** Requests counted for one key in one fixed window: a delta to add, or the window's total. */
export interface WindowCount {
  key: string;
  windowStart: Date;
  windowEnd: Date;
  count: number;
}

/** Rows per statement: a process with many busy credentials sends several statements in one flush. */
const CHUNK = 500;

/**
 * Adds each delta to its window's shared count (the row is created by the first) and returns every window's total
 * after the addition, this process's delta included. Rows are locked in key order, so two processes adding to the
 * same keys wait for each other rather than deadlock.
 */
export async function addToRateLimitWindows(db: Executor, deltas: WindowCount[]): Promise<WindowCount[]> {
  // One row per window and statement (PostgreSQL refuses to update a row twice in one INSERT … ON CONFLICT).
  const merged = new Map<string, WindowCount>();
  for (const delta of deltas) {
    const id = `${delta.windowStart.getTime()}/${delta.windowEnd.getTime()}/${delta.key}`;
    const seen = merged.get(id);
    if (seen) seen.count += delta.count;
    else merged.set(id, { ...delta });
  }
  const sorted = [...merged.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.windowStart.getTime() - b.windowStart.getTime()));
  const totals: WindowCount[] = [];
  for (let i = 0; i < sorted.length; i += CHUNK) {
    const rows = await db
      .insert(rateLimitWindows)
      .values(sorted.slice(i, i + CHUNK))
      .onConflictDoUpdate({
        target: [rateLimitWindows.key, rateLimitWindows.windowStart, rateLimitWindows.windowEnd],
        set: { count: sql`${rateLimitWindows.count} + excluded.count` },
      })
      .returning();
    totals.push(...rows);
  }
  return totals;
}

/**
 * Deletes up to `limit` windows that ended before `now`; returns how many (the maintenance round repeats it). No
 * index on window_end: the table holds only the live windows of active keys, and every flush writes it.
 */
export function purgeEndedRateLimitWindows(db: Executor, now: Date, limit = DELETE_BATCH): Promise<number> {
  return deleteBounded(db, rateLimitWindows, lt(rateLimitWindows.windowEnd, now), limit);
}
