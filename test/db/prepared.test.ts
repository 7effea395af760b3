import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import { preparedStatement } from '../../src/db/prepared.js';
import { requestNonces } from '../../src/db/schema/index.js';
import { backends } from '../harness/backends.js';
import type { TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';

/*
 * Hot statements prepared once per database (src/db/prepared.ts): built once outside transactions, and inside one
 * run on the transaction's own connection, so they see its writes and roll back with it.
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
    let server: TestServer;
    before(async () => {
      ({ server } = await startTenants(backend, []));
    });
    after(() => server.close());

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
  });
}
