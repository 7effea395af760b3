import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { events, integrators, webhookDeliveries } from '../../src/db/schema/index.js';
import { recordEvent, recordEvents, type DomainEvent } from '../../src/domain/events/record-event.js';
import { newId } from '../../src/domain/ids.js';
import { exactlyOne, unchecked } from '../../src/domain/checked-writes.js';
import type { PendingWrite, Slot } from '../../src/db/pending-writes.js';
import { createSubscription } from '../../src/domain/webhooks/subscriptions.js';
import { backends } from '../harness/backends.js';
import { startServer, type TestServer } from '../harness/server.js';

/*
 * Several events in one statement (src/db/repositories/events.ts appendEvents): each object's events take
 * consecutive sequence numbers after its earlier ones, in the order given; each event's deliveries are queued by its
 * own type; the writes sent alongside commit, or roll back, with them.
 */
/** A write of the tests' own, its values in placeholders as the repositories' writes have them. */
const write = (shape: string, build: (slot: Slot) => ReturnType<typeof sql>, values: Record<string, unknown>): PendingWrite => ({ shape, sql: (_db, slot) => build(slot), values });

for (const backend of backends()) {
  describe(`events appended together [${backend}]`, () => {
    let server: TestServer;
    let integratorId: string;
    let subscriptionId: string;
    before(async () => {
      server = await startServer(backend, { WEBHOOK_WORKER: '0' });
      ({ integratorId } = await server.seedIntegrator());
      const ctx = { db: server.database, actor: { kind: 'integrator' as const, integratorId }, now: server.clock.now(), secrets: server.secrets, policy: { highRiskCountries: new Set<string>() } };
      ({
        subscription: { id: subscriptionId },
      } = await createSubscription(ctx, { name: 'r', url: 'https://receiver.test/hook', eventTypes: ['transaction.completed'] }, { rules: { allowPrivate: false }, resolve: async () => ['93.184.216.34'] }));
    });
    after(() => server.close());

    const event = (objectId: string, type: DomainEvent['type'], i: number): DomainEvent => ({ integratorId, type, objectType: 'transaction', objectId, object: { i }, at: server.clock.now() });

    it('numbers each object’s events on from its last, in the order given, and queues deliveries per event type', async () => {
      const a = newId();
      const b = newId();
      const db = server.database.db;
      assert.equal((await recordEvent(db, event(a, 'transaction.created', 0))).sequence, 1);
      const list = [event(a, 'transaction.status.changed', 1), event(b, 'transaction.created', 2), event(a, 'transaction.completed', 3), event(b, 'transaction.status.changed', 4), event(b, 'transaction.failed', 5)];
      const recorded = await recordEvents(db, list);
      assert.deepEqual(
        recorded.map((r) => r.sequence),
        [2, 1, 3, 2, 3],
      );
      const stored = await db.select().from(events).where(inArray(events.id, recorded.map((r) => r.id))).orderBy(asc(events.id));
      assert.deepEqual(
        stored.map((e) => [e.objectId, e.type, e.sequence, (e.data as { object: { i: number } }).object.i]),
        recorded.map((r, i) => [list[i]!.objectId, list[i]!.type, r.sequence, i + 1]),
        'each event stored with its own object, type, data and number (ids ascend in the order given)',
      );
      const queued = await db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.eventId, recorded.map((r) => r.id)));
      assert.deepEqual(
        queued.map((d) => [d.eventId, d.subscriptionId, d.eventType]),
        [[recorded[2]!.id, subscriptionId, 'transaction.completed']],
        'only the event whose type the subscription selects is queued',
      );
    });

    it('runs the writes sent alongside in the same statement, and rolls them back with the events', async () => {
      const db = server.database.db;
      const objectId = newId();
      const name = `alongside ${objectId}`;
      const alongside = unchecked(write('rename', (slot) => sql`update ${integrators} set name = ${slot('name')} where id = ${slot('id')} returning 1`, { name, id: integratorId }));
      const rollback = new Error('roll back');
      await assert.rejects(
        db.transaction(async (tx) => {
          await recordEvents(tx, [event(objectId, 'transaction.created', 0)], [alongside]);
          throw rollback;
        }),
        rollback,
      );
      assert.deepEqual(await db.select().from(events).where(eq(events.objectId, objectId)), []);
      assert.notEqual((await db.select().from(integrators).where(eq(integrators.id, integratorId)))[0]!.name, name);

      const [recorded] = await recordEvents(db, [event(objectId, 'transaction.created', 0)], [alongside]);
      assert.equal(recorded!.sequence, 1);
      assert.equal((await db.select().from(integrators).where(eq(integrators.id, integratorId)))[0]!.name, name);
      assert.deepEqual(await recordEvents(db, [], [unchecked(write('rename', (slot) => sql`update ${integrators} set name = ${slot('name')} where id = ${slot('id')} returning 1`, { name: 'none', id: integratorId }))]), []);
      assert.equal((await db.select().from(integrators).where(eq(integrators.id, integratorId)))[0]!.name, 'none', 'without events the writes still run');
    });

    it('a write whose count is not the one required fails the whole statement, outside a transaction too, with its own problem', async () => {
      const db = server.database.db;
      const before = (await db.select().from(integrators).where(eq(integrators.id, integratorId)))[0]!.name;
      const renamed = unchecked(write('rename', (slot) => sql`update ${integrators} set name = ${slot('name')} where id = ${slot('id')} returning 1`, { name: 'renamed', id: integratorId }));
      const lost = new Error('the guarded write lost');
      const missing = exactlyOne(write('rename', (slot) => sql`update ${integrators} set name = ${slot('name')} where id = ${slot('id')} returning 1`, { name: 'nobody', id: newId() }), () => lost);
      const hits = exactlyOne(write('select', (slot) => sql`select 1 from ${integrators} where id = ${slot('id')}`, { id: integratorId }), () => new Error('not this one'));
      for (const count of [1, 2]) {
        const objects = Array.from({ length: count }, () => newId());
        // One event takes the plain statement, two the recordset one; without events the writes run alone.
        await assert.rejects(
          recordEvents(
            db,
            objects.map((o, i) => event(o, 'transaction.completed', i)),
            [renamed, hits, missing],
          ),
          lost,
        );
        assert.deepEqual(await db.select().from(events).where(inArray(events.objectId, objects)), [], 'no event stays');
      }
      await assert.rejects(recordEvents(db, [], [renamed, missing]), lost);
      assert.equal((await db.select().from(integrators).where(eq(integrators.id, integratorId)))[0]!.name, before, 'no write sent alongside stays');
      const objectId = newId();
      await recordEvents(db, [event(objectId, 'transaction.completed', 0)], [renamed, hits]);
      assert.equal((await db.select().from(events).where(eq(events.objectId, objectId))).length, 1, 'counts as required: everything stays');
      assert.equal((await db.select().from(integrators).where(eq(integrators.id, integratorId)))[0]!.name, 'renamed');
    });
  });
}
