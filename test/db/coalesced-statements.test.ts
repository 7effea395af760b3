import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { rememberNonce } from '../../src/db/repositories/request-nonces.js';
import { requestNonces } from '../../src/db/schema/index.js';
import { backends } from '../harness/backends.js';
import { useTenants } from '../harness/tenants.js';

/*
 * The request path's coalesced statements (src/db/coalescer.ts) against the database: concurrent requests' nonces go
 * in one statement and each caller learns about its own (a replay inside one batch included); an expired nonce no
 * longer counts as a replay.
 */
for (const backend of backends()) {
  describe(`coalesced statements [${backend}]`, () => {
    const { server } = useTenants(backend, []);

    it('concurrent nonces: each new one remembered once, a replay refused whether in the same batch or a later one', async () => {
      const db = server.database.db;
      const publicKey = `pk-${randomUUID()}`;
      const now = new Date();
      const expiresAt = new Date(now.getTime() + 60_000);
      // 12 hashes, each sent three times at once. The first two calls each find a free slot (two batches in flight) and go
      // alone; the other 34 wait and go together when either ends, maybe while the other is still in flight. So the
      // copies of h0 and of h1 may race across concurrent statements (either copy may win, exactly one must); every
      // other hash is decided inside one statement, where its first copy is the new one.
      const hashes = Array.from({ length: 12 }, (_, i) => `h${i}`);
      const calls = [0, 1, 2].flatMap(() => hashes.map((h) => rememberNonce(db, publicKey, h, expiresAt, now)));
      const answers = await Promise.all(calls);
      for (const [i, h] of hashes.entries()) {
        assert.equal([0, 1, 2].filter((round) => answers[round * hashes.length + i]).length, 1, `${h} remembered once`);
      }
      assert.equal(answers.slice(2, hashes.length).every(Boolean), true, 'inside one batch, the first of each in the order sent is the new one');
      assert.deepEqual(await Promise.all(hashes.map((h) => rememberNonce(db, publicKey, h, expiresAt, now))), hashes.map(() => false), 'later: all replays');
      const stored = await db.select().from(requestNonces).where(eq(requestNonces.publicKey, publicKey));
      assert.equal(stored.length, hashes.length);
      assert.ok(stored.every((r) => r.expiresAt.getTime() === expiresAt.getTime()));
    });

    it('an expired nonce not yet purged is new again, with its new expiry', async () => {
      const db = server.database.db;
      const publicKey = `pk-${randomUUID()}`;
      const then = new Date(Date.now() - 120_000);
      assert.equal(await rememberNonce(db, publicKey, 'old', new Date(then.getTime() + 60_000), then), true);
      const now = new Date();
      const expiresAt = new Date(now.getTime() + 60_000);
      assert.deepEqual(await Promise.all([rememberNonce(db, publicKey, 'old', expiresAt, now), rememberNonce(db, publicKey, 'fresh', expiresAt, now)]), [true, true]);
      const [row] = await db.select().from(requestNonces).where(and(eq(requestNonces.publicKey, publicKey), eq(requestNonces.messageHash, 'old')));
      assert.equal(row!.expiresAt.getTime(), expiresAt.getTime());
      assert.equal(await rememberNonce(db, publicKey, 'old', expiresAt, now), false, 'unexpired again: a replay');
    });
  });
}
