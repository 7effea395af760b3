import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHash } from 'node:crypto';
import { idempotencyKeys } from '../../src/db/schema/index.js';
import { backends } from '../harness/backends.js';
import { eventsOfType } from '../harness/db.js';
import type { SeededIntegrator } from '../harness/server.js';
import { useTenants } from '../harness/tenants.js';

for (const backend of backends()) {
  describe(`idempotency keys [${backend}]`, () => {
    const { server, tenants: [acme, globex] } = useTenants(backend, ['Acme', 'Globex']);

    const create = (who: SeededIntegrator, key: string, body: object = { label: 'idem', scope: 'read_only' }) =>
      who.client.post('/v1/integrator/credentials', body, { headers: { 'Idempotency-Key': key } });

    async function credentialCount(who: SeededIntegrator) {
      return (await who.client.get('/v1/integrator/credentials')).body.credentials.length as number;
    }

    it('replays the first response for a retry with the same key and body, even re-signed later', async () => {
      const first = await create(acme, 'key-replay');
      assert.equal(first.status, 201);
      assert.equal(first.headers.get('idempotent-replayed'), null);
      const count = await credentialCount(acme);
      server.clock.advance(5_000);
      const retry = await create(acme, 'key-replay');
      assert.equal(retry.status, 201);
      assert.equal(retry.headers.get('idempotent-replayed'), 'true');
      assert.equal(retry.text, first.text, 'byte-identical body, including the generated private key');
      assert.equal(await credentialCount(acme), count, 'nothing created twice');
    });

    it('replays a byte-identical resend (same signature) of a processed key instead of calling it a replay attack', async () => {
      const body = { label: 'resend', scope: 'read_only' };
      const first = await create(acme, 'key-resend', body);
      const resend = await create(acme, 'key-resend', body); // same second: identical signed bytes
      assert.equal(resend.status, 201);
      assert.equal(resend.headers.get('idempotent-replayed'), 'true');
      assert.equal(resend.text, first.text);
    });

    it('refuses the same key with a different body (422 idempotency_key_reused)', async () => {
      await create(acme, 'key-mismatch', { label: 'one', scope: 'read_only' });
      const res = await create(acme, 'key-mismatch', { label: 'two', scope: 'read_only' });
      assert.equal(res.status, 422);
      assert.equal(res.body.code, 'idempotency_key_reused');
    });

    it('stores 4xx results too: a retry of a refused request gets the same refusal', async () => {
      const body = { label: 'dup', scope: 'read_only', publicKey: globex.publicKey };
      const first = await create(acme, 'key-409', body);
      assert.equal(first.status, 409);
      server.clock.advance(1000);
      const retry = await create(acme, 'key-409', body);
      assert.equal(retry.status, 409);
      assert.equal(retry.headers.get('idempotent-replayed'), 'true');
      assert.equal(retry.body.code, 'credential_exists');
    });

    it('does not store a validation failure: the key stays free', async () => {
      const bad = await create(acme, 'key-invalid', { label: 'x' });
      assert.equal(bad.status, 400);
      const good = await create(acme, 'key-invalid', { label: 'x', scope: 'read_only' });
      assert.equal(good.status, 201);
    });

    it('scopes keys per integrator', async () => {
      const a = await create(acme, 'shared-key', { label: 'acme', scope: 'read_only' });
      const g = await create(globex, 'shared-key', { label: 'acme', scope: 'read_only' });
      assert.equal(a.status, 201);
      assert.equal(g.status, 201);
      assert.equal(g.headers.get('idempotent-replayed'), null);
      assert.notEqual(a.body.credential.publicKey, g.body.credential.publicKey);
    });

    it('answers 409 idempotency_request_in_progress while the first request holds the key', async () => {
      // A claim held by a request still running (or by a process that died): same fingerprint as the request
      // below, so only the in-progress state can refuse it.
      const body = JSON.stringify({ label: 'busy', scope: 'read_only' });
      const print = createHash('sha256').update('POST /v1/integrator/credentials\n').update(body).digest('hex');
      const now = server.clock.now();
      await server.database.db.insert(idempotencyKeys).values({
        integratorId: acme.integratorId,
        key: 'key-busy',
        fingerprint: print,
        state: 'in_progress',
        lockedAt: now,
        createdAt: now,
        expiresAt: new Date(now.getTime() + 24 * 3600 * 1000),
      });
      const send = () => acme.client.request('POST', '/v1/integrator/credentials', { rawBody: body, headers: { 'Idempotency-Key': 'key-busy' } });
      const res = await send();
      assert.equal(res.status, 409);
      assert.equal(res.body.code, 'idempotency_request_in_progress');
      // A claim abandoned by a dead process is taken over once stale, and the request then runs.
      server.clock.advance(61_000);
      const later = await send();
      assert.equal(later.status, 201, later.text);
    });

    it('never re-runs a change that committed before its response was recorded (crash window)', async () => {
      const body = JSON.stringify({ label: 'crashed', scope: 'read_only' });
      const print = createHash('sha256').update('POST /v1/integrator/credentials\n').update(body).digest('hex');
      const then = new Date(server.clock.now().getTime() - 120_000);
      await server.database.db.insert(idempotencyKeys).values({
        integratorId: acme.integratorId,
        key: 'key-crashed',
        fingerprint: print,
        state: 'committed',
        lockedAt: then,
        createdAt: then,
        expiresAt: new Date(then.getTime() + 24 * 3600 * 1000),
      });
      const before = await credentialCount(acme);
      const res = await acme.client.request('POST', '/v1/integrator/credentials', { rawBody: body, headers: { 'Idempotency-Key': 'key-crashed' } });
      assert.equal(res.status, 409);
      assert.equal(res.body.code, 'idempotency_request_in_progress');
      assert.match(res.body.detail, /not recorded/);
      assert.equal(await credentialCount(acme), before);
    });

    it('runs concurrent requests with one key exactly once', async () => {
      const before = (await eventsOfType(server.database, acme.integratorId, 'credential.created')).length;
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => {
          // Same key and body in the same second: byte-identical resends racing each other.
          return create(acme, 'key-concurrent', { label: 'concurrent', scope: 'read_only' }).then((r) => ({ i, r }));
        }),
      );
      const created = (await eventsOfType(server.database, acme.integratorId, 'credential.created')).length - before;
      assert.equal(created, 1, 'exactly one credential was created');
      const statuses = results.map(({ r }) => r.status);
      assert.ok(statuses.every((s) => s === 201 || s === 409), statuses.join(','));
      const successes = results.filter(({ r }) => r.status === 201);
      assert.ok(successes.length >= 1);
      const keys = new Set(successes.map(({ r }) => r.body.credential.publicKey));
      assert.equal(keys.size, 1, 'every 201 describes the same credential');
      for (const { r } of results.filter(({ r }) => r.status === 409)) {
        assert.ok(['idempotency_request_in_progress', 'duplicate_request'].includes(r.body.code), r.body.code);
      }
    });

    it('rejects a malformed key', async () => {
      const res = await create(acme, 'x'.repeat(256));
      assert.equal(res.status, 400);
      assert.equal(res.body.errors[0].pointer, '/idempotency-key');
      assert.equal(res.body.errors[0].in, 'header');
    });

    it('expires keys after 24 h', async () => {
      const first = await create(acme, 'key-expiry', { label: 'expiry', scope: 'read_only' });
      server.clock.advance(24 * 3600 * 1000 + 1000);
      const again = await create(acme, 'key-expiry', { label: 'expiry', scope: 'read_only' });
      assert.equal(again.status, 201);
      assert.equal(again.headers.get('idempotent-replayed'), null);
      assert.notEqual(again.body.credential.publicKey, first.body.credential.publicKey);
    });
  });
}
