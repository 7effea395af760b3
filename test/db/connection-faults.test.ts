import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/database.js';
import { databaseUnavailableCause, isDatabaseUnavailable } from '../../src/db/unavailable.js';
import { postgresUrl, provisionDatabase } from '../harness/backends.js';
import { eventually } from '../harness/eventually.js';
import { startTcpProxy, type TcpProxy } from '../harness/tcp-proxy.js';

// The pool and the LISTEN connection when the connection to PostgreSQL is cut or stalls (test/harness/tcp-proxy.ts);
// the whole server under the same faults: test/process/database-faults.test.ts.
describe('the PostgreSQL pool when the connection is lost', { skip: postgresUrl() ? false : 'no TEST_DATABASE_URL' }, () => {
  const QUERY_TIMEOUT_MS = 1_000;
  const CONNECT_TIMEOUT_MS = 1_000;
  /** A statement, its cancellation, or a connection attempt must fail within this, whatever the fault. */
  const BOUND_MS = QUERY_TIMEOUT_MS + 1_000 + 1_500;
  let proxy: TcpProxy;
  let database: Database;
  let direct: string;
  let drop: () => Promise<void>;

  before(async () => {
    const provisioned = await provisionDatabase('postgres');
    drop = provisioned.drop;
    if (provisioned.target.kind !== 'postgres') throw new Error('expected postgres');
    direct = provisioned.target.url;
    const server = new URL(direct);
    proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
    // Two connections: a pool that lost clients for good would be full after two faults.
    database = await openDatabase({ kind: 'postgres', url: proxy.urlFor(direct), poolMax: 2, queryTimeoutMs: QUERY_TIMEOUT_MS, connectTimeoutMs: CONNECT_TIMEOUT_MS });
  });
  after(async () => {
    proxy?.setMode('pass');
    await database?.close();
    await proxy?.close();
    await drop?.();
  });

  let n = 0;
  /** A transaction as a request makes one: BEGIN, two statements, COMMIT. */
  const write = () =>
    database.db.transaction(async (tx) => {
      const name = `k${++n}`;
      await tx.execute(sql`insert into system_settings (name, value) values (${name}, 'v')`);
      await tx.execute(sql`select count(*) from system_settings`);
      return name;
    });

  /** Two transactions at once, each waiting for the other to begin: both of the pool's clients are usable. */
  async function bothClients(): Promise<void> {
    let begun = 0;
    let go: () => void = () => {};
    const barrier = new Promise<void>((resolve) => (go = resolve));
    await Promise.all(
      [1, 2].map(() =>
        database.db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          if (++begun === 2) go();
          await barrier;
        }),
      ),
    );
  }

  /** Runs `work`, which must fail as "database unavailable" within BOUND_MS; returns how long it took. */
  async function failsFast(work: () => Promise<unknown>): Promise<number> {
    const started = performance.now();
    const err = await work().then(
      () => assert.fail('expected a failure'),
      (e: unknown) => e,
    );
    const ms = performance.now() - started;
    assert.ok(isDatabaseUnavailable(err), `unavailable: ${String((err as Error).message).slice(0, 200)} / ${String((err as { cause?: Error }).cause?.message)}`);
    assert.ok(ms < BOUND_MS, `failed after ${Math.round(ms)} ms`);
    return ms;
  }

  async function recovers(): Promise<void> {
    proxy.setMode('pass');
    // The first attempt after the fault may still meet a connection that died with it; then it must work.
    await eventually(() => write().then(() => true, () => false), (ok) => ok, 'a write after the fault', 10_000);
    for (let i = 0; i < 4; i++) await write();
    await bothClients();
    const stats = database.poolStats!();
    assert.ok(stats.total <= 2 && stats.waiting === 0, JSON.stringify(stats));
  }

  it('a stalled connection: every query, BEGIN included, fails within its timeout, and no client is lost', async () => {
    await bothClients();
    proxy.setMode('stall');
    // More failed transactions than the pool has clients: each must hand its client back (or the pool would be full).
    for (let i = 0; i < 4; i++) await failsFast(write);
    await failsFast(() => database.ping());
    await recovers();
  });

  it('a stall in the middle of a transaction: the ROLLBACK does not wait a second timeout', async () => {
    const started = performance.now();
    const err = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        proxy.setMode('stall');
        await tx.execute(sql`select 2`);
      })
      .catch((e: unknown) => e);
    const ms = performance.now() - started;
    assert.ok(isDatabaseUnavailable(err), String(err));
    // One query_timeout (statement_timeout + 1 s) and some slack, well short of a second one for the ROLLBACK.
    assert.ok(ms < QUERY_TIMEOUT_MS + 1_000 + 1_000, `failed after ${Math.round(ms)} ms`);
    await recovers();
  });

  it('dropped connections: queries and transactions fail at once, without crashing the process, and the pool recovers', async () => {
    await write();
    // A connection lost while lent to a transaction (the process would die of an unhandled 'error' event).
    const lent = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      proxy.setMode('drop');
      await tx.execute(sql`select pg_sleep(0.2)`);
    });
    await failsFast(() => lent);
    for (let i = 0; i < 4; i++) await failsFast(write);
    await failsFast(() => database.ping());
    await recovers();
  });

  it('terminated backends: the lent transaction fails with 57P01, the next one works', async () => {
    await write();
    const admin = new pg.Client({ connectionString: direct });
    await admin.connect();
    try {
      const err = await database.db
        .transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
          await tx.execute(sql`select 2`);
        })
        .catch((e: unknown) => e);
      assert.ok(isDatabaseUnavailable(err), String(err));
    } finally {
      await admin.end();
    }
    await recovers();
  });

  it('the LISTEN connection notices a stall by its heartbeat, and a drop, and comes back', async () => {
    let resets = 0;
    const messages: string[] = [];
    const listener = await database.listen('fault_test', { onMessage: (m) => messages.push(m), onReset: () => resets++ });
    try {
      assert.equal(listener.live(), true);
      proxy.setMode('stall');
      // Heartbeat every QUERY_TIMEOUT_MS, answered within as long again.
      await eventually(async () => listener.live(), (live) => !live, 'the listener to notice the stall', 5_000);
      proxy.setMode('pass');
      await eventually(async () => listener.live(), (live) => live, 'the listener to reconnect', 10_000);
      proxy.setMode('drop');
      await eventually(async () => listener.live(), (live) => !live, 'the listener to notice the drop', 5_000);
      proxy.setMode('pass');
      await eventually(async () => listener.live(), (live) => live, 'the listener to reconnect', 10_000);
      assert.ok(resets >= 2);
      const admin = new pg.Client({ connectionString: direct });
      await admin.connect();
      await admin.query(`notify fault_test, 'after'`);
      await admin.end();
      await eventually(async () => messages, (m) => m.includes('after'), 'the notification after the reconnection');
    } finally {
      await listener.close();
    }
  });

  it('names the failures of a database that cannot be reached, and no other', () => {
    const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select secret from t\nparams: hunter2'), { cause });
    assert.deepEqual(databaseUnavailableCause(wrapped(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }))), {
      code: 'ECONNREFUSED',
      message: 'connect ECONNREFUSED 127.0.0.1:1',
    });
    for (const message of ['Connection terminated unexpectedly', 'timeout exceeded when trying to connect', 'Query read timeout', 'Client has encountered a connection error and is not queryable']) {
      assert.equal(databaseUnavailableCause(wrapped(new Error(message)))?.message, message);
    }
    for (const code of ['08006', '57P01', '57P03', '57014', '53300']) assert.ok(isDatabaseUnavailable(wrapped(Object.assign(new Error('x'), { code }))), code);
    for (const code of ['23505', '40001', '22P02', '42P01']) assert.ok(!isDatabaseUnavailable(wrapped(Object.assign(new Error('x'), { code }))), code);
    assert.ok(!isDatabaseUnavailable(new Error('something else')));
  });
});
