import assert from 'node:assert/strict';
import { createPublicKey, randomUUID, verify } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { isTransientConflict } from '../../src/db/conflicts.js';
import { verifyWebhook, WebhookVerificationError } from '../../packages/sdk/src/index.js';
import { webhookSubscriptions } from '../../src/db/schema/index.js';
import { sealLegacyWebhookHeaders, startMaintenance } from '../../src/workers/maintenance.js';
import { eventually } from '../harness/eventually.js';
import { backends } from '../harness/backends.js';
import { eventsOfType, statementsWaitingOnLocks, rowsContaining as rowsContainingIn } from '../harness/db.js';
import { californian, signedAt } from '../harness/fixtures.js';
import { startReceiver, type ReceivedRequest, type Receiver } from '../harness/receiver.js';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';
import type { AttemptView, ChangeData, DeliveryView, EventView, FieldError, WebhookSubscription } from '../harness/types.js';

const BASE = '/v1/webhooks/subscriptions';
const DELIVERY_ENV = { WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_SCHEDULE: '0.05,0.05,0.05' };
const DAY_MS = 86_400_000;
const SIGNATURE_ENTRY = /^v1a,[A-Za-z0-9+/]{86}==$/;


/** An Ed25519 verifier independent of src/: the raw key as a JWK, node:crypto's verify over `${id}.${ts}.${body}`. */
function independentKey(publicKey: string) {
  assert.match(publicKey, /^whpk_[A-Za-z0-9+/]{43}=$/);
  const raw = Buffer.from(publicKey.slice('whpk_'.length), 'base64');
  assert.equal(raw.length, 32);
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
}

/** For each `v1a,` entry of the delivery's webhook-signature header: whether it is a valid signature by the key. */
function entriesValidFor(publicKey: string, req: ReceivedRequest): boolean[] {
  const key = independentKey(publicKey);
  const id = req.header('webhook-id')!;
  const ts = req.header('webhook-timestamp')!;
  const content = Buffer.concat([Buffer.from(`${id}.${ts}.`, 'utf8'), req.rawBody]);
  return signatureEntries(req).map((entry) => verify(null, content, key, Buffer.from(entry.slice('v1a,'.length), 'base64')));
}

function signatureEntries(req: ReceivedRequest): string[] {
  const entries = req.header('webhook-signature')!.split(' ');
  for (const e of entries) assert.match(e, SIGNATURE_ENTRY);
  return entries;
}

