import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asc, eq } from 'drizzle-orm';
import { spendingPolicyChanges } from '../../src/db/schema/index.js';
import { backends } from '../harness/backends.js';
import { createCustomer, recipient } from '../harness/customers.js';
import { eventsFor } from '../harness/db.js';
import { activeEntity } from '../harness/money.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenantsWithToken } from '../harness/tokens.js';

const CHAIN = 8453;
const usdcCap = (amount = '1000', window = '24h') => ({ type: 'max_amount', asset: 'USDC', chainId: CHAIN, amount, window });

for (const backend of backends()) {
  describe(`spending policies [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;
    let globex: SeededIntegrator;
    let reader: SeededIntegrator;
    let individual: string;
    let entity: string;

    before(async () => {
      const started = await startTenantsWithToken(backend, CHAIN, ['Acme', 'Globex']);
      server = started.server;
      [acme, globex] = started.tenants;
      reader = await server.seedIntegrator('Reader', 'read_only');
      individual = (await createCustomer(server, acme)).accountId;
      entity = await activeEntity(server, acme);
    });
    after(async () => server?.close());

    const send = (who: SeededIntegrator, method: string, path: string, body?: unknown) => {
      server.clock.advance(1000);
      return who.client.request(method, path, body === undefined ? {} : { body });
    };
    const create = (body: unknown, who = acme) => send(who, 'POST', '/v1/policies', body);
    const audit = (policyId: string) =>
      server.database.db.select().from(spendingPolicyChanges).where(eq(spendingPolicyChanges.policyId, policyId)).orderBy(asc(spendingPolicyChanges.id));
    /** The body's field errors as pointer -> code. */
    const fieldErrors = (res: { body: any }) => Object.fromEntries((res.body.errors as { pointer: string; code: string }[]).map((e) => [e.pointer, e.code]));

    it('creates an integrator-wide policy with every rule type: assets as TOKENS spells them, amounts in base units, addresses in lower case; get and list show it', async () => {
      const destination = recipient();
      const res = await create({
        rules: [
          usdcCap('1000.5'),
          { type: 'max_amount', asset: 'eth', chainId: CHAIN, amount: '0.000000000000000001', window: 'transaction' },
          { type: 'allowed_destinations', addresses: [destination, destination.toLowerCase()] },
          { type: 'new_destination_delay', hours: 24 },
          { type: 'require_approvals', above: { asset: 'usdc', chainId: CHAIN, amount: '500' }, approvals: 3 },
        ],
      });
      assert.equal(res.status, 201, res.text);
      const policy = res.body;
      assert.deepEqual(Object.keys(policy).sort(), ['accountId', 'createdAt', 'deletedAt', 'policyId', 'rules']);
      assert.equal(policy.accountId, null);
      assert.equal(policy.deletedAt, null);
      assert.deepEqual(policy.rules, [
        { type: 'max_amount', asset: 'USDC', chainId: CHAIN, amount: '1000.5', amountRaw: '1000500000', window: '24h' },
        { type: 'max_amount', asset: 'ETH', chainId: CHAIN, amount: '0.000000000000000001', amountRaw: '1', window: 'transaction' },
        { type: 'allowed_destinations', addresses: [destination.toLowerCase()] },
        { type: 'new_destination_delay', hours: 24 },
        { type: 'require_approvals', above: { asset: 'USDC', chainId: CHAIN, amount: '500', amountRaw: '500000000' }, approvals: 3 },
      ]);

      const got = await send(acme, 'GET', `/v1/policies/${policy.policyId}`);
      assert.equal(got.status, 200, got.text);
      assert.deepEqual(got.body, policy);
      const listed = await send(acme, 'GET', '/v1/policies?limit=100');
      assert.equal(listed.status, 200, listed.text);
      assert.ok(listed.body.data.some((p: { policyId: string }) => p.policyId === policy.policyId));

      const events = await eventsFor(server.database, policy.policyId);
      assert.deepEqual(events.map((e) => e.type), ['policy.created']);
      assert.deepEqual((events[0]!.data as { object: unknown }).object, policy);
      const rows = await audit(policy.policyId);
      assert.deepEqual(rows.map((r) => [r.action, r.actorType, r.integratorId]), [['created', 'integrator', acme.integratorId]]);
      assert.ok(rows[0]!.actorId, 'the credential that signed is recorded');
    });

    it('a policy of one account: listed with accountId, pages oldest first', async () => {
      const account = (await createCustomer(server, acme)).accountId;
      const ids: string[] = [];
      for (const amount of ['1', '2', '3']) {
        const res = await create({ accountId: account, rules: [usdcCap(amount)] });
        assert.equal(res.status, 201, res.text);
        assert.equal(res.body.accountId, account);
        ids.push(res.body.policyId);
      }
      const first = await send(acme, 'GET', `/v1/policies?accountId=${account}&limit=2`);
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(first.body.data.map((p: { policyId: string }) => p.policyId), ids.slice(0, 2));
      assert.equal(first.body.hasMore, true);
      const second = await send(acme, 'GET', `/v1/policies?accountId=${account}&limit=2&startingAfter=${ids[1]}`);
      assert.deepEqual(second.body.data.map((p: { policyId: string }) => p.policyId), ids.slice(2));
      assert.equal(second.body.hasMore, false);
    });

    it('400 naming the field: unknown rule type, window, decimals beyond the asset’s, an asset not listed, a chain not configured (all at once)', async () => {
      // The document is made from the same schemas; making it first shows it leaves the validator's alone.
      assert.equal((await fetch(`${server.url}/openapi.json`)).status, 200);
      const cases: [unknown, Record<string, string>][] = [
        [{ type: 'max_velocity', amount: '1' }, { '/rules/0/type': 'invalid_value' }],
        [{ amount: '1' }, { '/rules/0/type': 'required' }],
        [usdcCap('1', '1h'), { '/rules/0/window': 'invalid_value' }],
        [usdcCap('1.0000001'), { '/rules/0/amount': 'too_many_decimals' }],
        [{ ...usdcCap(), asset: 'ETH', amount: '0.0000000000000000001' }, { '/rules/0/amount': 'too_many_decimals' }],
        [{ ...usdcCap(), asset: 'DAI' }, { '/rules/0/asset': 'unknown_asset' }],
        [{ ...usdcCap(), chainId: 1 }, { '/rules/0/chainId': 'unsupported_chain' }],
        [{ ...usdcCap(), amount: '1e6' }, { '/rules/0/amount': 'invalid_format' }],
        [{ ...usdcCap(), amount: 1000 }, { '/rules/0/amount': 'invalid_type' }],
        [{ type: 'require_approvals', above: { asset: 'USDC', chainId: CHAIN, amount: '0.1234567' }, approvals: 2 }, { '/rules/0/above/amount': 'too_many_decimals' }],
        [{ type: 'new_destination_delay', hours: 0 }, { '/rules/0/hours': 'out_of_range' }],
        [{ type: 'allowed_destinations', addresses: ['0x123'] }, { '/rules/0/addresses/0': 'invalid_format' }],
        [{ type: 'allowed_destinations', addresses: [recipient()], hours: 3 }, { '/rules/0/hours': 'unknown_field' }],
      ];
      for (const [rule, expected] of cases) {
        const res = await create({ rules: [rule] });
        assert.equal(res.status, 400, `${JSON.stringify(rule)}: ${res.text}`);
        assert.equal(res.body.code, 'validation_failed');
        assert.deepEqual(fieldErrors(res), expected, `${JSON.stringify(rule)}: ${res.text}`);
      }
      const several = await create({ rules: [usdcCap('1', 'week'), usdcCap('0.1234567'), { ...usdcCap(), asset: 'DAI' }] });
      assert.equal(several.status, 400, several.text);
      // The schema's problems come first; the assets' and decimals' are the domain's and wait for a body the schema accepts.
      assert.deepEqual(fieldErrors(several), { '/rules/0/window': 'invalid_value' });
      const domain = await create({ rules: [usdcCap('0.1234567'), { ...usdcCap(), asset: 'DAI' }] });
      assert.deepEqual(fieldErrors(domain), { '/rules/0/amount': 'too_many_decimals', '/rules/1/asset': 'unknown_asset' });
      assert.equal((await create({ rules: [] })).status, 400);
    });

    it('require_approvals above 1 is refused on an individual account (400 at approvals), accepted on an entity and integrator-wide', async () => {
      const rule = (approvals: number) => ({ type: 'require_approvals', above: { asset: 'USDC', chainId: CHAIN, amount: '100' }, approvals });
      const refused = await create({ accountId: individual, rules: [rule(2)] });
      assert.equal(refused.status, 400, refused.text);
      assert.deepEqual(fieldErrors(refused), { '/rules/0/approvals': 'individual_account' });
      assert.equal((await create({ accountId: individual, rules: [rule(1)] })).status, 201);
      assert.equal((await create({ accountId: entity, rules: [rule(2)] })).status, 201);
      assert.equal((await create({ rules: [rule(2)] })).status, 201);
    });

    it('delete: 204, then readable with deletedAt, out of the list, a second delete is 409 policy_deleted; event and audit row', async () => {
      const created = await create({ accountId: individual, rules: [usdcCap('5')] });
      const { policyId } = created.body;
      const deleted = await send(acme, 'DELETE', `/v1/policies/${policyId}`);
      assert.equal(deleted.status, 204, deleted.text);
      assert.equal(deleted.text, '');
      const got = await send(acme, 'GET', `/v1/policies/${policyId}`);
      assert.ok(got.body.deletedAt && Date.parse(got.body.deletedAt) > Date.parse(got.body.createdAt), got.text);
      const listed = await send(acme, 'GET', `/v1/policies?accountId=${individual}&limit=100`);
      assert.ok(!listed.body.data.some((p: { policyId: string }) => p.policyId === policyId));
      const again = await send(acme, 'DELETE', `/v1/policies/${policyId}`);
      assert.equal(again.status, 409, again.text);
      assert.equal(again.body.code, 'policy_deleted');

      const events = await eventsFor(server.database, policyId);
      assert.deepEqual(events.map((e) => e.type), ['policy.created', 'policy.deleted']);
      assert.deepEqual((events[1]!.data as { object: unknown }).object, got.body);
      assert.deepEqual((await audit(policyId)).map((r) => r.action), ['created', 'deleted']);
    });

    it('a read-only credential reads but gets 403 on every write', async () => {
      assert.equal((await send(reader, 'GET', '/v1/policies')).status, 200);
      for (const [method, path, body] of [
        ['POST', '/v1/policies', { rules: [usdcCap()] }],
        ['DELETE', '/v1/policies/0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b71', undefined],
        ['POST', `/v1/accounts/${individual}/address-book`, { address: recipient(), label: 'x' }],
      ] as const) {
        const res = await send(reader, method, path, body);
        assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
        assert.equal(res.body.code, 'insufficient_scope');
      }
    });

    it('another integrator’s policy or account is indistinguishable from a missing one (404)', async () => {
      const mine = await create({ accountId: individual, rules: [usdcCap()] });
      const missing = '0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b71';
      for (const [method, path, body] of [
        ['GET', `/v1/policies/${mine.body.policyId}`, undefined],
        ['DELETE', `/v1/policies/${mine.body.policyId}`, undefined],
        ['GET', `/v1/policies?startingAfter=${mine.body.policyId}`, undefined],
        ['GET', `/v1/policies?accountId=${individual}`, undefined],
        ['POST', '/v1/policies', { accountId: individual, rules: [usdcCap()] }],
        ['POST', `/v1/accounts/${individual}/address-book`, { address: recipient(), label: 'x' }],
        ['GET', `/v1/accounts/${individual}/address-book`, undefined],
      ] as const) {
        const theirs = await send(globex, method, path, body);
        const absent = await send(globex, method, path.replace(mine.body.policyId, missing).replace(individual, missing), body);
        assert.equal(theirs.status, 404, `${method} ${path}: ${theirs.text}`);
        assert.equal(absent.status, 404, `${method} ${path} (missing): ${absent.text}`);
        assert.equal(theirs.body.detail, absent.body.detail);
      }
      assert.equal((await send(acme, 'GET', `/v1/policies/${mine.body.policyId}`)).status, 200, 'untouched');
    });

    it('address book: usableAt is now without a delay, else now plus the largest new_destination_delay covering the account; one entry per address', async () => {
      // Globex: no policy of its own so far.
      const account = (await createCustomer(server, globex)).accountId;
      const other = (await createCustomer(server, globex)).accountId;
      const add = (accountId: string, address: string, label = 'Supplier') => send(globex, 'POST', `/v1/accounts/${accountId}/address-book`, { address, label });
      const first = recipient();
      const immediate = await add(account, first);
      assert.equal(immediate.status, 201, immediate.text);
      assert.deepEqual(immediate.body, { accountId: account, address: first.toLowerCase(), label: 'Supplier', usableAt: immediate.body.createdAt, createdAt: immediate.body.createdAt });

      assert.equal((await create({ rules: [{ type: 'new_destination_delay', hours: 24 }] }, globex)).status, 201);
      assert.equal((await create({ accountId: account, rules: [{ type: 'new_destination_delay', hours: 48 }, usdcCap()] }, globex)).status, 201);

      const delayed = await add(account, recipient());
      assert.equal(delayed.status, 201, delayed.text);
      assert.equal(Date.parse(delayed.body.usableAt) - Date.parse(delayed.body.createdAt), 48 * 3_600_000);
      const otherAccount = await add(other, first);
      assert.equal(otherAccount.status, 201, 'the same address in another account’s book');
      assert.equal(Date.parse(otherAccount.body.usableAt) - Date.parse(otherAccount.body.createdAt), 24 * 3_600_000, 'only the integrator-wide delay covers it');

      const twice = await add(account, `0x${first.slice(2).toUpperCase()}`, 'Again');
      assert.equal(twice.status, 409, twice.text);
      assert.equal(twice.body.code, 'address_book_entry_exists');

      const bad = await add(account, '0xnope', ' ');
      assert.equal(bad.status, 400);
      assert.deepEqual(fieldErrors(bad), { '/address': 'invalid_format', '/label': 'invalid_format' });

      const page = await send(globex, 'GET', `/v1/accounts/${account}/address-book?limit=1`);
      assert.equal(page.status, 200, page.text);
      assert.deepEqual(page.body.data.map((e: { address: string }) => e.address), [first.toLowerCase()]);
      assert.equal(page.body.hasMore, true);
      const rest = await send(globex, 'GET', `/v1/accounts/${account}/address-book?startingAfter=${first}`);
      assert.deepEqual(rest.body.data.map((e: { address: string }) => e.address), [delayed.body.address]);
      assert.equal(rest.body.hasMore, false);
    });
  });
}
