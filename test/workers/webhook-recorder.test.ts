import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { asc, eq } from 'drizzle-orm';
import { claimDueDeliveries, type Claimed } from '../../src/db/repositories/webhook-deliveries.js';
import { webhookAttempts, webhookDeliveries, webhookSubscriptions } from '../../src/db/schema/index.js';
import { recordEvent } from '../../src/domain/events/record-event.js';
import { newId } from '../../src/domain/ids.js';
import { SUBSCRIPTION_DISABLED, type AttemptOutcome } from '../../src/domain/webhooks/attempt-outcome.js';
import { createSubscription } from '../../src/domain/webhooks/subscriptions.js';
import type { Log } from '../../src/log.js';
import { AttemptRecorder } from '../../src/workers/webhook-recorder.js';
import { backends } from '../harness/backends.js';
import { eventsOfType } from '../harness/db.js';
import { startServer, type TestServer } from '../harness/server.js';

const SCHEDULE_MS = [1000, 2000];
const DISABLE_AFTER_MS = 60_000;

for (const backend of backends()) {
  describe(`webhook attempt recorder [${backend}]`, () => {
    let server: TestServer;
    let recorder: AttemptRecorder;
    const warnings: string[] = [];
    const errors: string[] = [];
    const log: Log = { warn: (_obj, msg) => warnings.push(msg), error: (_obj, msg) => errors.push(msg) };

    before(async () => {
      // No worker of the server's own: these tests claim and record by hand.
      server = await startServer(backend, { WEBHOOK_WORKER: '0' });
      server.clock.freeze(Date.UTC(2026, 5, 1, 12));
      // random 0.5: no jitter, so retry times are exact.
      recorder = new AttemptRecorder({ database: server.database, clock: server.clock.now, log, retryScheduleMs: SCHEDULE_MS, disableAfterMs: DISABLE_AFTER_MS, limit: 4, onRoom: () => {}, random: () => 0.5 });
    });
    after(() => server.close());

    /** A fresh integrator subscribed to user.updated, with `n` events queued (one delivery each), all claimed. */
    async function claimedDeliveries(n: number): Promise<{ integratorId: string; subscriptionId: string; claims: Claimed[] }> {
      const { integratorId } = await server.seedIntegrator();
      const ctx = { db: server.database, actor: { kind: 'integrator' as const, integratorId }, now: server.clock.now(), secrets: server.secrets, policy: { highRiskCountries: new Set<string>() } };
      const { subscription } = await createSubscription(ctx, { name: 'r', url: 'https://receiver.test/hook', eventTypes: ['user.updated'] }, { rules: { allowPrivate: false }, resolve: async () => ['93.184.216.34'] });
      await server.database.db.transaction(async (tx) => {
        for (let i = 0; i < n; i++) {
          await recordEvent(tx, { integratorId, type: 'user.updated', objectType: 'user', objectId: newId(), object: { i }, at: server.clock.now() });
        }
      });
      const now = server.clock.now();
      const claimed = await claimDueDeliveries(server.database.db, now, new Date(now.getTime() + 60_000), randomUUID(), 100);
      const claims = claimed.filter((c) => c.subscriptionId === subscription.id).sort((a, b) => a.id.localeCompare(b.id));
      assert.equal(claims.length, n);
      return { integratorId, subscriptionId: subscription.id, claims };
    }

    const delivery = async (id: string) => (await server.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0]!;
    const attempts = (id: string) => server.database.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id)).orderBy(asc(webhookAttempts.attemptNumber));
    const subscription = async (id: string) => (await server.database.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, id)))[0]!;
    const record = (claim: Claimed, outcome: AttemptOutcome) => recorder.record({ claim, outcome, attemptedAt: new Date(server.clock.now().getTime() - outcome.durationMs) });

    it('a failure is recorded with its retry and starts the failing streak; a later success ends it', async () => {
      const { subscriptionId, claims } = await claimedDeliveries(2);
      const [first, second] = claims as [Claimed, Claimed];
      const t0 = server.clock.now();
      await record(first, { kind: 'http_error', status: 500, body: 'down', retryAfter: undefined, durationMs: 12 });
      const failed = await delivery(first.id);
      assert.deepEqual(
        { status: failed.status, attempts: failed.attempts, scheduleStep: failed.scheduleStep, nextAttemptAt: failed.nextAttemptAt, claimToken: failed.claimToken, lastError: failed.lastError },
        { status: 'pending', attempts: 1, scheduleStep: 1, nextAttemptAt: new Date(t0.getTime() + 1000), claimToken: null, lastError: 'HTTP 500' },
      );
      const [attempt] = await attempts(first.id);
      assert.deepEqual(
        { n: attempt!.attemptNumber, at: attempt!.attemptedAt, ms: attempt!.durationMs, status: attempt!.responseStatus, body: attempt!.responseBody, error: attempt!.error, success: attempt!.success },
        { n: 1, at: new Date(t0.getTime() - 12), ms: 12, status: 500, body: 'down', error: null, success: false },
      );
      assert.deepEqual((await subscription(subscriptionId)).failingSince, t0);

      server.clock.advance(1000);
      const recorded = record(second, { kind: 'delivered', status: 200, body: 'ok', durationMs: 5 });
      await recorded; // resolves before the success is written: the slot is free once the receiver answered
      recorder.flush();
      await recorder.drain();
      const done = await delivery(second.id);
      assert.deepEqual([done.status, done.attempts, done.lastError, done.claimToken], ['succeeded', 1, null, null]);
      const [success] = await attempts(second.id);
      assert.deepEqual([success!.responseStatus, success!.responseBody, success!.error, success!.success, success!.durationMs], [200, 'ok', null, true, 5]);
      assert.equal((await subscription(subscriptionId)).failingSince, null, 'the success ended the streak');
    });

    it('a failure past the last step of the schedule fails the delivery; a lost claim records nothing', async () => {
      const { claims } = await claimedDeliveries(2);
      const [last, lost] = claims as [Claimed, Claimed];
      await record({ ...last, scheduleStep: SCHEDULE_MS.length }, { kind: 'network_error', reason: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9', durationMs: 1 });
      const failed = await delivery(last.id);
      assert.deepEqual([failed.status, failed.lastError], ['failed', 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9']);
      assert.deepEqual((await attempts(last.id)).map((a) => [a.responseStatus, a.error]), [[null, 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9']]);

      const warned = warnings.length;
      await record({ ...lost, token: randomUUID() }, { kind: 'http_error', status: 500, body: '', retryAfter: undefined, durationMs: 1 });
      const untouched = await delivery(lost.id);
      assert.deepEqual([untouched.status, untouched.attempts, untouched.claimToken], ['pending', 0, lost.token], 'still the other claim’s');
      assert.deepEqual(await attempts(lost.id), []);
      assert.match(warnings.slice(warned).join('\n'), /claim lost/);
    });

    it('an attempt skipped because the subscription was disabled after the claim fails the delivery, streak untouched', async () => {
      const { subscriptionId, claims } = await claimedDeliveries(1);
      await record(claims[0]!, SUBSCRIPTION_DISABLED);
      const failed = await delivery(claims[0]!.id);
      assert.deepEqual([failed.status, failed.attempts, failed.lastError], ['failed', 1, 'subscription_disabled']);
      assert.deepEqual((await attempts(claims[0]!.id)).map((a) => [a.error, a.durationMs, a.success]), [['subscription_disabled', 0, false]]);
      assert.equal((await subscription(subscriptionId)).failingSince, null);
    });

    it('410 Gone disables the subscription (reason gone) and fails its other pending deliveries', async () => {
      const { integratorId, subscriptionId, claims } = await claimedDeliveries(2);
      const [gone, other] = claims as [Claimed, Claimed];
      await record(gone, { kind: 'http_error', status: 410, body: 'gone', retryAfter: undefined, durationMs: 2 });
      assert.deepEqual([(await delivery(gone.id)).status, (await delivery(gone.id)).lastError], ['failed', 'HTTP 410']);
      const sub = await subscription(subscriptionId);
      assert.deepEqual([sub.enabled, sub.disabledReason], [false, 'gone']);
      const pending = await delivery(other.id);
      assert.deepEqual([pending.status, pending.lastError], ['failed', 'subscription_disabled: the endpoint answered 410 Gone']);
      const [event] = await eventsOfType(server.database, integratorId, 'webhook_subscription.disabled');
      assert.deepEqual([event!.objectId, (event!.data as { reason: string }).reason], [subscriptionId, 'gone']);
    });

    it('a failing streak as long as disableAfterMs disables the subscription (reason failing)', async () => {
      const { integratorId, subscriptionId, claims } = await claimedDeliveries(2);
      const [first, second] = claims as [Claimed, Claimed];
      const t0 = server.clock.now();
      await record(first, { kind: 'network_error', reason: 'ECONNRESET: socket hang up', durationMs: 3 });
      assert.equal((await subscription(subscriptionId)).enabled, true);
      server.clock.advance(DISABLE_AFTER_MS);
      await record(second, { kind: 'network_error', reason: 'timeout: no complete response within 100 ms', durationMs: 100 });
      const sub = await subscription(subscriptionId);
      assert.deepEqual([sub.enabled, sub.disabledReason, sub.failingSince], [false, 'failing', t0]);
      const detail = `no successful delivery since ${t0.toISOString()} (last: timeout: no complete response within 100 ms)`;
      for (const c of claims) assert.deepEqual([(await delivery(c.id)).status, (await delivery(c.id)).lastError], ['failed', `subscription_disabled: ${detail}`]);
      const [event] = await eventsOfType(server.database, integratorId, 'webhook_subscription.disabled');
      assert.deepEqual(event!.data, { ...(event!.data as object), reason: 'failing', detail });
    });

    it('logged no errors', () => {
      assert.deepEqual(errors, []);
    });
  });
}