for (const backend of backends()) {
  describe(`webhooks [${backend}]`, () => {
    let server: TestServer;
    const receivers: Receiver[] = [];
    let integrators = 0;
    let labels = 0;

    before(async () => {
      server = await startServer(backend, DELIVERY_ENV);
    });
    after(async () => {
      await server.close();
      await Promise.all(receivers.map((r) => r.close()));
    });

    const receiver = async () => {
      const r = await startReceiver();
      receivers.push(r);
      return r;
    };
    const now = () => ({ now: server.clock.seconds() });

    /** A fresh integrator (so no other test's events reach it) with one subscription to a fresh receiver. */
    const subscribed = async (body: Record<string, unknown> = {}) => {
      const integrator = await server.seedIntegrator(`Hooks ${++integrators}`);
      const r = await receiver();
      const created = await integrator.client.post(BASE, { name: 'test hook', url: `${r.url}/hook`, eventTypes: ['credential.*'], ...body });
      assert.equal(created.status, 201, created.text);
      const sub = created.body.subscription;
      return { integrator, receiver: r, sub, publicKey: created.body.publicKey as string, path: `${BASE}/${sub.id}` };
    };

    /** Records a credential.created event (cheap: a server-generated P-256 credential). */
    const trigger = async (integrator: SeededIntegrator) => {
      const res = await integrator.client.post('/v1/integrator/credentials', { label: `key ${++labels}`, scope: 'read_only' });
      assert.equal(res.status, 201, res.text);
      const events = await integrator.client.get(`/v1/events?type=credential.created&objectId=${res.body.credential.credentialId}`);
      assert.equal(events.body.data.length, 1);
      return events.body.data[0] as { id: string; createdAt: string; type: string };
    };

    const deliveryOf = async (integrator: SeededIntegrator, path: string, eventId: string) => {
      const res = await integrator.client.get(`${path}/deliveries?limit=100`);
      assert.equal(res.status, 200, res.text);
      return (res.body.data as DeliveryView[]).find((d) => d.eventId === eventId);
    };

    /** The event's delivery once it has reached `status` (and, when given, that many attempts). */
    const settled = (integrator: SeededIntegrator, path: string, eventId: string, status: 'succeeded' | 'failed', attempts?: number) =>
      eventually(
        () => deliveryOf(integrator, path, eventId),
        (d): d is DeliveryView => d?.status === status && (attempts === undefined || d.attempts.length === attempts),
        `delivery of ${eventId} ${status}${attempts ? ` after ${attempts} attempts` : ''}`,
      );

    /**
     * An event all four attempts of which the receiver refuses with a 500 (`body`), settled as failed: its attempts
     * are the receiver's `seen` + 1 to `seen` + 4.
     */
    const failedEvent = async (integrator: SeededIntegrator, r: Receiver, path: string, body: string, seen: number) => {
      r.setDefault({ status: 500, body });
      const event = await trigger(integrator);
      await r.waitFor(seen + 4);
      await settled(integrator, path, event.id, 'failed', 4);
      return event;
    };

    it('signs each delivery with Ed25519 (checked independently and by verifyWebhook); the body is the event GET /v1/events returns', async () => {
      const { integrator, receiver: r, sub, publicKey } = await subscribed({ eventTypes: '*' });
      // A `*` subscription gets its own webhook_subscription.created event first.
      const first = await r.next();
      const event = await trigger(integrator);
      const second = await r.next();

      for (const req of [first, second]) {
        assert.equal(req.method, 'POST');
        assert.equal(req.path, '/hook');
        assert.equal(req.header('content-type'), 'application/json');
        assert.match(req.header('user-agent')!, /^IntegratorAPI-Webhooks\//);
        assert.match(req.header('webhook-timestamp')!, /^\d{10}$/);
        assert.ok(Math.abs(Number(req.header('webhook-timestamp')) - server.clock.seconds()) <= 5);
        assert.equal(signatureEntries(req).length, 1);
        assert.deepEqual(entriesValidFor(publicKey, req), [true]);
        const verified = verifyWebhook(req.rawBody, req.headers, publicKey, now());
        const body = req.json();
        assert.deepEqual(verified, body);
        assert.equal(body.id, req.header('webhook-id'));
        const fetched = await integrator.client.get(`/v1/events/${req.header('webhook-id')}`);
        assert.equal(fetched.status, 200);
        assert.deepEqual(body, fetched.body);
        assert.equal(body.apiVersion, '0.2.0');
        // Any change to the bytes breaks the signature.
        assert.throws(() => verifyWebhook(Buffer.concat([req.rawBody, Buffer.from(' ')]), req.headers, publicKey, now()), WebhookVerificationError);
      }
      const created = first.json();
      assert.equal(created.type, 'webhook_subscription.created');
      assert.deepEqual(created.data.object, sub);
      assert.equal(second.header('webhook-id'), event.id);
      assert.equal(second.json().type, 'credential.created');
    });

    it('retries a failing receiver with the same webhook-id; history shows one delivery with every attempt', async () => {
      const { integrator, receiver: r, path } = await subscribed();
      // The success's body is recorded through an array parameter: quotes, braces, backslashes and "NULL" survive.
      const tricky = 'NULL "quoted", {braces} \\ back\\slash ✓';
      r.respond({ status: 500, body: `first failure ${'x'.repeat(3000)}` }, { status: 500, body: 'second failure' }, { status: 200, body: tricky });
      const event = await trigger(integrator);
      const arrivals = await r.waitFor(3);
      assert.deepEqual(
        arrivals.map((a) => a.header('webhook-id')),
        [event.id, event.id, event.id],
      );
      // Each attempt is signed afresh, each signature valid.
      for (const a of arrivals) verifyWebhook(a.rawBody, a.headers, (await integrator.client.get(path)).body.publicKey, now());

      const delivery = await settled(integrator, path, event.id, 'succeeded', 3);
      assert.equal(delivery.attemptCount, 3);
      assert.equal(delivery.eventType, 'credential.created');
      assert.equal(delivery.nextAttemptAt, null);
      assert.equal(delivery.lastError, null);
      assert.deepEqual(
        delivery.attempts.map((a: AttemptView) => [a.attemptNumber, a.responseStatus, a.responseBody, a.error, a.success]),
        [
          [1, 500, `first failure ${'x'.repeat(3000)}`.slice(0, 1024), null, false],
          [2, 500, 'second failure', null, false],
          [3, 200, tricky, null, true],
        ],
      );
      for (const a of delivery.attempts) assert.ok(Number.isInteger(a.durationMs) && a.durationMs >= 0);
      const times = delivery.attempts.map((a: AttemptView) => Date.parse(a.attemptedAt));
      assert.deepEqual(times, [...times].sort((x, y) => x - y));

      const byEvent = await integrator.client.get(`/v1/events/${event.id}/deliveries`);
      assert.equal(byEvent.status, 200);
      assert.deepEqual(byEvent.body, { data: [delivery], hasMore: false });
      assert.equal(r.requests.length, 3, 'nothing more was sent after the success');
    });

    it('410 Gone disables the subscription (webhook_subscription.disabled, reason gone); re-enable and recover resend', async () => {
      const { integrator, receiver: r, sub, path } = await subscribed();
      r.respond({ status: 410, body: 'gone for good' });
      const gone = await trigger(integrator);
      assert.equal((await r.next()).header('webhook-id'), gone.id);

      const disabled = await eventually(
        () => integrator.client.get(path),
        (res) => res.body.subscription.enabled === false,
        'the subscription to be disabled',
      );
      assert.equal(disabled.status, 200);
      const events = await integrator.client.get('/v1/events?type=webhook_subscription.disabled');
      assert.equal(events.status, 200);
      assert.equal(events.body.data.length, 1);
      const [disabledEvent] = events.body.data;
      assert.equal(disabledEvent.objectId, sub.id);
      assert.equal(disabledEvent.objectType, 'webhook_subscription');
      assert.equal(disabledEvent.data.reason, 'gone');
      assert.match(disabledEvent.data.detail, /410/);
      assert.equal(disabledEvent.data.object.enabled, false);
      assert.equal(disabledEvent.data.previousAttributes.enabled, true);

      const failed = await settled(integrator, path, gone.id, 'failed', 1);
      assert.equal(failed.attempts[0]!.responseStatus, 410);
      assert.equal(failed.attempts[0]!.responseBody, 'gone for good');

      // Later events are not even queued for it.
      const later = await trigger(integrator);
      assert.deepEqual((await integrator.client.get(`/v1/events/${later.id}/deliveries`)).body, { data: [], hasMore: false });
      assert.equal(await deliveryOf(integrator, path, later.id), undefined);

      // While disabled, retry and recover are refused.
      const retry = await integrator.client.post(`${path}/deliveries/${failed.id}/retry`);
      assert.equal(retry.status, 409);
      assert.equal(retry.body.code, 'webhook_subscription_disabled');
      const refused = await integrator.client.post(`${path}/recover`, { since: gone.createdAt });
      assert.equal(refused.status, 409);
      assert.equal(refused.body.code, 'webhook_subscription_disabled');

      const enabled = await integrator.client.patch(path, { enabled: true });
      assert.equal(enabled.status, 200, enabled.text);
      assert.equal(enabled.body.subscription.enabled, true);
      const updated = await integrator.client.get(`/v1/events?type=webhook_subscription.updated&objectId=${sub.id}`);
      assert.equal(updated.body.data[0].data.previousAttributes.enabled, false);

      // recover takes failed deliveries of events since `since` only.
      const none = await integrator.client.post(`${path}/recover`, { since: new Date(Date.parse(gone.createdAt) + 1).toISOString() });
      assert.equal(none.status, 202, none.text);
      assert.deepEqual(none.body, { requeued: 0 });
      server.clock.advance(1000); // the same signed request within a second would be refused as a replay
      const recovered = await integrator.client.post(`${path}/recover`, { since: gone.createdAt });
      assert.equal(recovered.status, 202, recovered.text);
      assert.deepEqual(recovered.body, { requeued: 1 });
      assert.equal((await r.next()).header('webhook-id'), gone.id);
      const resent = await settled(integrator, path, gone.id, 'succeeded', 2);
      assert.deepEqual(
        resent.attempts.map((a: AttemptView) => a.responseStatus),
        [410, 200],
      );
      assert.deepEqual(
        r.requests.map((q) => q.header('webhook-id')),
        [gone.id, gone.id],
        'the event recorded while disabled was never sent',
      );
    });

    it('honours Retry-After on 503 and 429 over the (much shorter) retry schedule', async () => {
      const { integrator, receiver: r, path } = await subscribed();
      r.respond({ status: 503, headers: { 'retry-after': '1' }, body: 'busy' }, { status: 429, headers: { 'retry-after': '1' }, body: 'slow down' });
      const event = await trigger(integrator);
      const arrivals = await r.waitFor(3);
      for (const i of [1, 2]) {
        const gap = arrivals[i]!.receivedAt - arrivals[i - 1]!.receivedAt;
        assert.ok(gap >= 900, `attempt ${i + 1} came ${gap.toFixed(0)} ms after a ${i === 1 ? 503 : 429}: the schedule says 50 ms but Retry-After 1 s`);
        assert.equal(arrivals[i]!.header('webhook-id'), event.id);
      }
      const delivery = await settled(integrator, path, event.id, 'succeeded', 3);
      assert.deepEqual(
        delivery.attempts.map((a: AttemptView) => a.responseStatus),
        [503, 429, 200],
      );
    });

    it('sends custom httpHeaders with every attempt and refuses reserved names and CR/LF values', async () => {
      const httpHeaders = { 'X-Receiver-Token': 'tok-123', 'X-Second': 'two words\tand a tab' };
      const { integrator, receiver: r, sub, path } = await subscribed({ httpHeaders });
      assert.deepEqual(sub.httpHeaders, { 'X-Receiver-Token': '[redacted]', 'X-Second': '[redacted]' }, 'values are shown masked');
      r.respond({ status: 500 });
      const event = await trigger(integrator);
      const arrivals = await r.waitFor(2);
      for (const a of arrivals) {
        assert.equal(a.header('x-receiver-token'), 'tok-123');
        assert.equal(a.header('x-second'), 'two words\tand a tab');
        assert.equal(a.header('content-type'), 'application/json');
        assert.equal(a.header('webhook-id'), event.id);
      }
      await settled(integrator, path, event.id, 'succeeded', 2);

      for (const name of ['webhook-id', 'Webhook-Signature', 'Content-Type', 'Host', 'Transfer-Encoding', 'Connection', 'content-length', 'Upgrade']) {
        for (const [method, url] of [
          ['POST', BASE],
          ['PATCH', path],
        ] as const) {
          const body = method === 'POST' ? { name: 'bad', url: `${r.url}/hook`, eventTypes: ['credential.*'], httpHeaders: { [name]: 'x' } } : { httpHeaders: { [name]: 'x' } };
          const res = await integrator.client.request(method, url, { body });
          assert.equal(res.status, 400, `${method} ${name}: ${res.text}`);
          assert.equal(res.body.code, 'validation_failed');
          assert.deepEqual(
            res.body.errors.map((e: FieldError) => [e.pointer, e.code]),
            [[`/httpHeaders/${name}`, 'reserved_header']],
          );
        }
      }
      for (const value of ['a\r\nX-Injected: 1', 'line\nbreak', 'carriage\rreturn']) {
        const res = await integrator.client.post(BASE, { name: 'bad', url: `${r.url}/hook`, eventTypes: ['credential.*'], httpHeaders: { 'X-Evil': value } });
        assert.equal(res.status, 400, res.text);
        assert.deepEqual(
          res.body.errors.map((e: FieldError) => [e.pointer, e.code]),
          [['/httpHeaders/X-Evil', 'invalid_header_value']],
        );
      }
      const list = await integrator.client.get(BASE);
      assert.equal(list.body.subscriptions.length, 1, 'no refused subscription was created');
      assert.deepEqual(list.body.subscriptions[0].subscription.httpHeaders, sub.httpHeaders, 'no refused patch was applied');
      const again = await trigger(integrator);
      const last = await r.waitFor(3);
      assert.equal(last[2]!.header('webhook-id'), again.id);
      assert.equal(last[2]!.header('x-receiver-token'), 'tok-123', 'no refused patch changed a value either');
    });

    const rowsContaining = (needle: string) => rowsContainingIn(server.database, needle);

    it('seals custom header values at rest: no row of any table holds them, views and events mask them, deliveries carry them', async () => {
      const secret = `s3cr3t-value-${randomUUID()}`;
      const integrator = await server.seedIntegrator(`Hooks ${++integrators}`);
      const r = await receiver();
      const created = await integrator.client.post(
        BASE,
        { name: 'sealed', url: `${r.url}/hook`, eventTypes: ['credential.*'], httpHeaders: { Authorization: `Bearer ${secret}` } },
        // Stored responses are checked too (the key itself is no secret).
        { headers: { 'Idempotency-Key': `sealed-${randomUUID()}` } },
      );
      assert.equal(created.status, 201, created.text);
      const sub = created.body.subscription;
      const path = `${BASE}/${sub.id}`;
      assert.deepEqual(sub.httpHeaders, { Authorization: '[redacted]' });
      const [row] = await server.database.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, sub.id));
      assert.deepEqual(row!.httpHeaders, { Authorization: '[redacted]' }, 'the clear column keeps names and masks');
      assert.deepEqual(JSON.parse(server.secrets.open(row!.httpHeadersSealed!, `webhook-headers:${sub.id}`).toString('utf8')), { Authorization: `Bearer ${secret}` });
      assert.deepEqual(await rowsContaining(secret), []);

      const first = await trigger(integrator);
      const got = await r.next();
      assert.equal(got.header('webhook-id'), first.id);
      assert.equal(got.header('authorization'), `Bearer ${secret}`);

      // An update that changes the value: detected on the real values, sealed again, still nowhere in clear.
      const rotated = `${secret}-2`;
      const updated = await integrator.client.patch(path, { httpHeaders: { Authorization: `Bearer ${rotated}`, 'X-Extra': 'x' } });
      assert.equal(updated.status, 200, updated.text);
      assert.deepEqual(updated.body.subscription.httpHeaders, { Authorization: '[redacted]', 'X-Extra': '[redacted]' });
      const events = await eventsOfType(server.database, integrator.integratorId, 'webhook_subscription.updated');
      assert.equal(events.length, 1, 'a changed value is a change');
      // A value-only change: previousAttributes names the headers, masked.
      const sameNames = await integrator.client.patch(path, { httpHeaders: { Authorization: `Bearer ${secret}`, 'X-Extra': 'y' } });
      assert.equal(sameNames.status, 200, sameNames.text);
      const [, valueOnly] = await eventsOfType(server.database, integrator.integratorId, 'webhook_subscription.updated');
      assert.deepEqual((valueOnly!.data as ChangeData<WebhookSubscription, 'httpHeaders'>).previousAttributes.httpHeaders, { Authorization: '[redacted]', 'X-Extra': '[redacted]' });
      // The same values again are no change (no event); sending back the masks as read keeps the values.
      server.clock.advance(1000); // the same body as before: a new second, or it is a replay
      assert.equal((await integrator.client.patch(path, { httpHeaders: { Authorization: `Bearer ${secret}`, 'X-Extra': 'y' } })).status, 200);
      assert.equal((await integrator.client.patch(path, { httpHeaders: sameNames.body.subscription.httpHeaders })).status, 200);
      assert.equal((await eventsOfType(server.database, integrator.integratorId, 'webhook_subscription.updated')).length, 2, 'neither was a change');
      assert.deepEqual(await rowsContaining(secret), []);
      assert.deepEqual(await rowsContaining(rotated), []);

      const second = await trigger(integrator);
      const next = await r.next();
      assert.equal(next.header('webhook-id'), second.id);
      assert.equal(next.header('authorization'), `Bearer ${secret}`);
      assert.equal(next.header('x-extra'), 'y');
    });

    it('a legacy row with headers in clear is still delivered, then sealed by maintenance (idempotently) and delivered the same', async () => {
      const secret = `s3cr3t-value-${randomUUID()}`;
      const { integrator, receiver: r, sub, path } = await subscribed();
      // As a row written before sealing: clear values, nothing sealed.
      await server.database.db.update(webhookSubscriptions).set({ httpHeaders: { Authorization: `Bearer ${secret}` }, httpHeadersSealed: null }).where(eq(webhookSubscriptions.id, sub.id));
      assert.equal((await rowsContaining(secret)).length, 1);
      const before = await trigger(integrator);
      const legacy = await r.next();
      assert.equal(legacy.header('webhook-id'), before.id);
      assert.equal(legacy.header('authorization'), `Bearer ${secret}`, 'the worker reads a legacy row as it is');
      assert.deepEqual((await integrator.client.get(path)).body.subscription.httpHeaders, { Authorization: '[redacted]' }, 'masked even before sealing');
      await settled(integrator, path, before.id, 'succeeded');

      assert.ok((await sealLegacyWebhookHeaders(server.database.db, server.secrets)) >= 1);
      assert.deepEqual(await rowsContaining(secret), []);
      const [row] = await server.database.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, sub.id));
      assert.deepEqual(row!.httpHeaders, { Authorization: '[redacted]' });
      const sealedOnce = row!.httpHeadersSealed;
      assert.equal(await sealLegacyWebhookHeaders(server.database.db, server.secrets), 0, 'nothing left to seal');
      const [again] = await server.database.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, sub.id));
      assert.equal(again!.httpHeadersSealed, sealedOnce, 'a sealed row is not touched again');

      const after = await trigger(integrator);
      const converted = await r.next();
      assert.equal(converted.header('webhook-id'), after.id);
      assert.equal(converted.header('authorization'), `Bearer ${secret}`);

      // The maintenance loop given the secrets does it by itself, at start-up (not a minute later).
      await server.database.db.update(webhookSubscriptions).set({ httpHeaders: { Authorization: `Bearer ${secret}` }, httpHeadersSealed: null }).where(eq(webhookSubscriptions.id, sub.id));
      const warnings: unknown[] = [];
      const stop = startMaintenance({ db: server.database.db, clock: server.clock.now, log: { warn: (obj) => warnings.push(obj) }, secrets: server.secrets, intervalMs: 3_600_000, eventRetentionDays: 30, vacuum: false });
      try {
        await eventually(() => rowsContaining(secret), (rows) => rows.length === 0, 'maintenance sealing the legacy row at start-up');
      } finally {
        stop();
      }
      assert.deepEqual(warnings, []);
    });

    it('subscription CRUD: shapes, read_only access, URL re-check, events for every change, 404 after delete', async () => {
      const integrator = await server.seedIntegrator(`Hooks ${++integrators}`);
      const r = await receiver();
      const created = await integrator.client.post(BASE, { name: 'Primary', url: `${r.url}/hook`, eventTypes: ['entity.*', 'user.verification_status.changed'] });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(Object.keys(created.body).sort(), ['algorithm', 'publicKey', 'subscription']);
      assert.equal(created.body.algorithm, 'ed25519');
      independentKey(created.body.publicKey);
      const sub = created.body.subscription;
      assert.deepEqual(Object.keys(sub).sort(), [
        'activeSigningKeyId',
        'createdAt',
        'enabled',
        'endpointSafetyMetadata',
        'eventTypes',
        'httpHeaders',
        'id',
        'integratorId',
        'name',
        'updatedAt',
        'url',
      ]);
      assert.equal(sub.integratorId, integrator.integratorId);
      assert.equal(sub.name, 'Primary');
      assert.equal(sub.url, `${r.url}/hook`);
      assert.equal(sub.enabled, true);
      assert.deepEqual(sub.eventTypes, ['entity.*', 'user.verification_status.changed']);
      assert.deepEqual(sub.httpHeaders, {});
      const { checkedAt, ...safety } = sub.endpointSafetyMetadata;
      assert.ok(!Number.isNaN(Date.parse(checkedAt)));
      assert.deepEqual(safety, { scheme: 'http', host: '127.0.0.1', port: r.port, resolvedAddresses: [{ address: '127.0.0.1', range: 'loopback' }], allowed: true });

      const path = `${BASE}/${sub.id}`;
      const one = await integrator.client.get(path);
      assert.equal(one.status, 200);
      assert.deepEqual(one.body, created.body);
      const list = await integrator.client.get(BASE);
      assert.equal(list.status, 200);
      assert.deepEqual(list.body, { subscriptions: [created.body] });
      for (const item of list.body.subscriptions) assert.deepEqual(Object.keys(item).sort(), ['algorithm', 'publicKey', 'subscription']);

      // A read_only credential of the same integrator can read but change nothing.
      const ro = await integrator.client.post('/v1/integrator/credentials', { label: 'reader', scope: 'read_only' });
      assert.equal(ro.status, 201, ro.text);
      const reader = server.clientFor(ro.body.privateKey);
      assert.deepEqual((await reader.get(BASE)).body, list.body);
      assert.equal((await reader.get(path)).status, 200);
      assert.equal((await reader.get(`${path}/deliveries`)).status, 200);
      for (const res of [
        await reader.post(BASE, { name: 'nope', url: `${r.url}/hook`, eventTypes: '*' }),
        await reader.patch(path, { name: 'nope' }),
        await reader.post(`${path}/rotate-key`),
        await reader.post(`${path}/recover`, { since: sub.createdAt }),
        await reader.delete(path),
      ]) {
        assert.equal(res.status, 403, res.text);
        assert.equal(res.body.code, 'insufficient_scope');
      }
      assert.equal((await integrator.client.get(BASE)).body.subscriptions.length, 1);

      server.clock.advance(1000);
      const renamed = await integrator.client.patch(path, { name: 'Renamed' });
      assert.equal(renamed.status, 200, renamed.text);
      assert.equal(renamed.body.subscription.name, 'Renamed');
      assert.ok(renamed.body.subscription.updatedAt > sub.updatedAt);
      assert.equal(renamed.body.publicKey, created.body.publicKey);

      const retyped = await integrator.client.patch(path, { eventTypes: ['user.*', 'entity.created', 'user.*'] });
      assert.equal(retyped.status, 200, retyped.text);
      assert.deepEqual(retyped.body.subscription.eventTypes, ['user.*', 'entity.created']);
      const unknown = await integrator.client.patch(path, { eventTypes: ['user.created', 'user.nope', 'nope.*'] });
      assert.equal(unknown.status, 400);
      assert.deepEqual(
        unknown.body.errors.map((e: FieldError) => [e.pointer, e.code]),
        [
          ['/eventTypes/1', 'unknown_event_type'],
          ['/eventTypes/2', 'unknown_event_type'],
        ],
      );
      const unknownOnCreate = await integrator.client.post(BASE, { name: 'x', url: `${r.url}/hook`, eventTypes: ['credential.created', 'credential.exploded'] });
      assert.equal(unknownOnCreate.status, 400);
      assert.equal(unknownOnCreate.body.errors[0].pointer, '/eventTypes/1');

      const r2 = await receiver();
      const moved = await integrator.client.patch(path, { url: `${r2.url}/elsewhere` });
      assert.equal(moved.status, 200, moved.text);
      assert.equal(moved.body.subscription.url, `${r2.url}/elsewhere`);
      assert.equal(moved.body.subscription.endpointSafetyMetadata.port, r2.port);
      const refused = await integrator.client.patch(path, { url: `ftp://127.0.0.1:${r2.port}/x` });
      assert.equal(refused.status, 422, refused.text);
      assert.equal(refused.body.code, 'webhook_url_not_allowed');
      assert.deepEqual(
        refused.body.errors.map((e: FieldError) => e.pointer),
        ['/url'],
      );
      assert.equal((await integrator.client.get(path)).body.subscription.url, `${r2.url}/elsewhere`);
      assert.equal((await integrator.client.patch(path, {})).status, 400);

      // Another integrator sees none of it.
      const other = await server.seedIntegrator(`Hooks ${++integrators}`);
      assert.deepEqual((await other.client.get(BASE)).body, { subscriptions: [] });
      for (const res of [await other.client.get(path), await other.client.patch(path, { name: 'mine' }), await other.client.delete(path), await other.client.get(`${path}/deliveries`)]) {
        assert.equal(res.status, 404, res.text);
      }

      const rotated = await integrator.client.post(`${path}/rotate-key`);
      assert.equal(rotated.status, 200, rotated.text);
      const deleted = await integrator.client.delete(path);
      assert.equal(deleted.status, 204);
      assert.equal(deleted.text, '');
      server.clock.advance(1000); // DELETE and rotate-key again: not replays of the earlier signed requests
      for (const res of [await integrator.client.get(path), await integrator.client.delete(path), await integrator.client.get(`${path}/deliveries`), await integrator.client.post(`${path}/rotate-key`)]) {
        assert.equal(res.status, 404, res.text);
        assert.equal(res.body.code, 'not_found');
      }
      assert.deepEqual((await integrator.client.get(BASE)).body, { subscriptions: [] });

      const history = await integrator.client.get(`/v1/events?objectId=${sub.id}&order=asc`);
      assert.deepEqual(
        history.body.data.map((e: EventView) => [e.type, e.sequence]),
        [
          ['webhook_subscription.created', 1],
          ['webhook_subscription.updated', 2],
          ['webhook_subscription.updated', 3],
          ['webhook_subscription.updated', 4],
          ['webhook_subscription.key_rotated', 5],
          ['webhook_subscription.deleted', 6],
        ],
      );
      const [, rename, , move, rotation, deletion] = history.body.data;
      assert.deepEqual(rename.data.previousAttributes, { name: 'Primary', updatedAt: sub.updatedAt });
      assert.equal(rename.data.object.name, 'Renamed');
      assert.equal(move.data.previousAttributes.url, `${r.url}/hook`);
      assert.equal(rotation.data.previousAttributes.activeSigningKeyId, sub.activeSigningKeyId);
      assert.equal(rotation.data.object.activeSigningKeyId, rotated.body.subscription.activeSigningKeyId);
      assert.equal(deletion.data.object.id, sub.id);
      assert.equal(r.requests.length + r2.requests.length, 0, 'nothing it subscribed to happened');
    });

    it('filters by eventTypes: entity.* gets no user events, * gets every event', async () => {
      const integrator = await server.seedIntegrator(`Hooks ${++integrators}`);
      const [rEntity, rAll] = [await receiver(), await receiver()];
      const entity = await integrator.client.post(BASE, { name: 'entities', url: `${rEntity.url}/hook`, eventTypes: ['entity.*'] });
      assert.equal(entity.status, 201, entity.text);
      const all = await integrator.client.post(BASE, { name: 'everything', url: `${rAll.url}/hook`, eventTypes: '*' });
      assert.equal(all.status, 201, all.text);
      assert.deepEqual(all.body.subscription.eventTypes, ['*']);
      const user = await integrator.client.post('/v1/submit/create-individual-account', { userInfo: californian(), serviceTermsSignedAt: signedAt() });
      assert.equal(user.status, 201, user.text);

      // Every event since the `*` subscription existed (its own created event included) goes to it, and only to it.
      const events = (await integrator.client.get('/v1/events?order=asc&limit=100')).body.data as EventView[];
      const since = events.findIndex((e) => e.type === 'webhook_subscription.created' && e.objectId === all.body.subscription.id);
      const expected = events.slice(since);
      assert.ok(expected.some((e) => e.type === 'user.created'));
      const arrivals = await rAll.waitFor(expected.length);
      assert.deepEqual(arrivals.map((a) => a.header('webhook-id')).sort(), expected.map((e) => e.id).sort());
      for (const e of expected) {
        const deliveries = await eventually(
          () => integrator.client.get(`/v1/events/${e.id}/deliveries`),
          (res) => res.body.data.every((d: DeliveryView) => d.status === 'succeeded'),
          `deliveries of ${e.type}`,
        );
        assert.deepEqual(
          deliveries.body.data.map((d: DeliveryView) => d.subscriptionId),
          [all.body.subscription.id],
          e.type,
        );
      }
      assert.deepEqual((await integrator.client.get(`${BASE}/${entity.body.subscription.id}/deliveries`)).body, { data: [], hasMore: false });
      assert.equal(rEntity.requests.length, 0);
    });

    it('a manual retry of a failed delivery sends it again with the same webhook-id, attempt numbers continuing', async () => {
      const { integrator, receiver: r, path } = await subscribed();
      r.setDefault({ status: 500, body: 'still down' });
      const event = await trigger(integrator);
      await r.waitFor(4);
      const failed = await settled(integrator, path, event.id, 'failed', 4);
      assert.equal(failed.lastError, 'HTTP 500');
      assert.equal(failed.nextAttemptAt, null);

      r.setDefault({ status: 204 });
      const retried = await integrator.client.post(`${path}/deliveries/${failed.id}/retry`);
      assert.equal(retried.status, 202, retried.text);
      assert.equal(retried.body.id, failed.id);
      assert.equal(retried.body.status, 'pending');
      assert.equal(retried.body.attempts.length, 4);
      const fifth = (await r.waitFor(5))[4]!;
      assert.equal(fifth.header('webhook-id'), event.id);
      const done = await settled(integrator, path, event.id, 'succeeded', 5);
      assert.deepEqual(
        done.attempts.map((a: AttemptView) => [a.attemptNumber, a.responseStatus, a.success]),
        [
          [1, 500, false],
          [2, 500, false],
          [3, 500, false],
          [4, 500, false],
          [5, 204, true],
        ],
      );
      assert.equal(done.attemptCount, 5);
      assert.equal(done.lastError, null);

      const missing = await integrator.client.post(`${path}/deliveries/${randomUUID()}/retry`);
      assert.equal(missing.status, 404);
      const other = await server.seedIntegrator(`Hooks ${++integrators}`);
      assert.equal((await other.client.post(`${path}/deliveries/${failed.id}/retry`)).status, 404);
    });

    it('a request that loses a lock conflict (deadlock) answers 503 resource_busy with Retry-After, and the same Idempotency-Key then succeeds', { skip: backend !== 'postgres' && 'PGlite has one connection: nothing to conflict with' }, async () => {
      const { integrator, receiver: r, sub, path } = await subscribed();
      const waitingOnLocks = () => statementsWaitingOnLocks(server.database, '%update%webhook_deliveries%');
      // A transaction taking the delivery's row and then the subscription's (the order every path of ours avoids,
      // see the next test). The retry locks the subscription and then waits for the delivery: a cycle. PostgreSQL
      // breaks it against whichever transaction checks first, deadlock_timeout after it began waiting: normally
      // the retry, which began waiting first; on a loaded machine the test's own transaction can be the one. Then
      // the retry went through, and the scenario is played again on a new delivery.
      for (let round = 1, received = 0; ; round++) {
        const event = await trigger(integrator);
        await r.waitFor(++received);
        const delivery = await settled(integrator, path, event.id, 'succeeded', 1);
        const retry = () => integrator.client.post(`${path}/deliveries/${delivery.id}/retry`, undefined, { headers: { 'idempotency-key': `busy-${delivery.id}` } });
        let answer!: ReturnType<typeof retry>;
        let testLost = false;
        try {
          await server.database.db.transaction(async (tx) => {
            await tx.execute(sql`select id from webhook_deliveries where id = ${delivery.id} for update`);
            answer = retry();
            await eventually(waitingOnLocks, (n) => n === 1, 'the retry to wait for the delivery row');
            await tx.execute(sql`update webhook_subscriptions set failing_since = null where id = ${sub.id}`);
          });
        } catch (err) {
          if (!isTransientConflict(err) || round === 3) throw err;
          testLost = true;
        }
        const lost = await answer;
        if (testLost) {
          assert.equal(lost.status, 202, lost.text);
          await settled(integrator, path, event.id, 'succeeded', 2);
          await r.waitFor(++received);
          continue;
        }
        assert.equal(lost.status, 503, lost.text);
        assert.equal(lost.body.code, 'resource_busy');
        assert.equal(lost.headers.get('retry-after'), '1');
        assert.match(lost.headers.get('content-type')!, /^application\/problem\+json/);
        assert.equal((await deliveryOf(integrator, path, event.id))?.status, 'succeeded', 'nothing was changed');

        const again = await retry();
        assert.equal(again.status, 202, again.text);
        assert.equal(again.body.status, 'pending');
        await settled(integrator, path, event.id, 'succeeded', 2);
        return;
      }
    });

    it('the worker takes a subscription before its deliveries, the API\'s lock order: a request holding the subscription changes the delivery without waiting', { skip: backend !== 'postgres' && 'PGlite has one connection: nothing to conflict with' }, async () => {
      const { integrator, receiver: r, sub, path } = await subscribed();
      // In a failing streak, so that recording a success also has the subscription row to update.
      await server.database.db.update(webhookSubscriptions).set({ failingSince: new Date(server.clock.now().getTime() - 60_000) }).where(eq(webhookSubscriptions.id, sub.id));
      // The delivery is in flight (its answer held) when a request locks the subscription.
      let answer!: () => void;
      r.respond({ status: 200, until: new Promise<void>((resolve) => (answer = resolve)) });
      const event = await trigger(integrator);
      await r.waitFor(1);
      const outcome = await server.database.db.transaction(async (tx) => {
        // As PATCH enabled:false does: the subscription first (FOR UPDATE) ...
        await tx.execute(sql`select id from webhook_subscriptions where id = ${sub.id} for update`);
        answer();
        await eventually(() => statementsWaitingOnLocks(server.database, '%from "webhook_subscriptions"%for key share%'), (n) => n === 1, 'the worker to wait for the subscription before recording');
        // ... then its deliveries: the worker holds none of them, so this does not wait (no deadlock to break).
        const given = (await tx.execute(
          sql`update webhook_deliveries set status = 'failed', claim_token = null, last_error = 'subscription_disabled' where event_id = ${event.id} returning id`,
        )) as unknown as { rows: unknown[] };
        return { given: given.rows.length };
      });
      assert.equal(outcome.given, 1);
      // The worker's claim was taken from it: its success is not recorded over the API's change.
      await eventually(() => statementsWaitingOnLocks(server.database, '%webhook_%'), (n) => n === 0, 'the worker to go on');
      const delivery = (await deliveryOf(integrator, path, event.id))!;
      assert.deepEqual([delivery.status, delivery.attempts.length, delivery.lastError], ['failed', 0, 'subscription_disabled']);
    });

    // The two tests below move the server clock forward (24 h, then 5 days); they come last so that no other
    // test's deliveries or failure streaks are caught by the jump.

    it('after rotate-key both keys sign for 24 h (two v1a entries), then only the new one', async () => {
      const { integrator, receiver: r, sub, publicKey: oldKey, path } = await subscribed();
      const rotated = await integrator.client.post(`${path}/rotate-key`);
      assert.equal(rotated.status, 200, rotated.text);
      const newKey = rotated.body.publicKey as string;
      assert.notEqual(newKey, oldKey);
      assert.notEqual(rotated.body.subscription.activeSigningKeyId, sub.activeSigningKeyId);
      assert.equal((await integrator.client.get(path)).body.publicKey, newKey);
      assert.equal((await integrator.client.get(BASE)).body.subscriptions[0].publicKey, newKey);
      const rotation = (await integrator.client.get(`/v1/events?type=webhook_subscription.key_rotated&objectId=${sub.id}`)).body.data;
      assert.equal(rotation.length, 1);
      assert.equal(rotation[0].data.previousAttributes.activeSigningKeyId, sub.activeSigningKeyId);

      const during = await trigger(integrator);
      const both = await r.next();
      assert.equal(both.header('webhook-id'), during.id);
      assert.equal(signatureEntries(both).length, 2);
      const byOld = entriesValidFor(oldKey, both);
      const byNew = entriesValidFor(newKey, both);
      assert.equal(byOld.filter(Boolean).length, 1, 'exactly one entry is the old key’s');
      assert.equal(byNew.filter(Boolean).length, 1, 'exactly one entry is the new key’s');
      assert.notEqual(byOld.indexOf(true), byNew.indexOf(true));
      for (const key of [oldKey, newKey]) assert.equal(verifyWebhook<{ id: string }>(both.rawBody, both.headers, key, now()).id, during.id);
      // Recorded before the clock jumps a day: otherwise the jump would also outlast the delivery's claim lease.
      await settled(integrator, path, during.id, 'succeeded', 1);

      server.clock.advance(DAY_MS + 1000);
      const afterGrace = await trigger(integrator);
      const single = await r.next();
      assert.equal(single.header('webhook-id'), afterGrace.id);
      assert.equal(signatureEntries(single).length, 1);
      assert.deepEqual(entriesValidFor(newKey, single), [true]);
      assert.deepEqual(entriesValidFor(oldKey, single), [false]);
      assert.equal(verifyWebhook<{ id: string }>(single.rawBody, single.headers, newKey, now()).id, afterGrace.id);
      assert.throws(() => verifyWebhook(single.rawBody, single.headers, oldKey, now()), /no signature verifies/);
      await settled(integrator, path, afterGrace.id, 'succeeded', 1);
    });

    it('a success ends the failing streak: a failure five days after the first one, with a success between, does not disable', async () => {
      const { integrator, receiver: r, sub, path } = await subscribed();
      await failedEvent(integrator, r, path, 'down', 0);

      r.setDefault({ status: 200, body: 'ok' });
      const success = await trigger(integrator);
      assert.equal((await r.waitFor(5))[4]!.header('webhook-id'), success.id);
      await settled(integrator, path, success.id, 'succeeded', 1);

      server.clock.advance(server.config.webhooks.disableAfterMs + 1000);
      await failedEvent(integrator, r, path, 'down again', 5);
      assert.equal((await integrator.client.get(path)).body.subscription.enabled, true, 'the streak began again after the success');
      const disabled = (await integrator.client.get(`/v1/events?type=webhook_subscription.disabled&objectId=${sub.id}`)).body.data;
      assert.equal(disabled.length, 0);
    });

    it('disables a subscription whose deliveries have failed for WEBHOOK_DISABLE_AFTER_SECONDS (reason failing)', async () => {
      const { integrator, receiver: r, sub, path } = await subscribed();
      await failedEvent(integrator, r, path, 'down', 0);
      assert.equal((await integrator.client.get(path)).body.subscription.enabled, true, 'a few failures in a row are not enough');

      // The streak began at the first failure; five days (the default) later, the next failure disables it.
      server.clock.advance(server.config.webhooks.disableAfterMs + 1000);
      const later = await trigger(integrator);
      assert.equal((await r.waitFor(5))[4]!.header('webhook-id'), later.id);
      const disabled = await eventually(
        () => integrator.client.get(path),
        (res) => res.body.subscription.enabled === false,
        'the subscription to be disabled',
      );
      assert.equal(disabled.body.subscription.id, sub.id);
      const events = (await integrator.client.get('/v1/events?type=webhook_subscription.disabled')).body.data;
      assert.equal(events.length, 1);
      assert.equal(events[0].objectId, sub.id);
      assert.equal(events[0].data.reason, 'failing');
      assert.match(events[0].data.detail, /no successful delivery since .*HTTP 500/);
      // Its pending delivery was given up with it (recover can resend it once re-enabled).
      const givenUp = await settled(integrator, path, later.id, 'failed', 1);
      assert.match(givenUp.lastError!, /^subscription_disabled/);
    });
  });

  describe(`webhook URL safety in production [${backend}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(backend, { APP_ENV: 'production', ENCRYPTION_KEY: 'ab'.repeat(32) });
    });
    after(() => server.close());

    it('refuses http, private, loopback, link-local, localhost and credentialed URLs at creation, writing nothing', async () => {
      const acme = await server.seedIntegrator('Prod');
      const refused: [string, number, RegExp][] = [
        ['http://93.184.216.34/hook', 422, /scheme must be https/],
        ['https://127.0.0.1/hook', 422, /127\.0\.0\.1 is a loopback address/],
        ['https://127.0.0.1:8443/hook', 422, /loopback/],
        ['https://10.0.0.1/hook', 422, /10\.0\.0\.1 is a private address/],
        ['https://192.168.1.10/hook', 422, /private/],
        ['https://169.254.169.254/latest/meta-data', 422, /169\.254\.169\.254 is a linkLocal address/],
        ['https://[::1]/hook', 422, /::1 is a loopback address/],
        ['https://[::ffff:127.0.0.1]/hook', 422, /::ffff:7f00:1 is a ipv4Mapped address/],
        // IPv6 forms carrying an IPv4 address are refused whatever the address inside.
        ['https://[::127.0.0.1]/hook', 422, /::7f00:1 is a ipv4Compatible address/],
        ['https://[::7f00:1]/hook', 422, /ipv4Compatible/],
        ['https://[64:ff9b::169.254.169.254]/hook', 422, /64:ff9b::a9fe:a9fe is a nat64 address/],
        ['https://[64:ff9b:1::a00:1]/hook', 422, /nat64/],
        ['https://[2002:7f00:1::]/hook', 422, /6to4/],
        ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook', 422, /teredo/],
        ['https://0x7f.1/hook', 422, /127\.0\.0\.1 is a loopback/],
        ['https://192.0.0.9/hook', 422, /192\.0\.0\.9 is a anycast address/],
        ['https://2130706433/hook', 422, /127\.0\.0\.1 is a loopback/],
        ['https://localhost/hook', 422, /loopback/],
        ['https://user:pass@example.com/hook', 422, /credentials in the URL/],
        ['https://example.com/hook#frag', 422, /fragment/],
        ['not a url', 400, /absolute/],
        ['https://', 400, /absolute/],
      ];
      for (const [url, status, detail] of refused) {
        const res = await acme.client.post(BASE, { name: 'x', url, eventTypes: ['entity.*'] });
        assert.equal(res.status, status, `${url}: ${res.text}`);
        assert.equal(res.body.code, status === 422 ? 'webhook_url_not_allowed' : 'validation_failed', url);
        assert.deepEqual(
          res.body.errors.map((e: FieldError) => e.pointer),
          ['/url'],
          url,
        );
        assert.match(res.body.errors[0].detail, detail, url);
        if (status === 422) assert.doesNotMatch(res.body.detail, /WEBHOOK_ALLOW_PRIVATE/, 'production has no such switch');
      }
      assert.deepEqual(await server.database.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.integratorId, acme.integratorId)), []);
      assert.deepEqual(await eventsOfType(server.database, acme.integratorId, 'webhook_subscription.created'), []);
      assert.deepEqual((await acme.client.get(BASE)).body, { subscriptions: [] });

      // A public https address is accepted (nothing is sent: nothing it subscribes to happens here) …
      const ok = await acme.client.post(BASE, { name: 'public', url: 'https://93.184.216.34/hook', eventTypes: ['entity.*'] });
      assert.equal(ok.status, 201, ok.text);
      assert.deepEqual(ok.body.subscription.endpointSafetyMetadata.resolvedAddresses, [{ address: '93.184.216.34', range: 'unicast' }]);
      assert.equal(ok.body.subscription.endpointSafetyMetadata.scheme, 'https');
      // … and a URL change is checked the same way, leaving the subscription as it was.
      const path = `${BASE}/${ok.body.subscription.id}`;
      for (const url of ['https://10.0.0.1/hook', 'http://93.184.216.34/hook', 'https://localhost/hook']) {
        const res = await acme.client.patch(path, { url });
        assert.equal(res.status, 422, `${url}: ${res.text}`);
        assert.equal(res.body.errors[0].pointer, '/url');
      }
      assert.equal((await acme.client.get(path)).body.subscription.url, 'https://93.184.216.34/hook');
      assert.deepEqual(await eventsOfType(server.database, acme.integratorId, 'webhook_subscription.updated'), []);
    });
  });
}
