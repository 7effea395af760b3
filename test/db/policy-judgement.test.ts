import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readCoveringSpending } from '../../src/db/repositories/policy-judgement.js';
import { insertPolicy, markPolicyDeleted, policiesCovering } from '../../src/db/repositories/policies.js';
import { judgeSpending, type SpendSubject } from '../../src/domain/policies/enforce.js';
import { newId } from '../../src/domain/ids.js';
import type { PolicyAssets } from '../../src/domain/policies/policy-assets.js';
import { cachedPolicy, policyCacheSize, POLICY_CACHE_WEIGHT, rememberPolicy } from '../../src/domain/policies/policy-cache.js';
import type { Rule } from '../../src/domain/policies/rules.js';
import { TokenRegistry } from '../../src/domain/tokens/token-registry.js';
import { backends } from '../harness/backends.js';
import { createCustomer, recipient } from '../harness/customers.js';
import { useTenants } from '../harness/tenants.js';

// The judgement's reads (docs/policies.md#data-model-for-the-enforcement) with the in-process caches in the way: the
// live policies come from the database every time, so a policy created or deleted after the account's last judgement
// counts at once (what the last judgement needed read is only asked for first; the rest is read after), and compiled
// rules are kept by id within a bound.

const ETH = { symbol: 'ETH', decimals: 18, key: 'native' };
const assets: PolicyAssets = {
  hasChain: (chainId) => chainId === 8453,
  find: (chainId, symbol) => (chainId === 8453 && symbol.toUpperCase() === 'ETH' ? ETH : undefined),
  listed: () => ['ETH'],
  chainIds: () => [8453],
};
const deps = { assets, tokens: new TokenRegistry([]) };
const cap = (amountRaw: string, window: '24h' | '7d'): Rule => ({ type: 'max_amount', asset: 'ETH', chainId: 8453, amount: amountRaw, amountRaw, window });

for (const backend of backends()) {
  describe(`judging spending with cached policies [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme']);

    it('sees policies created and deleted since the last judgement at once, and reads what their rules need', async () => {
      const db = server.database.db;
      const { accountId, walletAddress } = await createCustomer(server, acme);
      const to = recipient();
      const subject = (value: bigint): SpendSubject => ({ integratorId: acme.integratorId, accountId, walletAddress, unsigned: { chainId: 8453, to: to as `0x${string}`, value } });
      const now = new Date();
      const policy = async (rules: Rule[]) => (await insertPolicy(db, { id: newId(), integratorId: acme.integratorId, accountId, rules, createdAt: now })).id;

      assert.equal(await judgeSpending(db, deps, subject(6n), now), undefined, 'no policy');
      const capped = await policy([cap('10', '24h')]);
      assert.equal(await db.transaction((tx) => judgeSpending(tx, deps, subject(6n), now, newId())), undefined, 'within the cap: reserved');
      assert.equal((await judgeSpending(db, deps, subject(6n), now))?.policyId, capped, 'the window holds 6: 6 more is over 10');
      assert.equal((await db.transaction((tx) => judgeSpending(tx, deps, subject(6n), now, newId())))?.policyId, capped, 'recorded, refused: what it reserved with the read is taken back');
      assert.equal(await judgeSpending(db, deps, subject(4n), now), undefined, 'the cap itself');

      // A policy whose rule the account's last judgement did not need: its standing is read all the same.
      const delayed = await policy([{ type: 'new_destination_delay', hours: 1 }]);
      const refused = await judgeSpending(db, deps, subject(1n), now);
      assert.equal(refused?.policyId, delayed);
      assert.equal(refused?.ruleType, 'new_destination_delay');
      assert.equal((await judgeSpending(db, deps, subject(1n), now))?.policyId, delayed, 'and again, asked for in the first statement');
      const weekly = await policy([cap('7', '7d')]);
      assert.equal((await judgeSpending(db, deps, subject(2n), now))?.policyId, delayed, 'deny wins in policy order');

      // Deleted (by any process): its compiled rules stay cached, but it no longer covers the account.
      assert.ok(cachedPolicy(delayed));
      await markPolicyDeleted(db, delayed, now);
      assert.equal((await judgeSpending(db, deps, subject(2n), now))?.policyId, weekly, '6 + 2 over the 7d cap of 7');
      assert.equal(await judgeSpending(db, deps, subject(1n), now), undefined);
      await markPolicyDeleted(db, weekly, now);
      await markPolicyDeleted(db, capped, now);
      assert.equal(await judgeSpending(db, deps, subject(100n), now), undefined, 'every policy deleted');

      // policiesCovering (the step-up's read) is unchanged: the live policies with their rules, oldest first.
      const kept = await policy([cap('1', '24h')]);
      assert.deepEqual(
        (await policiesCovering(db, acme.integratorId, accountId)).map((p) => [p.id, p.rules]),
        [[kept, [cap('1', '24h')]]],
      );
    });

    it('reads the live ids and what is asked in one statement, and nothing else without a policy', async () => {
      const db = server.database.db;
      const { accountId } = await createCustomer(server, acme);
      const query = { integratorId: acme.integratorId, accountId, chainId: 8453, sums: [{ asset: 'native', window: '24h', since: new Date(0) }], destinations: [recipient().toLowerCase()] };
      const none = await readCoveringSpending(db, query);
      assert.deepEqual([none.ids, none.sums.size, none.standings.size], [[], 0, 0]);
      const wide = (await insertPolicy(db, { id: newId(), integratorId: acme.integratorId, accountId: null, rules: [cap('5', '24h')], createdAt: new Date() })).id;
      const own = (await insertPolicy(db, { id: newId(), integratorId: acme.integratorId, accountId, rules: [cap('5', '24h')], createdAt: new Date() })).id;
      const read = await readCoveringSpending(db, query);
      assert.deepEqual(read.ids, [wide, own]);
      assert.equal(read.sums.get('native:24h'), 0n);
      assert.deepEqual(read.standings.get(query.destinations[0]!), { used: false });
      await markPolicyDeleted(db, wide, new Date());
      await markPolicyDeleted(db, own, new Date());
    });
  });
}

describe('the compiled policy cache', () => {
  it('evicts the least recently used beyond its weight', () => {
    const many = (n: number): Rule[] => [{ type: 'allowed_destinations', addresses: Array.from({ length: n }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`) }];
    const [a, b, c] = [newId(), newId(), newId()];
    rememberPolicy(a, many(POLICY_CACHE_WEIGHT / 2 - 10));
    rememberPolicy(b, many(POLICY_CACHE_WEIGHT / 2 - 10));
    assert.ok(cachedPolicy(a), 'a is now the most recently used');
    rememberPolicy(c, many(100));
    assert.ok(cachedPolicy(a));
    assert.equal(cachedPolicy(b), undefined, 'b was the least recently used');
    assert.ok(policyCacheSize().weight <= POLICY_CACHE_WEIGHT);
    assert.equal(cachedPolicy(c)?.allowed[0]?.size, 100);
  });
});
