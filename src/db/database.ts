import { fork } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { sql, type ExtractTablesWithRelations, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.js';
import { listenPostgres, type Listener, type ListenHandlers } from './notifications.js';
import { GuardedPool } from './pg-pool.js';
import { copyPgliteTemplate, findPgliteTemplate } from './pglite-template.js';
import { RemotePglite } from './pglite-thread/remote.js';
import * as schema from './schema/index.js';
import { NO_PROGRESS, type StartupProgress } from '../startup-progress.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** What repositories take: the database itself or an open transaction. */
export type Executor = Db | Tx;

/**
 * The rows of a raw SQL statement. Both drivers answer `{ rows }`, but the driver-neutral Db type cannot say so:
 * the one cast lives here.
 */
export async function selectRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  ping(): Promise<void>;
  /** Subscribes to NOTIFY on a channel; see notifications.ts for the delivery guarantee. */
  listen(channel: string, handlers: ListenHandlers): Promise<Listener>;
  /** PostgreSQL: the connection pool's size now (for /metrics); undefined for PGlite, one in-process connection. */
  poolStats?(): PoolStats;
  /** PGlite: a dump of the whole database (a template for in-memory test databases, see DatabaseTarget). */
  dumpPglite?(): Promise<Blob>;
  close(): Promise<void>;
}

export interface PoolStats {
  max: number;
  /** Open connections, idle or lent out. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
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
  /**
   * dataDir undefined: in memory (tests), on the engine `engine` gives when given (the test harness lends engines
   * started from a dump of a migrated database and resets them between tests), else on a new empty one.
   */
  | { kind: 'pglite'; dataDir: string | undefined; engine?: () => Promise<PgliteEngine> }
  | { kind: 'postgres'; url: string; poolMax?: number } & Partial<PostgresTimeouts>;

/** `progress`: where a process's start says what it is doing (initialising, migrating; startup-progress.ts). */
export interface OpenOptions {
  progress?: StartupProgress;
}

/** How long the PostgreSQL pool waits on the server (DATABASE_QUERY_TIMEOUT_MS, DATABASE_CONNECT_TIMEOUT_MS). */
export interface PostgresTimeouts {
  /**
   * The longest a statement may run: the server cancels it then (statement_timeout), and the client gives up one
   * second later when the server does not even answer (a stalled or dead connection: pg's query_timeout).
   */
  queryTimeoutMs: number;
  /** The longest a new connection, or a wait for a free one when all are lent, may take. */
  connectTimeoutMs: number;
}
export const DEFAULT_POSTGRES_TIMEOUTS: PostgresTimeouts = { queryTimeoutMs: 10_000, connectTimeoutMs: 5_000 };
/** How much longer than statement_timeout the client waits before it declares the connection lost. */
const CLIENT_GRACE_MS = 1_000;

/** Runs initdb for a new PGlite folder in a short-lived child process (see pglite-init.ts). */
function initPgliteDir(dir: string): Promise<void> {
  const script = new URL(import.meta.url.endsWith('.ts') ? './pglite-init.ts' : './pglite-init.js', import.meta.url);
  return new Promise((resolve, reject) => {
    // fork inherits execArgv, so the tsx loader comes along when running from source.
    const child = fork(fileURLToPath(script), [dir], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`PGlite initialisation failed (${code}): ${stderr.trim()}`))));
  });
}

/** What the database uses of an in-memory engine: RemotePglite's interface, or a stand-in for one (DatabaseTarget). */
export type PgliteEngine = Pick<RemotePglite, 'query' | 'transaction' | 'listen' | 'dumpDataDir' | 'close'>;

