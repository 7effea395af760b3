import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { selectRows } from '../../src/db/database.js';
import { insertWrite, runWrites } from '../../src/db/pending-writes.js';
import { preparedStatement, runShaped } from '../../src/db/prepared.js';
import { textArrayLiteral } from '../../src/db/array-literal.js';
import { integrators, requestNonces } from '../../src/db/schema/index.js';
import { backends } from '../harness/backends.js';
import { useTenants } from '../harness/tenants.js';

/*
 * Hot statements prepared once per database (src/db/prepared.ts): built once outside transactions, and inside one
 * run on the transaction's own connection, so they see its writes and roll back with it. Statements assembled from
 * parts (runShaped, pending-writes.ts) are compiled once per shape and filled with each call's values.
 */
let builds = 0;
const remember = preparedStatement<{ publicKey: string; messageHash: string; expiresAt: Date }, { messageHash: string }[]>('test_remember', (db) => {
  builds++;
  return db
    .insert(requestNonces)
    .values({ publicKey: sql.placeholder('publicKey'), messageHash: sql.placeholder('messageHash'), expiresAt: sql.placeholder('expiresAt') })
    .onConflictDoNothing()
    .returning({ messageHash: requestNonces.messageHash });
});
const find = preparedStatement<{ publicKey: string; messageHash: string }, { messageHash: string }[]>('test_find', (db) =>
  db
    .select({ messageHash: requestNonces.messageHash })
    .from(requestNonces)
    .where(and(eq(requestNonces.publicKey, sql.placeholder('publicKey')), eq(requestNonces.messageHash, sql.placeholder('messageHash')))),
);

it('refuses a second statement under a name already taken', () => {
  preparedStatement('test_taken', (db) => db.select().from(requestNonces));
  assert.throws(() => preparedStatement('test_taken', (db) => db.select().from(requestNonces)), /two prepared statements are named test_taken/);
});

