import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { anySignatureValid, publicKeyFromText } from '../../src/crypto/webhook-signature.js';
import { backends } from '../harness/backends.js';
import { startReceiver, type ReceivedRequest, type Receiver } from '../harness/receiver.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';

const BASE = '/v1/webhooks/subscriptions';
const DELIVERY_ENV = { WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_SCHEDULE: '0.05,0.05,0.05' };

/** The Standard Webhooks headers as the standardwebhooks library reads them. */
const headersOf = (r: ReceivedRequest) => ({ 'webhook-id': r.header('webhook-id')!, 'webhook-timestamp': r.header('webhook-timestamp')!, 'webhook-signature': r.header('webhook-signature')! });

for (const backend of backends()) {
  describe(`webhook signatures verified by standard libraries; test deliveries [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;
    let globex: SeededIntegrator;
    let receiver: Receiver;

    before(async () => {
      ({ server, tenants: [acme, globex] } = await startTenants(backend, ['Acme', 'Globex'], DELIVERY_ENV));
      receiver = await startReceiver();
    });
    after(async () => {
      await server?.close();
      await receiver?.close();
    });

    it('hmac-sha256: a whsec_ secret shown once; deliveries verify with the standardwebhooks package, also across a rotation', async () => {
      const created = await acme.client.post(BASE, { name: 'hmac', url: `${receiver.url}/hmac`, eventTypes: ['credential.*'], algorithm: 'hmac-sha256' }, { headers: { 'Idempotency-Key': 'hmac-create' } });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.algorithm, 'hmac-sha256');
      assert.equal(created.body.publicKey, '');
      const secret = created.body.signingSecret as string;
      assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      const id = created.body.subscription.id as string;

      // Never shown again, and never stored in clear (the idempotent answer is sealed, bound to the credential).
      const read = await acme.client.get(`${BASE}/${id}`);
      assert.equal(read.body.signingSecret, undefined);
      assert.equal(read.body.algorithm, 'hmac-sha256');
      server.clock.advance(1000);
      const replay = await acme.client.post(BASE, { name: 'hmac', url: `${receiver.url}/hmac`, eventTypes: ['credential.*'], algorithm: 'hmac-sha256' }, { headers: { 'Idempotency-Key': 'hmac-create' } });
      assert.equal(replay.body.signingSecret, secret, 'the same answer again');
      const b64 = secret.slice('whsec_'.length);
      for (const table of ['idempotency_keys', 'webhook_signing_keys', 'webhook_subscriptions', 'events']) {
        const dump = await server.database.db.execute<{ row: string }>(sql.raw(`select t::text as row from ${table} t`));
        const rows = (dump as unknown as { rows?: { row: string }[] }).rows ?? (dump as unknown as { row: string }[]);
        assert.ok(!rows.some((r) => r.row.includes(b64)), `${table} holds the secret in clear`);
      }

      const queued = await acme.client.post(`${BASE}/${id}/test`);
      assert.equal(queued.status, 202, queued.text);
      const first = await receiver.next();
      assert.equal(first.header('webhook-id'), queued.body.eventId);
      const verified = new Webhook(secret).verify(first.text(), headersOf(first)) as { type: string; data: { test: boolean } };
      assert.equal(verified.type, 'webhook.test', 'delivered even though the subscription selects credential.* only');
      assert.equal(verified.data.test, true);
      assert.throws(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(first.text(), headersOf(first)), 'another secret does not verify');

      const rotated = await acme.client.post(`${BASE}/${id}/rotate-key`);
      assert.equal(rotated.status, 200, rotated.text);
      const next = rotated.body.signingSecret as string;
      assert.ok(next && next !== secret);
      server.clock.advance(1000);
      assert.equal((await acme.client.post(`${BASE}/${id}/test`)).status, 202);
      const second = await receiver.next();
      assert.equal(second.header('webhook-signature')!.split(' ').length, 2, 'both keys sign during the overlap');
      for (const s of [next, secret]) assert.doesNotThrow(() => new Webhook(s).verify(second.text(), headersOf(second)));
    });

    it('ed25519 (the default): a test delivery verifies with the subscription’s public key; only that subscription receives it', async () => {
      const other = await startReceiver();
      try {
        const created = await acme.client.post(BASE, { name: 'ed', url: `${receiver.url}/ed`, eventTypes: ['credential.*'] });
        assert.equal(created.body.algorithm, 'ed25519');
        assert.equal(created.body.signingSecret, undefined);
        const bystander = await acme.client.post(BASE, { name: 'all', url: `${other.url}/all`, eventTypes: ['*'] });
        assert.equal(bystander.status, 201);
        const queued = await acme.client.post(`${BASE}/${created.body.subscription.id}/test`);
        const got = await receiver.next();
        assert.equal(got.header('webhook-id'), queued.body.eventId);
        const ts = Number(got.header('webhook-timestamp'));
        assert.ok(anySignatureValid(got.header('webhook-signature')!, publicKeyFromText(created.body.publicKey)!, got.header('webhook-id')!, ts, got.rawBody));
        // The bystander selects every type, yet the test was queued for the one subscription only.
        const queuedFor = await server.database.db.execute(sql`select subscription_id from webhook_deliveries where event_id = ${queued.body.eventId}`);
        const rows = (queuedFor as unknown as { rows?: { subscription_id: string }[] }).rows ?? (queuedFor as unknown as { subscription_id: string }[]);
        assert.deepEqual(rows.map((r) => r.subscription_id), [created.body.subscription.id]);
        const deliveries = await acme.client.get(`${BASE}/${created.body.subscription.id}/deliveries`);
        assert.ok(deliveries.body.data.some((d: { eventId: string }) => d.eventId === queued.body.eventId), deliveries.text);
      } finally {
        await other.close();
      }
    });

    it('a disabled subscription gets no test (409); another integrator’s or a missing one is 404; bad algorithms are 400', async () => {
      const created = await acme.client.post(BASE, { name: 'off', url: `${receiver.url}/off`, eventTypes: ['*'], enabled: false });
      const off = await acme.client.post(`${BASE}/${created.body.subscription.id}/test`);
      assert.deepEqual([off.status, off.body.code], [409, 'webhook_subscription_disabled']);
      assert.equal((await globex.client.post(`${BASE}/${created.body.subscription.id}/test`)).status, 404);
      assert.equal((await acme.client.post(`${BASE}/${randomUUID()}/test`)).status, 404);
      const bad = await acme.client.post(BASE, { name: 'x', url: `${receiver.url}/x`, eventTypes: ['*'], algorithm: 'hmac-sha1' });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.errors[0].pointer, '/algorithm');
      const patch = await acme.client.patch(`${BASE}/${created.body.subscription.id}`, { algorithm: 'hmac-sha256' });
      assert.equal(patch.status, 400, 'the algorithm is fixed at creation');
    });
  });
}
