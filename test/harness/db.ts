import { and, asc, eq, sql } from 'drizzle-orm';
import { openDatabase, type Database, type DatabaseTarget } from '../../src/db/database.js';
import { events } from '../../src/db/schema/index.js';
import { provisionDatabase, type Backend } from './backends.js';

/** Reads events straight from the database, to assert that a change and its event were written together. */
export function eventsFor(database: Database, objectId: string) {
  return database.db.select().from(events).where(eq(events.objectId, objectId)).orderBy(asc(events.sequence));
}

export function eventsOfType(database: Database, integratorId: string, type: string) {
  return database.db
    .select()
    .from(events)
    .where(and(eq(events.integratorId, integratorId), eq(events.type, type)))
    .orderBy(asc(events.id));
}

/**
 * PostgreSQL: how many statements of this database whose text matches `pattern` (ILIKE) wait on a lock now;
 * tests use it to know that a request has reached the lock they hold.
 */
export async function statementsWaitingOnLocks(database: Database, pattern: string): Promise<number> {
  const res = (await database.db.execute(
    sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike ${pattern}`,
  )) as unknown as { rows: { n: number }[] };
  return Number(res.rows[0]!.n);
}

export interface TestDatabase {
  /** Migrated and open. */
  database: Database;
  target: DatabaseTarget;
  /** Closes the connection, then drops the database (PostgreSQL). */
  close(): Promise<void>;
}

/** A fresh, migrated database of `backend`, for tests that need the database without a server. */
export async function openTestDatabase(backend: Backend): Promise<TestDatabase> {
  const { target, drop } = await provisionDatabase(backend, undefined, { migrated: true });
  let database: Database;
  try {
    database = await openDatabase(target);
  } catch (err) {
    await drop();
    throw err;
  }
  return {
    database,
    target,
    async close() {
      try {
        await database.close();
      } finally {
        await drop();
      }
    },
  };
}

/** Every row of every table of the database, as text, that contains `needle`: to show a secret is stored nowhere in clear. */
export async function rowsContaining(database: Database, needle: string): Promise<string[]> {
  const tables = (await database.db.execute(
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  )) as unknown as { rows: { name: string }[] };
  if (!tables.rows.some((t) => t.name === 'events')) throw new Error('rowsContaining: the application tables are missing');
  const found: string[] = [];
  for (const { name } of tables.rows) {
    const res = (await database.db.execute(sql`select t::text as row from ${sql.identifier(name)} t where strpos(t::text, ${needle}) > 0`)) as unknown as { rows: { row: string }[] };
    found.push(...res.rows.map((r) => `${name}: ${r.row.slice(0, 300)}`));
  }
  return found;
}
