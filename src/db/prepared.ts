import { is, Placeholder, type Query, type SQL } from 'drizzle-orm';
import { PgDialect, PgTransaction } from 'drizzle-orm/pg-core';
import type { Db, Executor } from './database.js';

const names = new Set<string>();

/** What drizzle's `.prepare(name)` answers, for any query: run with the placeholders' values. */
interface Prepared<Result> {
  execute(placeholders?: Record<string, unknown>): Promise<Result>;
}

/**
 * A statement of the hot paths (every signed write, every transfer), built once per database by drizzle and run
 * as a named prepared statement: building a query costs drizzle about 125 µs of CPU, more than node-postgres
 * spends sending it, and PostgreSQL then parses and plans it once per connection instead of per call
 * (docs/benchmarks.md#transactions). The values go in as placeholders (`sql.placeholder('name')`).
 *
 * Inside a transaction the statement is built for the transaction's connection on each call, as any query: a
 * prepared drizzle query is bound to the database it was built on, and would run outside the transaction.
 *
 * Named statements live on PostgreSQL connections: a pooler in front must keep them (PgBouncer 1.21 or later with
 * max_prepared_statements set, docs/deployment.md). PGlite runs them as plain queries.
 */
export function preparedStatement<Values extends Record<string, unknown>, Result>(name: string, build: (db: Executor) => { prepare(name: string): Prepared<Result> }): (db: Executor, values: Values) => Promise<Result> {
  // A connection knows a name once: two statements under one name would fail on whichever came second.
  if (names.has(name)) throw new Error(`two prepared statements are named ${name}`);
  names.add(name);
  const built = new WeakMap<Db, Prepared<Result>>();
  return (db, values) => {
    if (db instanceof PgTransaction) return build(db).prepare(name).execute(values);
    let statement = built.get(db);
    if (!statement) {
      statement = build(db).prepare(name);
      built.set(db, statement);
    }
    return statement.execute(values);
  };
}

/** Builds statements' text from drizzle's SQL (no casing or other dialect settings: the databases' own). */
const dialect = new PgDialect();

/** The statements compiled by shape, each under its own name; `checked` once a second build agreed with the first. */
const shaped = new Map<string, { name: string; query: Query; checked: boolean }>();

/**
 * A shape's second use builds it again and compares: the same text, and the same values bound in it (constants of the
 * code, like a status written). A value of the call captured by the builder instead of a placeholder would otherwise
 * be written by every later call of the shape; it throws instead, naming the shape.
 */
function checkShape(shape: string, first: Query, again: Query): void {
  const sameParam = (p: unknown, q: unknown) => (is(p, Placeholder) ? is(q, Placeholder) && q.name === p.name : JSON.stringify(p) === JSON.stringify(q));
  const same = first.sql === again.sql && first.params.length === again.params.length && first.params.every((p, i) => sameParam(p, again.params[i]));
  if (!same) throw new Error(`the shaped statement "${shape}" is not the same from one call to the next: a value must be a placeholder (sql.placeholder), not part of the statement`);
}

/**
 * Beyond this many shapes a statement runs unnamed and is compiled per call: shapes come from the code's paths, a few
 * dozen, so more would mean a key that takes in values, and the cache must not grow with them.
 */
export const MAX_SHAPES = 500;

/**
 * A statement whose text depends only on `shape` (its values are placeholders, `sql.placeholder(name)`, filled from
 * `values` as they are: driver values), compiled once per process by `build` and run as a named prepared statement
 * (as preparedStatement, and inside a transaction on the transaction's connection). For statements assembled from
 * parts (a change's writes, its events: pending-writes.ts), where preparedStatement's one builder per name does not
 * fit: compiling such a statement cost drizzle about 1 ms of the request thread per new transfer
 * (docs/benchmarks.md#transactions). Its rows.
 */
export async function runShaped<Row>(db: Executor, shape: string, build: () => SQL, values: Record<string, unknown>): Promise<Row[]> {
  const known = shaped.get(shape);
  let statement: { name?: string; query: Query };
  if (!known) {
    const query = dialect.sqlToQuery(build());
    const named = shaped.size < MAX_SHAPES ? { name: `shaped_${shaped.size + 1}`, query, checked: false } : undefined;
    if (named) shaped.set(shape, named);
    statement = named ?? { query };
  } else {
    if (!known.checked) {
      checkShape(shape, known.query, dialect.sqlToQuery(build()));
      known.checked = true;
    }
    statement = known;
  }
  const result = await db._.session.prepareQuery(statement.query, undefined, statement.name, false).execute(values);
  return (result as { rows: Row[] }).rows;
}
