import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { idempotencyKeys, requestNonces } from '../../src/db/schema/index.js';
import { appendEvent } from '../../src/db/repositories/events.js';
import { rememberNonce } from '../../src/db/repositories/request-nonces.js';
import { purgeExpired, vacuumChurningTables, type PurgeBatch } from '../../src/workers/maintenance.js';
import { eventsFor } from '../harness/db.js';
import { backends } from '../harness/backends.js';
import { useTenants } from '../harness/tenants.js';

for (const backend of backends()) {
  describe(`expiry of replay hashes and idempotency records [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme']);

    it('treats an expired replay hash as unseen, then purges it', async () => {
      const t0 = new Date(Date.UTC(2026, 5, 1, 12));
      const later = new Date(t0.getTime() + 10 * 60_000);
      assert.equal(await rememberNonce(server.database.db, acme.publicKey, 'h1', new Date(t0.getTime() + 61_000), t0), true);
      assert.equal(await rememberNonce(server.database.db, acme.publicKey, 'h1', new Date(t0.getTime() + 61_000), t0), false);
      // Past its expiry the same hash is accepted again (its timestamp could not pass the window anyway).
      assert.equal(await rememberNonce(server.database.db, acme.publicKey, 'h1', new Date(later.getTime() + 61_000), later), true);
      assert.equal(await rememberNonce(server.database.db, acme.publicKey, 'h2', new Date(t0.getTime() + 61_000), t0), true);
      const purged = await purgeExpired(server.database.db, () => later);
      assert.equal(purged.nonces, 1, 'only h2 had expired');
      const left = await server.database.db.select().from(requestNonces);
      assert.deepEqual(left.map((r) => r.messageHash), ['h1']);
    });

    it('purges idempotency records past 24 h and keeps the rest', async () => {
      const now = server.clock.now();
      const row = (key: string, expiresAt: Date) => ({
        integratorId: acme.integratorId,
        key,
        fingerprint: 'f',
        state: 'completed' as const,
        responseStatus: 201,
        responseBody: '{}',
        responseContentType: 'application/json',
        lockedAt: now,
        createdAt: now,
        expiresAt,
      });
      await server.database.db.insert(idempotencyKeys).values([row('old', new Date(now.getTime() - 1)), row('fresh', new Date(now.getTime() + 3_600_000))]);
      const purged = await purgeExpired(server.database.db, () => now);
      assert.equal(purged.idempotencyKeys, 1);
      const keys = (await server.database.db.select().from(idempotencyKeys)).map((r) => r.key);
      assert.deepEqual(keys, ['fresh']);
    });

    it('purges events past their retention, and the next event of an object still continues its sequence', async () => {
      const created = await acme.client.post('/v1/integrator/credentials', { label: 'old', scope: 'read_only' });
      const pubkey = created.body.credential.publicKey;
      server.clock.advance(1000);
      await acme.client.patch(`/v1/integrator/credentials/${pubkey}`, { label: 'older' });
      const id = created.body.credential.credentialId;
      assert.deepEqual((await eventsFor(server.database, id)).map((e) => e.sequence), [1, 2]);

      const in29Days = new Date(server.clock.now().getTime() + 29 * 86_400_000);
      assert.equal((await purgeExpired(server.database.db, () => in29Days, 30)).events, 0, 'kept for 30 days');
      const in31Days = new Date(server.clock.now().getTime() + 31 * 86_400_000);
      assert.ok((await purgeExpired(server.database.db, () => in31Days, 30)).events >= 2);
      assert.deepEqual(await eventsFor(server.database, id), []);

      server.clock.advance(1000);
      await acme.client.patch(`/v1/integrator/credentials/${pubkey}`, { label: 'new' });
      assert.deepEqual((await eventsFor(server.database, id)).map((e) => e.sequence), [3], 'a number is never given twice');
    });

    it('purges more rows than a batch in several bounded batches, and keeps the rest', async () => {
      const db = server.database.db;
      const now = server.clock.now();
      const old = new Date(now.getTime() - 40 * 86_400_000);
      const objectId = `purge-batches-${randomUUID()}`;
      const write = (createdAt: Date) =>
        appendEvent(db, { id: randomUUID(), integratorId: acme.integratorId, type: 'user.updated', objectType: 'user', objectId, apiVersion: 'v1', data: {}, createdAt, subscriptionPatterns: [] });
      for (let i = 0; i < 25; i++) await write(new Date(old.getTime() + i));
      await write(now);
      for (let i = 0; i < 12; i++) assert.equal(await rememberNonce(db, acme.publicKey, `batch-${i}`, new Date(now.getTime() - 1), new Date(now.getTime() - 61_000)), true);

      const batches: PurgeBatch[] = [];
      const purged = await purgeExpired(db, () => now, 30, { batchSize: 10, onBatch: (b) => batches.push(b) });
      assert.equal(purged.events, 25);
      const rowsOf = (table: string) => batches.filter((b) => b.table === table).map((b) => b.rows);
      assert.deepEqual(rowsOf('events'), [10, 10, 5], 'three statements: two full batches, then the rest');
      // Earlier tests' requests left expired hashes too: at least these 12, in batches of 10 until one falls short.
      const nonceBatches = rowsOf('request_nonces');
      assert.ok(purged.nonces >= 12 && nonceBatches.length === Math.floor(purged.nonces / 10) + 1, JSON.stringify(nonceBatches));
      assert.equal(nonceBatches.reduce((a, b) => a + b, 0), purged.nonces);
      assert.ok(batches.every((b) => b.rows <= 10 && b.ms >= 0));
      assert.equal((await purgeExpired(db, () => now, 30, { batchSize: 10 })).nonces, 0, 'none left');
      assert.deepEqual((await eventsFor(server.database, objectId)).map((e) => e.sequence), [26], 'the recent event stays');
    });

    it('vacuums and analyzes the churning tables (PGlite has no autovacuum)', async () => {
      await vacuumChurningTables(server.database.db);
    });
  });
}
