import { sql, type SQL } from 'drizzle-orm';
import { selectRows, type Executor } from './database.js';

/**
 * A write built but not yet run (an audit row, a single-use approval marked used), sent with others in one
 * statement as data-modifying CTEs: several writes of one change cost one round trip instead of one each. Its
 * statement has a RETURNING clause, whose rows are counted: the count tells the caller whether a guarded write
 * (`on conflict do nothing`, a compare-and-set) took effect. Not a promise: it runs only when a statement sends it.
 *
 * The writes of one statement see the database as it was before the statement, not each other's effects: only
 * writes that do not read one another are sent together.
 */
export interface PendingWrite {
  getSQL(): SQL;
}

/** A drizzle insert, update or delete with `.returning(...)`, not awaited, as a PendingWrite. */
export function pendingWrite(query: { getSQL(): SQL }): PendingWrite {
  // Wrapped: a drizzle query is a thenable, which an async caller returning it would run.
  return { getSQL: () => query.getSQL() };
}

/** `name as (write), ...` for a statement's WITH list, and the select of each write's row count. */
export function writesAsCtes(writes: PendingWrite[], prefix = 'write'): { ctes: SQL[]; counts: SQL[] } {
  const name = (i: number) => sql.raw(`${prefix}_${i}`);
  return {
    ctes: writes.map((write, i) => sql`${name(i)} as (${write.getSQL()})`),
    counts: writes.map((_, i) => sql`(select count(*) from ${name(i)})::int`),
  };
}

/** Runs the writes in one statement; the number of rows each affected, in order. */
export async function runWrites(db: Executor, writes: PendingWrite[]): Promise<number[]> {
  if (writes.length === 0) return [];
  const { ctes, counts } = writesAsCtes(writes);
  const [row] = await selectRows<{ counts: number[] }>(db, sql`with ${sql.join(ctes, sql`, `)} select array[${sql.join(counts, sql`, `)}] as counts`);
  return row!.counts.map(Number);
}
