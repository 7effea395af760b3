import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PgliteEngine } from '../../src/db/database.js';
import { leasePgliteEngine } from '../harness/pglite-engines.js';

/*
 * The test harness hands a closed test database's engine to the next one (test/harness/pglite-engines.ts). That is
 * only sound if the next test cannot tell: these tests take an engine back and look for what the last one left.
 * An engine is told apart by when its PostgreSQL started, which no reset changes.
 */
const startedAt = async (engine: PgliteEngine) => ((await engine.query('select pg_postmaster_start_time()::text as t')).rows[0] as { t: string }).t;
const one = async <T>(engine: PgliteEngine, sql: string) => (await engine.query(sql)).rows[0] as T;

describe('PGlite engines reused between test databases', () => {
  it('the next database gets the engine back with every table empty and every session setting reset', async () => {
    const first = await leasePgliteEngine();
    const started = await startedAt(first);
    await first.query(`insert into event_sequences (object_id, last) values ('obj_1', 7)`);
    await first.transaction(async (tx) => {
      await tx.query(`insert into event_sequences (object_id, last) values ('obj_2', 1)`);
    });
    await first.query('set statement_timeout = 1234');
    await first.query(`select pg_advisory_lock(42)`);
    await first.close();

    const next = await leasePgliteEngine();
    try {
      assert.equal(await startedAt(next), started, 'a new engine was started instead');
      assert.deepEqual((await next.query('select * from event_sequences')).rows, []);
      assert.equal((await one<{ s: string }>(next, `select current_setting('statement_timeout') as s`)).s, '0');
      assert.equal((await one<{ n: number }>(next, `select count(*)::int as n from pg_locks where locktype = 'advisory'`)).n, 0);
    } finally {
      await next.close();
    }
  });

  it("a listener of the last database hears nothing of the next one's notifications", async () => {
    const first = await leasePgliteEngine();
    const heardByFirst: string[] = [];
    await first.listen('changes', (payload) => heardByFirst.push(payload));
    const started = await startedAt(first);
    await first.close();

    const next = await leasePgliteEngine();
    try {
      assert.equal(await startedAt(next), started);
      const heard: string[] = [];
      await next.listen('changes', (payload) => heard.push(payload));
      await next.query(`select pg_notify('changes', 'second')`);
      await next.query('select 1');
      assert.deepEqual(heard, ['second']);
      assert.deepEqual(heardByFirst, []);
    } finally {
      await next.close();
    }
  });

  const changes: [string, string[], string][] = [
    ['a column added', ['alter table event_sequences add column probe int'], `select count(*)::int as n from information_schema.columns where column_name = 'probe'`],
    ['an index created', ['create index probe_idx on event_sequences (last)'], `select count(*)::int as n from pg_indexes where indexname = 'probe_idx'`],
    ['a constraint dropped', ['alter table event_sequences drop constraint event_sequences_pkey'], `select 1 - count(*)::int as n from pg_constraint where conname = 'event_sequences_pkey'`],
    ['planner statistics gathered', [`insert into event_sequences values ('a', 1)`, 'analyze event_sequences'], `select least(count(*), 1)::int as n from pg_statistic where starelid = 'event_sequences'::regclass`],
    ['a database setting', ['alter database template1 set work_mem = 4096'], 'select count(*)::int as n from pg_db_role_setting'],
    ['a migration recorded', [`insert into drizzle.__drizzle_migrations (hash, created_at) values ('probe', 1)`], `select count(*)::int as n from drizzle.__drizzle_migrations where hash = 'probe'`],
  ];
  for (const [what, statements, probe] of changes) {
    it(`an engine with ${what} is closed, not reused`, async () => {
      const first = await leasePgliteEngine();
      const started = await startedAt(first);
      for (const statement of statements) await first.query(statement);
      assert.equal((await one<{ n: number }>(first, probe)).n, 1, 'the change did not happen');
      await first.close();

      const next = await leasePgliteEngine();
      try {
        assert.notEqual(await startedAt(next), started, 'the changed engine was reused');
        assert.equal((await one<{ n: number }>(next, probe)).n, 0);
      } finally {
        await next.close();
      }
    });
  }

  it('an engine closed while its transaction runs is closed, and the transaction fails as on a closed engine', async () => {
    const first = await leasePgliteEngine();
    const started = await startedAt(first);
    let inserted!: () => void;
    const insertDone = new Promise<void>((resolve) => (inserted = resolve));
    let closed!: () => void;
    const wasClosed = new Promise<void>((resolve) => (closed = resolve));
    const running = first.transaction(async (tx) => {
      await tx.query(`insert into event_sequences values ('in-flight', 1)`);
      inserted();
      await wasClosed;
      await tx.query('select 1');
    });
    await insertDone;
    const closing = first.close();
    closed();
    await assert.rejects(running, /PGlite is closed/);
    await closing;
    await assert.rejects(first.query('select 1'), /^Error: PGlite is closed$/);

    const next = await leasePgliteEngine();
    try {
      assert.notEqual(await startedAt(next), started);
      assert.deepEqual((await next.query('select * from event_sequences')).rows, []);
    } finally {
      await next.close();
    }
  });
});
