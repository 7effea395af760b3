import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DatabaseTarget } from '../../src/db/database.js';
import { pgliteTemplate } from './pglite-template.js';

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

/** A fresh database per test server; `drop` removes it (and its connections) afterwards. */
export async function provisionDatabase(
  backend: Backend,
  adminUrl = postgresUrl(),
): Promise<{ target: DatabaseTarget; drop: () => Promise<void> }> {
  if (backend === 'pglite') return { target: { kind: 'pglite', dataDir: undefined, template: await pgliteTemplate() }, drop: async () => {} };
  if (!adminUrl) throw new Error('postgres backend requested but TEST_DATABASE_URL is not set');
  const name = `it_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
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
