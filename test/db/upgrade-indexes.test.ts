/**
 * docs/deployment.md#upgrading-a-large-database: the indexes of migrations 0027 and 0029 built beforehand, CONCURRENTLY, with
 * the statements exactly as the guide gives them, on a database migrated to the release before; then the release
 * starts on it. The migration must find them (0027 swapping names), and leave the same indexes as a fresh database has.
 * PostgreSQL only (CONCURRENTLY and the lock it avoids are the server's); skipped without TEST_DATABASE_URL.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.js';
import { postgresUrl, provisionDatabase } from '../harness/backends.js';
import { ROOT } from '../harness/root.js';

const MIGRATION = '0027_scale_indexes';

/** The n-th ```sql block of the guide's section (from 0), one statement per line. */
function guideStatements(n = 0): string[] {
  const guide = readFileSync(join(ROOT, 'docs/deployment.md'), 'utf8');
  const section = guide.slice(guide.indexOf('## Upgrading a large database'), guide.indexOf('\n## ', guide.indexOf('## Upgrading a large database') + 1));
  const block = [...section.matchAll(/```sql\n([\s\S]*?)```/g)][n]?.[1];
  assert.ok(block, `the section has sql block ${n}`);
  return block.split('\n').filter((line) => line.trim() !== '');
}

/** A copy of drizzle/ whose journal ends just before `tag`: the release before it. */
function migrationsBefore(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  cpSync(join(ROOT, 'drizzle'), dir, { recursive: true });
  const journalPath = join(dir, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  assert.ok(at > 0, `${tag} is in the journal`);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

interface IndexRow {
  indexname: string;
  indexdef: string;
  valid: boolean;
}

async function indexesOf(url: string, tables = ['events', 'webhook_deliveries']): Promise<IndexRow[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<IndexRow>(
      `
      select i.indexname, i.indexdef, x.indisvalid as valid
      from pg_indexes i join pg_class c on c.relname = i.indexname join pg_index x on x.indexrelid = c.oid
      where i.schemaname = 'public' and i.tablename = any($1) order by i.indexname`,
      [tables],
    );
    return rows;
  } finally {
    await client.end();
  }
}

describe('upgrading past 0027 with its indexes built beforehand (docs/deployment.md)', { skip: postgresUrl() ? false : 'no TEST_DATABASE_URL' }, () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /**
   * A database migrated to the release before `tag`, the guide's sql block `block` run on it (twice, as an operator
   * retrying after an interruption would: IF NOT EXISTS), and a fresh database; both then opened by this release.
   * `beforeStart` looks at the upgraded one before the release migrates it.
   */
  async function upgradeWithGuide(tag: string, block: number, statementCount: number, beforeStart: (url: string) => Promise<void> = async () => {}) {
    const upgraded = await provisionDatabase('postgres');
    cleanups.push(upgraded.drop);
    const fresh = await provisionDatabase('postgres');
    cleanups.push(fresh.drop);
    const before = migrationsBefore(tag);
    cleanups.push(() => rmSync(before, { recursive: true, force: true }));
    const url = (upgraded.target as { url: string }).url;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await migrate(drizzle({ client }), { migrationsFolder: before });
      const statements = guideStatements(block);
      assert.equal(statements.length, statementCount);
      // One at a time, outside any transaction: CONCURRENTLY refuses to run inside one.
      for (const statement of statements) await client.query(statement);
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.end();
    }
    await beforeStart(url);
    await (await openDatabase(upgraded.target)).close();
    await (await openDatabase(fresh.target)).close();
    return { url, freshUrl: (fresh.target as { url: string }).url };
  }

  const defs = (rows: IndexRow[]) => rows.map((i) => i.indexdef.replace(/ ON public\./, ' ON '));

  it('the guide\'s statements run on the release before, and the migration then only swaps names', async () => {
    const { url, freshUrl } = await upgradeWithGuide(MIGRATION, 0, 3, async (at) => assert.ok((await indexesOf(at)).some((i) => i.indexname === 'events_integrator_idx_next')));
    const after = await indexesOf(url);
    assert.ok(after.every((i) => i.valid), 'every index valid');
    assert.ok(!after.some((i) => i.indexname === 'events_integrator_idx_next'), 'swapped in');
    assert.match(after.find((i) => i.indexname === 'events_integrator_idx')?.indexdef ?? '', /\(integrator_id, id, created_at\)$/);
    assert.deepEqual(defs(after), defs(await indexesOf(freshUrl)), 'the same indexes as a fresh database');
  });

  it('0029: the guide\'s statements for the account lookups run on the release before, and the migration finds them', async () => {
    const { url, freshUrl } = await upgradeWithGuide('0029_account_lookup_indexes', 1, 2);
    const after = await indexesOf(url, ['accounts']);
    assert.ok(after.every((i) => i.valid), 'every index valid');
    assert.ok(['accounts_organization_idx', 'accounts_self_custodial_wallet_idx'].every((name) => after.some((i) => i.indexname === name)));
    assert.deepEqual(defs(after), defs(await indexesOf(freshUrl, ['accounts'])), 'the same indexes as a fresh database');
  });
});