/** The embedded database runs on a thread of its own (pglite-thread/), not on the thread answering requests. */
async function openPglite(dataDir: string | undefined, engine: (() => Promise<PgliteEngine>) | undefined, progress: StartupProgress): Promise<Database> {
  let release = () => {};
  let client: PgliteEngine;
  if (dataDir === undefined) {
    client = engine ? await engine() : await RemotePglite.start({ dir: undefined });
  } else {
    release = lockDataDir(dataDir);
    try {
      const dir = join(dataDir, 'pglite');
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (!existsSync(join(dir, 'PG_VERSION'))) {
        const template = findPgliteTemplate(MIGRATIONS_FOLDER);
        if (template) await progress.step('creating the embedded database from the template the build prepared (first start only)', () => copyPgliteTemplate(template, dir));
        else await progress.step('initializing the embedded database (first start only; no prepared template: run npm run build)', () => initPgliteDir(dir));
      }
      client = await progress.step('starting the embedded database', () => RemotePglite.start({ dir }));
    } catch (err) {
      release();
      throw err;
    }
  }
  // drizzle's PGlite driver needs only query and transaction, which the remote answers alike.
  const db = drizzlePglite({ client: client as unknown as PGlite, schema });
  try {
    await progress.step('applying database migrations', () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }));
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
    dumpPglite: () => client.dumpDataDir(),
    // One engine: a NOTIFY committed in it always reaches its listeners.
    listen: async (channel, handlers) => {
      const unlisten = await client.listen(channel, handlers.onMessage);
      return { live: () => true, close: () => unlisten() };
    },
    close: async () => {
      await client.close();
      release();
    },
  };
}

/** Connections per process by default (none is held while a chain node or a mail server is asked anything). */
export const DEFAULT_POOL_MAX = 20;

async function openPostgres(url: string, poolMax: number, timeouts: PostgresTimeouts, progress: StartupProgress): Promise<Database> {
  const connection = {
    connectionString: url,
    // Fail fast when the server is unreachable instead of hanging requests behind it.
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    // No single statement may hold a connection (and its locks) longer than this.
    statement_timeout: timeouts.queryTimeoutMs,
    // Probes on idle connections, so a peer that vanished is noticed without waiting for a query.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
  // A migration may take longer than a request's statement: it keeps the 30 s it always had, at least.
  await progress.step('applying database migrations', () => migrate({ ...connection, statement_timeout: Math.max(30_000, timeouts.queryTimeoutMs) }));
  const pool = new GuardedPool({
    ...connection,
    // The server did not answer a statement in time, or its cancellation: the connection is gone or stalled.
    query_timeout: timeouts.queryTimeoutMs + CLIENT_GRACE_MS,
    max: poolMax,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool, schema });
  return {
    kind: 'postgres',
    db: db as unknown as Db,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    listen: (channel, handlers) => listenPostgres(url, channel, handlers, { connectTimeoutMs: timeouts.connectTimeoutMs, heartbeatMs: timeouts.queryTimeoutMs }),
    poolStats: () => ({ max: poolMax, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}

/** Applies the pending migrations on a connection of its own (not the pool's), one process at a time, under an advisory lock. */
async function migrate(connection: pg.ClientConfig): Promise<void> {
  const conn = new pg.Client(connection);
  conn.on('error', () => {});
  await conn.connect();
  try {
    await conn.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      await migratePg(drizzlePg({ client: conn, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    await conn.end().catch(() => {});
  }
}

/** Opens the database and applies every pending migration before returning. */
export function openDatabase(target: DatabaseTarget, { progress = NO_PROGRESS }: OpenOptions = {}): Promise<Database> {
  if (target.kind === 'pglite') return openPglite(target.dataDir, target.engine, progress);
  return openPostgres(target.url, target.poolMax ?? DEFAULT_POOL_MAX, {
    queryTimeoutMs: target.queryTimeoutMs ?? DEFAULT_POSTGRES_TIMEOUTS.queryTimeoutMs,
    connectTimeoutMs: target.connectTimeoutMs ?? DEFAULT_POSTGRES_TIMEOUTS.connectTimeoutMs,
  }, progress);
}
