import { PgTransaction } from 'drizzle-orm/pg-core';
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
