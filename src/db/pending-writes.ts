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

/**
 * The writes as the head of a statement's WITH list (`write_0 as (...), write_1 as (...), `, to be followed by the
 * statement's own CTEs) and an expression for their row counts in order (`array[...]::int[]`, empty without writes).
 * With `required` (a count per write, null for any), the expression fails the whole statement when a count differs
 * (require_counts, SQLSTATE IA001: drizzle/0028_require_counts.sql), so nothing of it stays even outside a transaction.
 */
export function writesAsCtes(writes: PendingWrite[], prefix = 'write', required?: (number | null)[]): { head: SQL; counts: SQL } {
  const name = (i: number) => sql.raw(`${prefix}_${i}`);
  const counts = sql`array[${sql.join(
    writes.map((_, i) => sql`(select count(*) from ${name(i)})::int`),
    sql`, `,
  )}]::int[]`;
  const requires = required?.some((n) => n !== null) ?? false;
  return {
    head: sql.join(writes.map((write, i) => sql`${name(i)} as (${write.getSQL()}), `)),
    counts: requires ? sql`require_counts(${counts}, ${`{${required!.map((n) => (n === null ? 'NULL' : String(n))).join(',')}}`}::int[])` : counts,
  };
}

/** Runs the writes in one statement (requiring `required` counts, as writesAsCtes); the rows each affected, in order. */
export async function runWrites(db: Executor, writes: PendingWrite[], required?: (number | null)[]): Promise<number[]> {
  if (writes.length === 0) return [];
  const { head, counts } = writesAsCtes(writes, 'write', required);
  const [row] = await selectRows<{ counts: number[] }>(db, sql`with ${head}counted as (select ${counts} as counts) select counts from counted`);
  return row!.counts.map(Number);
}

/** The SQLSTATE require_counts raises. */
const COUNT_MISMATCH = 'IA001';

/**
 * When `err` (or a cause: drizzle wraps the driver's error) is require_counts refusing a statement, the counts the
 * writes had; otherwise undefined.
 */
export function requiredCountsFailure(err: unknown): number[] | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, detail } = e as { code?: unknown; detail?: unknown };
    if (code !== COUNT_MISMATCH || typeof detail !== 'string') continue;
    try {
      const counts: unknown = JSON.parse(detail);
      if (Array.isArray(counts)) return counts.map(Number);
    } catch {
      // Not require_counts' detail: the error is reported as it is.
    }
  }
  return undefined;
}
