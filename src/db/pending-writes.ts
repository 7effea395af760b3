import { getTableColumns, sql, type Column, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './database.js';
import { runShaped } from './prepared.js';

/**
 * A write built but not yet run (an audit row, a single-use approval marked used), sent with others in one
 * statement as data-modifying CTEs: several writes of one change cost one round trip instead of one each. Its
 * statement has a RETURNING clause, whose rows are counted: the count tells the caller whether a guarded write
 * (`on conflict do nothing`, a compare-and-set) took effect. Not a promise: it runs only when a statement sends it.
 *
 * Its SQL is a template: the values are placeholders, so a statement of the same writes has the same text, is
 * compiled once per process and runs as a named prepared statement (prepared.ts, runShaped).
 *
 * The writes of one statement see the database as it was before the statement, not each other's effects: only
 * writes that do not read one another are sent together.
 */
export interface PendingWrite {
  /** Names the write's SQL: writes of one shape differ in their values only. */
  shape: string;
  /** The write's SQL, its placeholders named by `slot` (to keep the names of a statement's writes apart). */
  sql(db: Executor, slot: Slot): SQL;
  /** The placeholders' values by name, as the driver takes them (drizzle's encoding: driverValue). */
  values: Record<string, unknown>;
}

/** A placeholder of a template by name: an SQL fragment, so drizzle binds it as it is, without a column's encoding. */
export type Slot = (name: string) => SQL;

/** Placeholders named `${prefix}${name}`. */
export const slotsOf =
  (prefix: string): Slot =>
  (name) =>
    sql`${sql.placeholder(`${prefix}${name}`)}`;

/** A value as drizzle's column would send it (its own encoding; null stays null). */
export function driverValue(column: Column, value: unknown): unknown {
  return value === null || value === undefined ? null : column.mapToDriverValue(value);
}

/**
 * An insert of one row of `table` as a PendingWrite: the columns given (others take their defaults), `on conflict do
 * nothing` with `ignoreConflict`, returning the first column given. Its shape is the table and the columns given.
 */
export function insertWrite<T extends PgTable>(table: T, row: Partial<T['$inferInsert']>, options: { ignoreConflict?: boolean } = {}): PendingWrite {
  const columns = Object.entries(getTableColumns(table)).filter(([key]) => (row as Record<string, unknown>)[key] !== undefined);
  const given = Object.fromEntries(columns);
  const values = Object.fromEntries(columns.map(([key, column]) => [key, driverValue(column, (row as Record<string, unknown>)[key])]));
  return {
    shape: `insert ${tableName(table)} (${columns.map(([key]) => key).join(',')})${options.ignoreConflict ? ' ignore conflict' : ''}`,
    sql(db, slot) {
      const insert = db.insert(table).values(Object.fromEntries(columns.map(([key]) => [key, slot(key)])) as T['$inferInsert']);
      const [first] = Object.keys(given);
      const returning = { [first!]: given[first!]! };
      return (options.ignoreConflict ? insert.onConflictDoNothing().returning(returning) : insert.returning(returning)).getSQL();
    },
    values,
  };
}

/** A table's name (drizzle keeps it under a symbol). */
function tableName(table: PgTable): string {
  return (table as unknown as Record<symbol, string>)[Symbol.for('drizzle:Name')]!;
}

/** A PendingWrite's SQL in a statement of several: its placeholders prefixed with its place. */
export interface WritesInStatement {
  /** The head of a WITH list (`write_0 as (...), write_1 as (...), `), to be followed by the statement's own CTEs. */
  head: SQL;
  /** An expression for the writes' row counts in order (`array[...]::int[]`), wrapped in require_counts when required. */
  counts: SQL;
  /** The statement's shape as far as the writes go. */
  shape: string;
  /** The writes' placeholder values, prefixed. */
  values: Record<string, unknown>;
}

/**
 * The writes as the head of a statement's WITH list and an expression for their row counts. With `required` (a count
 * per write, null for any), the expression fails the whole statement when a count differs (require_counts, SQLSTATE
 * IA001: drizzle/0028_require_counts.sql), so nothing of it stays even outside a transaction. The counts required are
 * a value, not part of the text. `db` builds the SQL (its dialect only: the text is the same for any database).
 */
export function writesAsCtes(db: Executor, writes: PendingWrite[], prefix = 'write', required?: (number | null)[]): WritesInStatement {
  const name = (i: number) => sql.raw(`${prefix}_${i}`);
  const requires = required?.some((n) => n !== null) ?? false;
  const values: Record<string, unknown> = {};
  writes.forEach((write, i) => {
    for (const [key, value] of Object.entries(write.values)) values[`${prefix}_${i}_${key}`] = value;
  });
  if (requires) values[`${prefix}_required`] = `{${required!.map((n) => (n === null ? 'NULL' : String(n))).join(',')}}`;
  return {
    get head() {
      return sql.join(writes.map((write, i) => sql`${name(i)} as (${write.sql(db, slotsOf(`${prefix}_${i}_`))}), `));
    },
    get counts() {
      const counts = sql`array[${sql.join(
        writes.map((_, i) => sql`(select count(*) from ${name(i)})::int`),
        sql`, `,
      )}]::int[]`;
      return requires ? sql`require_counts(${counts}, ${sql.placeholder(`${prefix}_required`)}::int[])` : counts;
    },
    shape: `${requires ? 'required ' : ''}[${writes.map((w) => w.shape).join('; ')}]`,
    values,
  };
}

/** Runs the writes in one statement (requiring `required` counts, as writesAsCtes); the rows each affected, in order. */
export async function runWrites(db: Executor, writes: PendingWrite[], required?: (number | null)[]): Promise<number[]> {
  if (writes.length === 0) return [];
  const ctes = writesAsCtes(db, writes, 'write', required);
  const [row] = await runShaped<{ counts: number[] }>(db, `writes ${ctes.shape}`, () => sql`with ${ctes.head}counted as (select ${ctes.counts} as counts) select counts from counted`, ctes.values);
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
