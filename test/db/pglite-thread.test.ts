import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { RemotePglite } from '../../src/db/pglite-thread/remote.js';

/*
 * The embedded database on its own thread (src/db/pglite-thread): what the request thread sees must be what the
 * in-process driver gave (errors with their SQLSTATE and constraint, Buffers for bytea, transactions that commit or
 * roll back whole, notifications), and a long statement must not stop this thread.
 */
describe('PGlite on its own thread', () => {
  let pg: RemotePglite;

  before(async () => {
    pg = await RemotePglite.start({ dir: undefined });
    await pg.query('create table t (id int primary key, data bytea, at timestamptz)');
  });
  after(() => pg.close());

  it('answers rows in object and array mode; bytea comes back as a Buffer; drizzle’s text parsers keep timestamps as text', async () => {
    const bytes = Buffer.from([0, 1, 2, 255]);
    await pg.query('insert into t values ($1, $2, $3)', [1, bytes, new Date(Date.UTC(2026, 0, 2, 3, 4, 5))]);
    const asObjects = await pg.query('select id, data from t where id = $1', [1]);
    assert.deepEqual(asObjects.rows, [{ id: 1, data: bytes }]);
    assert.ok(Buffer.isBuffer((asObjects.rows[0] as { data: unknown }).data));
    const asArrays = await pg.query('select id, at from t', [], { rowMode: 'array', parsers: { 1184: (text) => text } });
    assert.deepEqual(asArrays.rows, [[1, '2026-01-02 03:04:05+00']]);
    assert.deepEqual(asArrays.fields.map((f) => f.name), ['id', 'at']);
  });

  it('a driver error keeps its SQLSTATE, constraint and detail', async () => {
    await assert.rejects(pg.query('insert into t (id) values (1)'), (err: Error & { code?: string; constraint?: string; detail?: string }) => {
      assert.equal(err.code, '23505');
      assert.equal(err.constraint, 't_pkey');
      assert.match(err.detail ?? '', /\(id\)=\(1\)/);
      return true;
    });
  });

  it('a transaction commits when its function resolves and rolls back whole when it throws (a failed statement included)', async () => {
    await pg.transaction(async (tx) => {
      await tx.query('insert into t (id) values (2)');
      await tx.query('insert into t (id) values (3)');
    });
    await assert.rejects(
      pg.transaction(async (tx) => {
        await tx.query('insert into t (id) values (4)');
        await tx.query('insert into t (id) values (2)');
      }),
      { code: '23505' },
    );
    await assert.rejects(
      pg.transaction(async (tx) => {
        await tx.query('insert into t (id) values (5)');
        throw new Error('changed my mind');
      }),
      /changed my mind/,
    );
    const ids = await pg.query('select id from t order by id');
    assert.deepEqual(ids.rows, [{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it('a statement outside a transaction waits for the open transaction to end, as on one connection', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tx = pg.transaction(async (t) => {
      await t.query('insert into t (id) values (10)');
      await held;
    });
    await sleep(20);
    let read: number | undefined;
    const outside = pg.query('select count(*)::int as n from t where id = 10').then((r) => (read = (r.rows[0] as { n: number }).n));
    await sleep(50);
    assert.equal(read, undefined, 'the read waits for the transaction');
    release();
    await tx;
    await outside;
    assert.equal(read, 1, 'and then sees its commit');
  });

  it('delivers notifications to listeners until they unlisten', async () => {
    const got: string[] = [];
    const unlisten = await pg.listen('ping', (payload) => got.push(payload));
    await pg.query("select pg_notify('ping', 'one')");
    await pg.query("select pg_notify('ping', 'two')");
    await pg.query('select 1');
    assert.deepEqual(got, ['one', 'two']);
    await unlisten();
    await pg.query("select pg_notify('ping', 'three')");
    await pg.query('select 1');
    assert.deepEqual(got, ['one', 'two']);
  });

  it('a long statement leaves this thread free: a timer fires while it runs', async () => {
    let done = false;
    const long = pg.query('select count(*) from generate_series(1, 5000000)').then(() => (done = true));
    await sleep(1);
    assert.equal(done, false, 'the timer fired before the statement ended');
    await long;
  });

  it('dumps the database, and a new engine starts from the dump', async () => {
    const dump = await pg.dumpDataDir();
    const copy = await RemotePglite.start({ dir: undefined, template: await dump.arrayBuffer() });
    try {
      assert.deepEqual((await copy.query('select id from t where id < 4 order by id')).rows, [{ id: 1 }, { id: 2 }, { id: 3 }]);
    } finally {
      await copy.close();
    }
  });

  it('after close every call fails with "PGlite is closed" (the 503 path)', async () => {
    const other = await RemotePglite.start({ dir: undefined });
    await other.close();
    await assert.rejects(other.query('select 1'), /^Error: PGlite is closed$/);
  });
});
