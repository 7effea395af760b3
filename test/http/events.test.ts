import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../harness/eventually.js';
import { backends } from '../harness/backends.js';
import { startReceiver, type Receiver } from '../harness/receiver.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';
import type { CredentialView, EventView, FieldError } from '../harness/types.js';

const DELIVERY_ENV = { WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_SCHEDULE: '0.05,0.05,0.05' };
const EVENT_KEYS = ['apiVersion', 'createdAt', 'data', 'id', 'objectId', 'objectType', 'sequence', 'type'];

/** An event of one credential: its object is the credential. */
type CredentialEvent = EventView & { data: { object: CredentialView; previousAttributes?: Partial<CredentialView> } };


const withoutRequestId = (body: Record<string, unknown>) => {
  const { requestId, ...rest } = body;
  assert.equal(typeof requestId, 'string');
  return rest;
};

for (const backend of backends()) {
  describe(`events API [${backend}]`, () => {
    let server: TestServer;
    let eve: SeededIntegrator;
    let mallory: SeededIntegrator;
    const receivers: Receiver[] = [];
    let labels = 0;
    /** Eve's credentials, created a second apart. */
    const keys: { credentialId: string; publicKey: string }[] = [];

    before(async () => {
      ({ server, tenants: [eve, mallory] } = await startTenants(backend, ['Eve', 'Mallory'], DELIVERY_ENV));
      // Enough events for more than one default page (20).
      for (let i = 0; i < 14; i++) await newCredential(eve);
      for (let i = 0; i < 5; i++) {
        server.clock.advance(1000);
        keys.push(await newCredential(eve));
        await newCredential(mallory);
      }
    });
    after(async () => {
      await server.close();
      await Promise.all(receivers.map((r) => r.close()));
    });

    async function newCredential(integrator: SeededIntegrator) {
      const res = await integrator.client.post('/v1/integrator/credentials', { label: `key ${++labels}`, scope: 'read_only' });
      assert.equal(res.status, 201, res.text);
      return res.body.credential as { credentialId: string; publicKey: string };
    }

    const list = async (integrator: SeededIntegrator, query = '') => {
      const res = await integrator.client.get(`/v1/events${query ? `?${query}` : ''}`);
      assert.equal(res.status, 200, res.text);
      return res.body as { data: EventView[]; hasMore: boolean };
    };

    /** Every page, following startingAfter, asserting no page repeats an id. */
    const everything = async (integrator: SeededIntegrator, query: string, limit: number) => {
      const all: EventView[] = [];
      let after: string | undefined;
      for (let pages = 0; pages < 100; pages++) {
        const page = await list(integrator, `${query}&limit=${limit}${after ? `&startingAfter=${after}` : ''}`);
        assert.ok(page.data.length <= limit);
        for (const e of page.data) assert.ok(!all.some((x) => x.id === e.id), `page repeats ${e.id}`);
        all.push(...page.data);
        if (!page.hasMore) return all;
        assert.equal(page.data.length, limit, 'a page that is not the last is full');
        after = page.data.at(-1)!.id;
      }
      assert.fail('too many pages');
    };

    it('lists newest first by default and oldest first with order=asc, every event in the documented shape', async () => {
      const desc = await list(eve, 'limit=100');
      assert.equal(desc.hasMore, false);
      // integrator.created, the seeded credential's event, and the nineteen credentials made in before().
      assert.ok(desc.data.length >= 21, `${desc.data.length} events`);
      for (let i = 1; i < desc.data.length; i++) {
        assert.ok(desc.data[i - 1]!.id > desc.data[i]!.id, 'ids (time-ordered uuids) decrease');
        assert.ok(desc.data[i - 1]!.createdAt >= desc.data[i]!.createdAt, 'createdAt does not increase');
      }
      assert.equal(desc.data.at(-1)!.type, 'integrator.created', 'the first event of every integrator');
      assert.deepEqual((await list(eve, 'limit=100&order=desc')).data, desc.data);
      const asc = await list(eve, 'limit=100&order=asc');
      assert.deepEqual(asc.data, [...desc.data].reverse());

      for (const e of desc.data) {
        assert.deepEqual(Object.keys(e).sort(), EVENT_KEYS);
        assert.equal(e.apiVersion, '0.2.0');
        assert.ok(Number.isInteger(e.sequence) && e.sequence >= 1);
        assert.equal(new Date(e.createdAt).toISOString(), e.createdAt);
        assert.ok('object' in e.data);
      }
      const created = desc.data.find((e) => e.type === 'credential.created' && e.objectId === keys[0]!.credentialId)! as CredentialEvent;
      assert.equal(created.objectType, 'credential');
      assert.equal(created.data.object.publicKey, keys[0]!.publicKey);
      assert.equal(created.data.previousAttributes, undefined, 'a creation has no previousAttributes');

      // The default page is 20.
      const defaults = await list(eve);
      assert.deepEqual(defaults, { data: desc.data.slice(0, 20), hasMore: true });
    });

    it('pages with startingAfter in either order without overlap or gap', async () => {
      const desc = (await list(eve, 'limit=100')).data;
      const asc = (await list(eve, 'limit=100&order=asc')).data;
      for (const limit of [1, 4]) {
        assert.deepEqual(await everything(eve, 'order=desc', limit), desc, `desc, limit ${limit}`);
        assert.deepEqual(await everything(eve, 'order=asc', limit), asc, `asc, limit ${limit}`);
      }
      // From the middle: the next page starts right after the cursor, in the listing's direction.
      const middle = desc[3]!;
      assert.deepEqual((await list(eve, `limit=2&startingAfter=${middle.id}`)).data, desc.slice(4, 6));
      assert.deepEqual((await list(eve, `limit=2&order=asc&startingAfter=${middle.id}`)).data, [...desc.slice(1, 3)].reverse());
      const last = await list(eve, `startingAfter=${desc.at(-1)!.id}`);
      assert.deepEqual(last, { data: [], hasMore: false });

      for (const [query, pointer] of [
        ['limit=0', '/limit'],
        ['limit=101', '/limit'],
        ['order=sideways', '/order'],
        ['startingAfter=nonsense', '/startingAfter'],
        ['createdGte=yesterday', '/createdGte'],
        ['deliverySuccess=maybe', '/deliverySuccess'],
      ] as const) {
        const res = await eve.client.get(`/v1/events?${query}`);
        assert.equal(res.status, 400, `${query}: ${res.text}`);
        assert.equal(res.body.code, 'validation_failed');
        assert.ok(
          res.body.errors.some((e: FieldError) => e.pointer === pointer),
          `${query}: ${JSON.stringify(res.body.errors)}`,
        );
      }
    });

    it('GET /v1/events/{id} returns the event exactly as listed', async () => {
      const desc = (await list(eve, 'limit=100')).data;
      for (const e of desc) {
        const one = await eve.client.get(`/v1/events/${e.id}`);
        assert.equal(one.status, 200);
        assert.deepEqual(one.body, e);
      }
      assert.equal((await eve.client.get('/v1/events/not-a-uuid')).status, 400);
    });

    it('filters by type, types, objectId and created range; an unknown type is a 400', async () => {
      const all = (await list(eve, 'limit=100')).data;
      const credentialCreated = all.filter((e) => e.type === 'credential.created');
      assert.ok(credentialCreated.length >= 6);
      assert.deepEqual((await list(eve, 'type=credential.created&limit=100')).data, credentialCreated);
      const both = all.filter((e) => e.type === 'credential.created' || e.type === 'integrator.created');
      assert.deepEqual((await list(eve, 'types=credential.created,integrator.created&limit=100')).data, both);
      assert.deepEqual((await list(eve, `types=${encodeURIComponent('integrator.created, credential.created')}&limit=100`)).data, both);
      assert.deepEqual((await list(eve, 'type=integrator.created&types=credential.created&limit=100')).data, both, 'type and types add up');
      assert.deepEqual((await list(eve, 'type=webhook_subscription.disabled')).data, []);

      const key = keys[2]!;
      assert.deepEqual(
        (await list(eve, `objectId=${key.credentialId}`)).data,
        all.filter((e) => e.objectId === key.credentialId),
      );
      assert.deepEqual((await list(eve, `objectId=${randomUUID()}`)).data, []);

      // The five credentials were made a second apart: cut the list at the third one's instant.
      const pivot = all.find((e) => e.type === 'credential.created' && e.objectId === key.credentialId)!;
      const at = encodeURIComponent(pivot.createdAt);
      const t = Date.parse(pivot.createdAt);
      const cases: [string, (ms: number) => boolean][] = [
        [`createdGte=${at}`, (ms) => ms >= t],
        [`createdGt=${at}`, (ms) => ms > t],
        [`createdLte=${at}`, (ms) => ms <= t],
        [`createdLt=${at}`, (ms) => ms < t],
        [`createdGte=${encodeURIComponent(new Date(t - 1000).toISOString())}&createdLt=${encodeURIComponent(new Date(t + 1000).toISOString())}`, (ms) => ms >= t - 1000 && ms < t + 1000],
      ];
      for (const [query, keep] of cases) {
        const expected = all.filter((e) => keep(Date.parse(e.createdAt)));
        assert.ok(expected.length > 0 && expected.length < all.length, `${query} splits the list`);
        assert.deepEqual((await list(eve, `${query}&limit=100`)).data, expected, query);
      }
      assert.deepEqual((await list(eve, `createdGt=${at}&type=credential.created&order=asc&limit=100`)).data.map((e) => e.objectId), keys.slice(3).map((k) => k.credentialId));

      const unknown = await eve.client.get('/v1/events?type=credential.exploded');
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.code, 'validation_failed');
      assert.deepEqual(
        unknown.body.errors.map((e: FieldError) => [e.pointer, e.code]),
        [['/type', 'unknown_event_type']],
      );
      const unknownInTypes = await eve.client.get('/v1/events?types=credential.created,user.*');
      assert.equal(unknownInTypes.status, 400);
      assert.deepEqual(
        unknownInTypes.body.errors.map((e: FieldError) => [e.pointer, e.code]),
        [['/types', 'unknown_event_type']],
      );
      const tooMany = await eve.client.get(`/v1/events?types=${Array(21).fill('credential.created').join(',')}`);
      assert.equal(tooMany.status, 400);
      assert.equal(tooMany.body.errors[0].pointer, '/types');
    });

    it('numbers each object’s events with a strictly increasing sequence; changes carry previousAttributes', async () => {
      const key = await newCredential(eve);
      const labelsSeen = [`key ${labels}`];
      for (const label of ['renamed once', 'renamed twice', 'renamed thrice']) {
        const res = await eve.client.patch(`/v1/integrator/credentials/${key.publicKey}`, { label });
        assert.equal(res.status, 200, res.text);
        labelsSeen.push(label);
      }
      const deactivated = await eve.client.patch(`/v1/integrator/credentials/${key.publicKey}`, { active: false });
      assert.equal(deactivated.status, 200, deactivated.text);
      // A no-op change records nothing.
      server.clock.advance(1000);
      assert.equal((await eve.client.patch(`/v1/integrator/credentials/${key.publicKey}`, { active: false })).status, 200);

      const history = (await list(eve, `objectId=${key.credentialId}&order=asc`)).data as CredentialEvent[];
      assert.deepEqual(
        history.map((e) => [e.type, e.sequence]),
        [
          ['credential.created', 1],
          ['credential.updated', 2],
          ['credential.updated', 3],
          ['credential.updated', 4],
          ['credential.updated', 5],
        ],
      );
      for (let i = 1; i <= 3; i++) {
        assert.equal(history[i]!.data.previousAttributes!.label, labelsSeen[i - 1]);
        assert.equal(history[i]!.data.object.label, labelsSeen[i]);
        assert.equal(history[i]!.data.previousAttributes!.updatedAt, history[i - 1]!.data.object.updatedAt);
      }
      assert.deepEqual(Object.keys(history[4]!.data.previousAttributes!).sort(), ['active', 'updatedAt']);
      assert.equal(history[4]!.data.previousAttributes!.active, true);
      assert.deepEqual(
        (await list(eve, `objectId=${key.credentialId}`)).data.map((e) => e.sequence),
        [5, 4, 3, 2, 1],
      );
      // Sequences are per object: another object starts at 1 of its own.
      assert.deepEqual(
        (await list(eve, `objectId=${keys[0]!.credentialId}`)).data.map((e) => e.sequence),
        [1],
      );
    });

    it('deliverySuccess=true lists events delivered everywhere, false those with a delivery not (yet) succeeded', async () => {
      const dora = await server.seedIntegrator('Dora');
      const [ok, failing] = [await startReceiver(), await startReceiver()];
      receivers.push(ok, failing);
      failing.setDefault({ status: 500, body: 'down' });
      const subOk = await dora.client.post('/v1/webhooks/subscriptions', { name: 'ok', url: `${ok.url}/hook`, eventTypes: ['credential.updated'] });
      const subFailing = await dora.client.post('/v1/webhooks/subscriptions', { name: 'failing', url: `${failing.url}/hook`, eventTypes: ['credential.deleted'] });
      assert.equal(subOk.status, 201, subOk.text);
      assert.equal(subFailing.status, 201, subFailing.text);

      const key = await newCredential(dora);
      assert.equal((await dora.client.patch(`/v1/integrator/credentials/${key.publicKey}`, { label: 'delivered' })).status, 200);
      assert.equal((await dora.client.delete(`/v1/integrator/credentials/${key.publicKey}`)).status, 204);
      const [updated] = (await list(dora, 'type=credential.updated')).data;
      const [deleted] = (await list(dora, 'type=credential.deleted')).data;

      await ok.next();
      await failing.next();
      const settled = await eventually(
        async () => [await dora.client.get(`/v1/events/${updated!.id}/deliveries`), await dora.client.get(`/v1/events/${deleted!.id}/deliveries`)],
        ([u, d]) => u!.body.data[0]?.status === 'succeeded' && d!.body.data[0]?.status === 'failed',
        'one delivery to succeed and the other to fail',
      );
      assert.equal(settled[0]!.body.data[0].subscriptionId, subOk.body.subscription.id);
      assert.equal(settled[1]!.body.data[0].subscriptionId, subFailing.body.subscription.id);
      assert.equal(settled[1]!.body.data[0].attempts.length, 4);

      assert.deepEqual(
        (await list(dora, 'deliverySuccess=true')).data.map((e) => e.id),
        [updated!.id],
      );
      assert.deepEqual(
        (await list(dora, 'deliverySuccess=false')).data.map((e) => e.id),
        [deleted!.id],
      );
      // Events with no delivery at all are in neither, but in the unfiltered list.
      const unfiltered = (await list(dora, 'limit=100')).data.map((e) => e.type);
      assert.ok(unfiltered.includes('credential.created') && unfiltered.includes('webhook_subscription.created'));
      assert.deepEqual(
        (await list(dora, 'deliverySuccess=false&type=credential.updated')).data,
        [],
      );
    });

    it('shows only the caller’s events: another integrator’s id is the same 404 as a missing one', async () => {
      const theirs = (await list(mallory, 'limit=100')).data;
      const mine = await everything(eve, 'order=asc', 7);
      assert.ok(mine.length >= 21);
      assert.ok(theirs.length >= 6);
      const mineIds = new Set(mine.map((e) => e.id));
      for (const e of theirs) assert.ok(!mineIds.has(e.id), `${e.type} of Mallory listed for Eve`);
      const foreign = theirs.find((e) => e.type === 'credential.created')!;

      const compare = async (foreignPath: string, missingPath: string) => {
        const a = await eve.client.get(foreignPath);
        const b = await eve.client.get(missingPath);
        assert.equal(a.status, 404, a.text);
        assert.equal(b.status, 404, b.text);
        assert.equal(a.headers.get('content-type'), b.headers.get('content-type'));
        assert.deepEqual(withoutRequestId(a.body), withoutRequestId(b.body));
        assert.equal(a.text.replace(a.body.requestId, ''), b.text.replace(b.body.requestId, ''), 'byte-identical apart from requestId');
        assert.equal(a.body.code, 'not_found');
      };
      const missing = randomUUID();
      await compare(`/v1/events/${foreign.id}`, `/v1/events/${missing}`);
      await compare(`/v1/events/${foreign.id}/deliveries`, `/v1/events/${missing}/deliveries`);
      await compare(`/v1/events?startingAfter=${foreign.id}`, `/v1/events?startingAfter=${missing}`);
      assert.deepEqual((await list(eve, `objectId=${foreign.objectId}`)).data, []);
      assert.deepEqual((await list(eve, `objectId=${mallory.integratorId}`)).data, []);

      // Mallory can read her own.
      const own = await mallory.client.get(`/v1/events/${foreign.id}`);
      assert.equal(own.status, 200);
      assert.deepEqual(own.body, foreign);
    });
  });
}