for (const backend of backends()) {
  describe(`prepared statements [${backend}]`, () => {
    const { server } = useTenants(backend, []);

    it('is built once per database however often it runs, with each call’s values', async () => {
      const publicKey = `pk-${randomUUID()}`;
      const expiresAt = new Date(Date.now() + 60_000);
      builds = 0;
      for (let i = 0; i < 5; i++) assert.deepEqual(await remember(server.database.db, { publicKey, messageHash: `h${i}`, expiresAt }), [{ messageHash: `h${i}` }]);
      assert.deepEqual(await remember(server.database.db, { publicKey, messageHash: 'h0', expiresAt }), [], 'the conflict is the statement’s, with these values');
      assert.equal(builds, 1);
      const stored = await server.database.db.select().from(requestNonces).where(eq(requestNonces.publicKey, publicKey));
      assert.equal(stored.length, 5);
      assert.equal(stored[0]!.expiresAt.getTime(), expiresAt.getTime(), 'a Date placeholder is stored as that instant');
    });

    it('inside a transaction it runs on the transaction’s connection: it sees the transaction’s writes and rolls back with it', async () => {
      const publicKey = `pk-${randomUUID()}`;
      const expiresAt = new Date(Date.now() + 60_000);
      builds = 0;
      const rollback = new Error('roll back');
      await assert.rejects(
        server.database.db.transaction(async (tx) => {
          assert.deepEqual(await remember(tx, { publicKey, messageHash: 'inside', expiresAt }), [{ messageHash: 'inside' }]);
          assert.deepEqual(await find(tx, { publicKey, messageHash: 'inside' }), [{ messageHash: 'inside' }], 'the transaction sees its own write');
          // PGlite has one connection: a query outside would wait for this transaction.
          if (backend !== 'pglite') assert.deepEqual(await find(server.database.db, { publicKey, messageHash: 'inside' }), [], 'outside it, nothing yet');
          throw rollback;
        }),
        (err) => err === rollback,
      );
      assert.equal(builds, 1, 'built for the transaction on its call');
      assert.deepEqual(await find(server.database.db, { publicKey, messageHash: 'inside' }), [], 'rolled back with the transaction');
      await server.database.db.transaction(async (tx) => {
        await remember(tx, { publicKey, messageHash: 'committed', expiresAt });
      });
      assert.deepEqual(await find(server.database.db, { publicKey, messageHash: 'committed' }), [{ messageHash: 'committed' }]);
    });

    it('a shaped statement is compiled once per shape and runs with each call’s values, inside a transaction on its connection', async () => {
      const db = server.database.db;
      let compiled = 0;
      const echo = (value: number) =>
        runShaped<{ n: number }>(
          db,
          `test echo ${backend}`,
          () => {
            compiled++;
            return sql`select ${sql.placeholder('n')}::int as n`;
          },
          { n: value },
        );
      for (let i = 0; i < 4; i++) assert.deepEqual(await echo(i), [{ n: i }]);
      assert.equal(compiled, 2, 'built once, and once more at its second use to check it is the same');
      assert.deepEqual(await runShaped(db, 'test echo twice', () => sql`select ${sql.placeholder('n')}::int * 2 as n`, { n: 21 }), [{ n: 42 }], 'another shape, another statement');

      const id = randomUUID();
      const rollback = new Error('roll back');
      await assert.rejects(
        db.transaction(async (tx) => {
          assert.deepEqual(await runWrites(tx, [insertWrite(integrators, { id, name: 'inside' })]), [1]);
          assert.deepEqual(await runShaped(tx, 'test find integrator', () => sql`select name from integrators where id = ${sql.placeholder('id')}`, { id }), [{ name: 'inside' }], 'the transaction sees its own write');
          if (backend !== 'pglite') {
            const named = await selectRows<{ name: string }>(tx, sql`select name from pg_prepared_statements where statement like '%from integrators where id = %'`);
            assert.equal(named.length, 1, 'prepared on the transaction’s connection under its name');
            assert.match(named[0]!.name, /^shaped_\d+$/);
          }
          throw rollback;
        }),
        (err) => err === rollback,
      );
      assert.deepEqual(await runShaped(db, 'test find integrator', () => sql`select name from integrators where id = ${sql.placeholder('id')}`, { id }), [], 'rolled back with the transaction');
    });

    it('a builder that captures a call’s value instead of a placeholder is refused at the shape’s second use, before it runs', async () => {
      const db = server.database.db;
      const captured = (n: number) => runShaped<{ n: number }>(db, `test captured ${backend}`, () => sql`select ${n}::int as n`, {});
      assert.deepEqual(await captured(1), [{ n: 1 }]);
      await assert.rejects(captured(2), /the shaped statement "test captured \w+" is not the same from one call to the next/);
      const constant = () => runShaped<{ s: string }>(db, `test constant ${backend}`, () => sql`select ${'committed'}::text as s`, {});
      assert.deepEqual([await constant(), await constant()], [[{ s: 'committed' }], [{ s: 'committed' }]], 'a constant of the code is the same every time');
    });

    it('an insert template: the columns left out take their defaults, and writes of one shape keep their own values', async () => {
      const db = server.database.db;
      const [a, b] = [randomUUID(), randomUUID()];
      const before = Date.now();
      assert.equal(insertWrite(integrators, { id: a, name: 'a' }).shape, insertWrite(integrators, { id: b, name: 'b' }).shape);
      assert.deepEqual(await runWrites(db, [insertWrite(integrators, { id: a, name: 'a' }), insertWrite(integrators, { id: b, name: 'b' })]), [1, 1]);
      const at = new Date('2026-01-02T03:04:05.678Z');
      const c = randomUUID();
      assert.deepEqual(await runWrites(db, [insertWrite(integrators, { id: c, name: 'c', createdAt: at })]), [1]);
      const rows = await db.select().from(integrators).where(sql`${integrators.id} in (${a}, ${b}, ${c})`);
      const byId = new Map(rows.map((r) => [r.id, r]));
      assert.equal(byId.get(a)!.name, 'a');
      assert.equal(byId.get(b)!.name, 'b');
      assert.ok(byId.get(a)!.createdAt.getTime() >= before - 5_000, 'created_at left out: the database’s default');
      assert.equal(byId.get(c)!.createdAt.toISOString(), at.toISOString(), 'created_at given: stored as that instant');
      assert.deepEqual(await runWrites(db, [insertWrite(integrators, { id: a, name: 'again' }, { ignoreConflict: true })]), [0], 'a conflict ignored inserts nothing');
      await assert.rejects(runWrites(db, [insertWrite(integrators, { id: a, name: 'again' })]), 'without ignoreConflict the conflict is an error');
    });

    it('a text[] literal (an event’s subscription patterns) reads back as the strings it was made of', async () => {
      const db = server.database.db;
      const text = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', ',', '{', '}', ' ', 'NULL', '*', '.'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })), maxLength: 12 }).filter((t) => !t.includes('\u0000'));
      await fc.assert(
        fc.asyncProperty(fc.array(text, { maxLength: 5 }), async (values) => {
          const [row] = await runShaped<{ list: string[] }>(db, 'test text array', () => sql`select ${sql.placeholder('list')}::text[] as list`, { list: textArrayLiteral(values) });
          assert.deepEqual(row!.list, values);
        }),
        { numRuns: 60 },
      );
    });
  });
}
