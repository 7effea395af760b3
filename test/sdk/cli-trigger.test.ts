import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createIntegratorClient, type IntegratorClient } from '../../packages/sdk/src/index.js';
import { trigger, TRIGGER_TYPES, withOverrides } from '../../packages/sdk/src/cli-trigger.js';
import { startServer, type TestServer } from '../harness/server.js';

/*
 * `integrator trigger` in-process against a real sandbox server with no private endpoints allowed and no DNS used:
 * each credential and subscription type makes the events it reports, about the object it names, and --data
 * overrides reach the request that makes the event. (The account and deposit types run as a process in
 * test/process/cli.test.ts.)
 */
describe('integrator trigger', () => {
  let server: TestServer;
  let api: IntegratorClient;
  before(async () => {
    server = await startServer('pglite');
    const acme = await server.seedIntegrator('Acme');
    api = createIntegratorClient({ baseUrl: server.url, privateKey: acme.privateKey, now: () => server.clock.seconds() });
  });
  after(() => server?.close());

  const eventsAbout = async (types: string[], objectId: string) =>
    (await api.listEvents({ query: { types: types.join(','), limit: 100 } })).data.filter((e) => e.objectId === objectId).map((e) => e.type);

  const types = ['credential.created', 'credential.deleted', 'credential.updated', 'webhook_subscription.created', 'webhook_subscription.deleted', 'webhook_subscription.key_rotated', 'webhook_subscription.updated'];
  for (const type of types) {
    it(`${type}: the events it reports happened, about the object it names`, async () => {
      assert.ok(TRIGGER_TYPES.includes(type));
      // Each call its own second: identical signed mutations within one are refused as replays.
      server.clock.advance(1000);
      const result = (await trigger(api, type, {})) as { triggered: string[]; credentialId?: string; subscriptionId?: string };
      assert.ok(result.triggered.includes(type), result.triggered.join(', '));
      const objectId = result.credentialId ?? result.subscriptionId;
      assert.ok(objectId);
      const happened = await eventsAbout(result.triggered, objectId);
      assert.deepEqual([...happened].sort(), [...result.triggered].sort());
    });
  }

  for (const type of ['account.product_disabled', 'account.product_enabled']) {
    it(`${type}: a verified account's product turned off (and on), with the events about the account`, async () => {
      server.clock.advance(1000);
      const result = (await trigger(api, type, {})) as { triggered: string[]; accountId: string };
      assert.ok(result.triggered.includes(type));
      const happened = await eventsAbout(result.triggered.filter((t) => t.startsWith('account.')), result.accountId);
      assert.deepEqual([...happened].sort(), result.triggered.filter((t) => t.startsWith('account.')).sort());
    });
  }

  it('--data overrides fields of the request that makes the event', async () => {
    server.clock.advance(1000);
    const result = (await trigger(api, 'user.created', { overrides: { userInfo: { firstName: 'Ana', lastName: 'Souza' } } })) as { userId: string };
    const details = JSON.stringify(await api.getUserDetails({ query: { userId: result.userId } }));
    assert.match(details, /"firstName":"Ana"/);
    assert.match(details, /"lastName":"Souza"/);
    assert.match(details, /"email":"maria\.garcia\+[0-9a-f]+@example\.com"/, 'the fields not overridden stay');
  });

  it('merges objects deeply and replaces arrays and scalars', () => {
    assert.deepEqual(withOverrides({ a: { b: 1, c: [1, 2] }, d: 'x' }, { a: { c: [3] }, d: 'y', e: true }), { a: { b: 1, c: [3] }, d: 'y', e: true });
    assert.deepEqual(withOverrides({ a: 1 }, undefined), { a: 1 });
  });
});
