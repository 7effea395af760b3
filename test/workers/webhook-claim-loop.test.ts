import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Claimed } from '../../src/db/repositories/webhook-deliveries.js';
import { webhookDeliveries } from '../../src/db/schema/index.js';
import { recordEvent } from '../../src/domain/events/record-event.js';
import { newId } from '../../src/domain/ids.js';
import { createSubscription } from '../../src/domain/webhooks/subscriptions.js';
import { startClaimLoop } from '../../src/workers/webhook-claim-loop.js';
import { backends } from '../harness/backends.js';
import { eventually } from '../harness/eventually.js';
import { startServer, type TestServer } from '../harness/server.js';

for (const backend of backends()) {
  describe(`webhook claim loop [${backend}]`, () => {
    let server: TestServer;

    before(async () => {
      server = await startServer(backend, { WEBHOOK_WORKER: '0' });
    });
    after(() => server.close());

    it('wakes on NOTIFY, runs at most `concurrency` at once with as many claimed ahead, and on stop gives back what it had not started', async () => {
      const { integratorId } = await server.seedIntegrator();
      const ctx = { db: server.database, actor: { kind: 'integrator' as const, integratorId }, now: server.clock.now(), secrets: server.secrets, policy: { highRiskCountries: new Set<string>() } };
      const { subscription } = await createSubscription(ctx, { name: 'r', url: 'https://receiver.test/hook', eventTypes: ['user.updated'] }, { rules: { allowPrivate: false }, resolve: async () => ['93.184.216.34'] });

      // Deliveries are held in flight until the test lets them go.
      const held: { claim: Claimed; batch: number; finish: () => void }[] = [];
      let started: () => void = () => {};
      const twoStarted = new Promise<void>((resolve) => (started = resolve));
      const errors: string[] = [];
      const loop = await startClaimLoop<number>({
        database: server.database,
        clock: server.clock.now,
        log: { warn: (_o, msg) => errors.push(msg), error: (_o, msg) => errors.push(msg) },
        concurrency: 2,
        leaseMs: 60_000,
        // Only NOTIFY can wake it within the test.
        pollIntervalMs: 600_000,
        load: async (claimed) => claimed.length,
        deliver: (claim, batch) =>
          new Promise<void>((finish) => {
            held.push({ claim, batch, finish });
            if (held.length === 2) started();
          }),
        holdBack: () => false,
      });

      await server.database.db.transaction(async (tx) => {
        for (let i = 0; i < 5; i++) await recordEvent(tx, { integratorId, type: 'user.updated', objectType: 'user', objectId: newId(), object: { i }, at: server.clock.now() });
      });
      await twoStarted;
      const claimed = () =>
        server.database.db
          .select()
          .from(webhookDeliveries)
          .where(and(eq(webhookDeliveries.subscriptionId, subscription.id), isNotNull(webhookDeliveries.claimToken)));
      // Two in flight, two more claimed ahead in the same claim (one load for the four), the fifth left due.
      await eventually(claimed, (rows) => rows.length === 4, 'four claims');
      assert.equal(held.length, 2);
      assert.deepEqual(held.map((h) => h.batch), [4, 4]);

      let cutOffs = 0;
      const stopping = loop.stop(60_000, () => cutOffs++);
      const left = await eventually(claimed, (rows) => rows.length === 2, 'the two not started to be given back');
      assert.deepEqual(left.map((r) => r.id).sort(), held.map((h) => h.claim.id).sort(), 'only those in flight are still claimed');
      const all = await server.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, subscription.id));
      const now = server.clock.now().getTime();
      assert.equal(all.filter((d) => d.status === 'pending' && d.nextAttemptAt.getTime() <= now).length, 3, 'the given-back two and the fifth are due again');

      for (const h of held) h.finish();
      await stopping;
      assert.equal(cutOffs, 1);
      assert.equal(held.length, 2, 'nothing started after stop');
      assert.deepEqual(errors, []);
    });
  });
}
