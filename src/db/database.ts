import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, any>;
/** What repositories take: the database itself or an open transaction. */
export type Executor = Db | Tx;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The committed migrations, found from this module whether it runs from src/ (tsx) or dist/src/ (built). */
function findMigrationsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'drizzle');
    if (existsSync(join(candidate, 'meta', '_journal.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('migrations folder (drizzle/) not found');
    dir = parent;
  }
}
const MIGRATIONS_FOLDER = findMigrationsFolder();
/** Arbitrary constant shared by every process that migrates this schema. */
const MIGRATION_LOCK_ID = 7_240_311_001;

export type DatabaseTarget =
  | { kind: 'pglite'; dataDir: string | undefined } // undefined: in memory (tests)
  | { kind: 'postgres'; url: string };

async function openPglite(dataDir: string | undefined): Promise<Database> {
  let release = () => {};
  let client: PGlite;
  if (dataDir === undefined) {
    client = await PGlite.create();
  } else {
    release = lockDataDir(dataDir);
    try {
      mkdirSync(join(dataDir, 'pglite'), { recursive: true });
      client = await PGlite.create(join(dataDir, 'pglite'));
    } catch (err) {
      release();
      throw err;
    }
  }
  const db = drizzlePglite({ client, schema });
  try {
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } catch (err) {
    await client.close();
    release();
    throw err;
  }
  return {
    kind: 'pglite',
    db: db as unknown as Db,
    ping: async () => {
      await client.query('select 1');
    },
    close: async () => {
      await client.close();
      release();
    },
  };
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // Fail fast when the server is unreachable instead of hanging requests behind it.
    connectionTimeoutMillis: 5_000,
    // No single statement may hold a connection (and its locks) longer than this.
    statement_timeout: 30_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  try {
    const conn = await pool.connect();
    try {
      await conn.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      try {
        await migratePg(drizzlePg({ client: conn, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
      }
    } finally {
      conn.release();
    }
  } catch (err) {
    await pool.end();
    throw err;
  }
  const db = drizzlePg({ client: pool, schema });
  return {
    kind: 'postgres',
    db: db as unknown as Db,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
  };
}

/** Opens the database and applies every pending migration before returning. */
export function openDatabase(target: DatabaseTarget): Promise<Database> {
  return target.kind === 'pglite' ? openPglite(target.dataDir) : openPostgres(target.url);
}
