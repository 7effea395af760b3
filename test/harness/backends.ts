import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseTarget } from '../../src/db/database.js';
import { leasePgliteEngine } from './pglite-engines.js';
import { templateKey } from './pglite-template.js';

export type Backend = 'pglite' | 'postgres';

/** The PostgreSQL server to test against, if any: TEST_DATABASE_URL, else DATABASE_URL. */
export function postgresUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;
}

/**
 * Every integration test runs on PGlite, and on PostgreSQL when a server is named; TEST_BACKEND=pglite or postgres
 * keeps one of them (`TEST_BACKEND=postgres npm test -- webhooks`, docs in the README).
 */
export function backends(): Backend[] {
  const only = process.env.TEST_BACKEND;
  if (only === 'pglite') return ['pglite'];
  if (only === 'postgres') {
    if (!postgresUrl()) throw new Error('TEST_BACKEND=postgres needs TEST_DATABASE_URL');
    return ['postgres'];
  }
  if (only) throw new Error(`TEST_BACKEND must be pglite or postgres (got "${only}")`);
  return postgresUrl() ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * A fresh database per test server; `drop` removes it (and its connections) afterwards. PGlite's starts migrated (from
 * its template, on an engine the process may have used before and reset: pglite-engines.ts); a PostgreSQL one is
 * empty unless `migrated` asks for a copy of the migrated template (postgresTemplate), for tests whose subject is not
 * migrating (the test server, test databases).
 */
export async function provisionDatabase(
  backend: Backend,
  adminUrl = postgresUrl(),
  options: { migrated?: boolean } = {},
): Promise<{ target: DatabaseTarget; drop: () => Promise<void> }> {
  if (backend === 'pglite') return { target: { kind: 'pglite', dataDir: undefined, engine: leasePgliteEngine }, drop: async () => {} };
  if (!adminUrl) throw new Error('postgres backend requested but TEST_DATABASE_URL is not set');
  const name = `it_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const template = options.migrated ? await postgresTemplate(adminUrl) : undefined;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    // A test's server opens its connections while other test files load the machine (two cores, Chromium, three files
    // at once): the production default of 5 s was once not enough to open one. Tests of the timeout set their own.
    target: { kind: 'postgres', url: url.toString(), connectTimeoutMs: 20_000 },
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

const postgresTemplates = new Map<string, Promise<string>>();

/**
 * A migrated PostgreSQL database that test databases are copied from (CREATE DATABASE ... TEMPLATE: about 190 ms and
 * 16 ms of the test's CPU, where creating one and running every migration took 370 ms and 100 ms), made once per set of migrations
 * (the same key as PGlite's template) by whichever test process needs it first: migrated under another name, then
 * renamed, so it is never copied half made. A template of other migrations is dropped when a new one is made, unless
 * it is being copied.
 */
function postgresTemplate(adminUrl: string): Promise<string> {
  let made = postgresTemplates.get(adminUrl);
  if (!made) {
    made = makePostgresTemplate(adminUrl);
    postgresTemplates.set(adminUrl, made);
    made.catch(() => postgresTemplates.delete(adminUrl));
  }
  return made;
}

async function makePostgresTemplate(adminUrl: string): Promise<string> {
  const name = `it_template_${templateKey()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const exists = async () => ((await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount ?? 0) > 0;
  try {
    if (await exists()) return name;
    const building = `it_building_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    await admin.query(`create database ${building}`);
    try {
      const url = new URL(adminUrl);
      url.pathname = `/${building}`;
      await (await openDatabase({ kind: 'postgres', url: url.toString() })).close();
      await admin.query(`alter database ${building} rename to ${name}`);
    } catch (err) {
      await admin.query(`drop database if exists ${building} with (force)`);
      if (!(await exists())) throw err; // unless another process renamed its own into place first
      return name;
    }
    const others = await admin.query<{ datname: string }>(`select datname from pg_database where datname like 'it\\_template\\_%' and datname <> $1`, [name]);
    for (const { datname } of others.rows) await admin.query(`drop database if exists ${datname}`).catch(() => {});
    return name;
  } finally {
    await admin.end();
  }
}
