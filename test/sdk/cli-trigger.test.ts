import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createIntegratorClient, type IntegratorClient } from '../../packages/sdk/src/index.js';
import { REFUSED_TYPES, trigger, TriggerRefused, TRIGGER_TYPES, withOverrides } from '../../packages/sdk/src/cli-trigger.js';
import { ALL_EVENT_TYPES } from '../../src/domain/events/catalogue.js';
import { startAnvil, type Anvil } from '../harness/anvil.js';
import { startServer, type TestServer } from '../harness/server.js';

/*
 * `integrator trigger` in-process against a real sandbox server with a chain (anvil) and no private endpoints allowed,
 * no DNS used: every catalogued type is made (the events it reports are in /v1/events, the credential and
 * subscription ones about the object it names) or refused with its reason; a chain the server lacks is a refusal
 * naming what is missing; --data overrides reach the request that makes the event.
 */
describe('integrator trigger', () => {
  let server: TestServer;
  let chain: Anvil;
  let api: IntegratorClient;
  before(async () => {
    // A chain (31337, as `npm run chain`) with the treasury funded, so deposits are paid out and proposals accepted;
    // no webhook worker: the events are read from /v1/events, and nothing is to be delivered.
    chain = await startAnvil(31337);
    server = await startServer('pglite', { CHAIN_RPC_URLS: `31337=${chain.url}`, WEBHOOK_WORKER: '0' });
    await chain.setBalance(server.treasury!.address, 10n ** 20n);
    const acme = await server.seedIntegrator('Acme');
    api = createIntegratorClient({ baseUrl: server.url, privateKey: acme.privateKey, now: () => server.clock.seconds() });
  });
  after(async () => {
    await server?.close();
    await chain?.stop();
  });

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

  // Every catalogued type: made (each event it reports is in /v1/events), or refused with its documented reason.
  it('knows every catalogued type, and nothing else', () => {
    assert.deepEqual([...TRIGGER_TYPES].sort(), [...ALL_EVENT_TYPES].sort());
  });
  const options = () => ({ nowMs: () => server.clock.now().getTime(), waitMs: 30_000 });
  for (const type of [...ALL_EVENT_TYPES].sort()) {
    it(`trigger ${type}`, async () => {
      server.clock.advance(1000);
      const since = (await api.listEvents({ query: { limit: 1, order: 'desc' } })).data[0]?.id;
      // webhook.test needs an enabled subscription: at an address literal, and no worker here to deliver to it.
      const subscription = type === 'webhook.test' ? (await api.createWebhookSubscription({ body: { name: 't', url: 'https://1.1.1.1/t', eventTypes: ['webhook.test'] } })).subscription.id : undefined;
      if (REFUSED_TYPES.includes(type)) {
        await assert.rejects(trigger(api, type, options()), (err: Error) => {
          assert.ok(err instanceof TriggerRefused, err.stack);
          assert.match(err.message, new RegExp(`^integrator trigger ${type.replace(/\./g, '\\.')}: the sandbox cannot make this event through the API: .{40,}`));
          return true;
        });
        return;
      }
      const result = (await trigger(api, type, { ...options(), subscription })) as { triggered?: string[] };
      if (subscription) await api.deleteWebhookSubscription({ path: { subscriptionId: subscription } });
      const triggered = result.triggered ?? [type];
      assert.ok(triggered.includes(type), triggered.join(', '));
      const happened = (await api.listEvents({ query: { limit: 100, order: 'asc', ...(since ? { startingAfter: since } : {}) } })).data.map((e) => e.type);
      for (const t of triggered) assert.ok((happened as string[]).includes(t), `${t} reported, not among ${happened.join(', ')}`);
    });
  }

  // A chain the server does not have: what a server without CHAIN_RPC_URLS answers for every chain.
  for (const type of ['transaction.created', 'transaction.approval_added', 'transaction.failed']) {
    it(`trigger ${type} on a chain the server lacks: a refusal naming what is missing`, async () => {
      server.clock.advance(1000);
      await assert.rejects(trigger(api, type, { ...options(), chainId: '999' }), (err: Error) => {
        assert.ok(err instanceof TriggerRefused, err.stack);
        assert.match(err.message, new RegExp(`^integrator trigger ${type.replace(/\./g, '\\.')}: the sandbox refused `));
        assert.match(err.message, /unsupported_chain\).*npm run chain.*CHAIN_RPC_URLS=31337=http:\/\/127\.0\.0\.1:8545.*--chain-id/s);
        return true;
      });
    });
  }

  it('--data reaches a member action before it is signed, so the approval of the member covers it', async () => {
    server.clock.advance(1000);
    const result = (await trigger(api, 'member.role_changed', { nowMs: () => server.clock.now().getTime(), overrides: { role: 'initiator' } })) as { accountId: string; memberUserId: string };
    const { data } = await api.listMembers({ query: { accountId: result.accountId } });
    assert.equal(data.find((m) => m.userId === result.memberUserId)?.role, 'initiator');
  });

  it('merges objects deeply and replaces arrays and scalars', () => {
    assert.deepEqual(withOverrides({ a: { b: 1, c: [1, 2] }, d: 'x' }, { a: { c: [3] }, d: 'y', e: true }), { a: { b: 1, c: [3] }, d: 'y', e: true });
    assert.deepEqual(withOverrides({ a: 1 }, undefined), { a: 1 });
  });
});
