import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { compilePolicy, evaluatePolicies, type CompiledPolicy, type DestinationStanding } from '../../../src/domain/policies/evaluate.js';
import type { PolicyAsset } from '../../../src/domain/policies/policy-assets.js';
import type { Rule } from '../../../src/domain/policies/rules.js';

// The evaluator held to a reference model written out here from docs/policies.md: a rule refuses when a capped
// asset's outflow (plus what its window already holds) exceeds the cap, when a destination is not allowed, or when a
// destination is neither used before nor past its address book wait; the answer is the first refusing rule in policy,
// then rule, order, or none. Random policies, transactions and histories (POLICY_PROPERTY_RUNS, 300 by default).

const CHAIN = 8453;
const TOKEN = `0x${'ab'.repeat(20)}`;
const ASSETS: Record<string, PolicyAsset> = { ETH: { symbol: 'ETH', decimals: 18, key: 'native' }, USDC: { symbol: 'USDC', decimals: 6, key: TOKEN } };
const POOL = ['0x' + '1'.repeat(40), '0x' + '2'.repeat(40), '0x' + '3'.repeat(40), '0x' + '4'.repeat(40)];
const NOW = new Date('2026-12-02T12:00:00Z');
const runs = Number(process.env.POLICY_PROPERTY_RUNS ?? 300);

const rule: fc.Arbitrary<Rule> = fc.oneof(
  fc.record({ asset: fc.constantFrom('ETH', 'USDC'), chainId: fc.constantFrom(CHAIN, 1), cap: fc.bigInt({ min: 0n, max: 100n }), window: fc.constantFrom('transaction' as const, '24h' as const, '7d' as const) }).map(
    ({ asset, chainId, cap, window }): Rule => ({ type: 'max_amount', asset, chainId, amount: String(cap), amountRaw: String(cap), window }),
  ),
  fc.subarray(POOL, { minLength: 1 }).map((addresses): Rule => ({ type: 'allowed_destinations', addresses })),
  fc.integer({ min: 1, max: 48 }).map((hours): Rule => ({ type: 'new_destination_delay', hours })),
  fc.integer({ min: 1, max: 3 }).map((approvals): Rule => ({ type: 'require_approvals', above: { asset: 'USDC', chainId: CHAIN, amount: '1', amountRaw: '1' }, approvals })),
  fc.integer({ min: 0, max: 4 }).map((n): Rule => ({ type: 'expression', expression: `size(destinations) <= ${n}` })),
);

const standing: fc.Arbitrary<DestinationStanding> = fc.oneof(
  fc.constant({ kind: 'used_before' as const }),
  fc.constant({ kind: 'new' as const }),
  fc.integer({ min: -72, max: 72 }).map((h) => ({ kind: 'address_book' as const, usableAt: new Date(NOW.getTime() + h * 3_600_000) })),
);

const scenario = fc.record({
  policies: fc.array(fc.array(rule, { minLength: 1, maxLength: 4 }), { maxLength: 4 }),
  outflows: fc.record({ native: fc.bigInt({ min: 0n, max: 60n }), token: fc.bigInt({ min: 0n, max: 60n }) }),
  spent: fc.record({ native24: fc.bigInt({ min: 0n, max: 60n }), native7: fc.bigInt({ min: 0n, max: 60n }), token24: fc.bigInt({ min: 0n, max: 60n }), token7: fc.bigInt({ min: 0n, max: 60n }) }),
  destinations: fc.subarray(POOL),
  standings: fc.tuple(standing, standing, standing, standing),
});

/** The reference: does this one rule refuse? */
function refuses(r: Rule, s: Scenario): boolean {
  const outOf = (asset: string) => (asset === 'ETH' ? s.outflows.native : s.outflows.token);
  switch (r.type) {
    case 'max_amount': {
      if (r.chainId !== CHAIN || outOf(r.asset) === 0n) return false;
      const key = r.asset === 'ETH' ? 'native' : 'token';
      const before = r.window === 'transaction' ? 0n : s.spent[`${key}${r.window === '24h' ? '24' : '7'}` as keyof Scenario['spent']];
      return before + outOf(r.asset) > BigInt(r.amountRaw);
    }
    case 'allowed_destinations':
      return s.destinations.some((d) => !r.addresses.includes(d));
    case 'new_destination_delay':
      return s.destinations.some((d) => {
        const st = s.standings[POOL.indexOf(d)]!;
        return st.kind === 'new' || (st.kind === 'address_book' && st.usableAt > NOW);
      });
    case 'require_approvals':
      return false;
    case 'expression':
      return s.destinations.length > Number(/<= (\d+)/.exec(r.expression)![1]);
  }
}

type Scenario = {
  policies: Rule[][];
  outflows: { native: bigint; token: bigint };
  spent: { native24: bigint; native7: bigint; token24: bigint; token7: bigint };
  destinations: string[];
  standings: [DestinationStanding, DestinationStanding, DestinationStanding, DestinationStanding];
};

describe('spending policy evaluation against a reference model', () => {
  it('refuses exactly when the model does, naming the first refusing rule in policy then rule order', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const policies: CompiledPolicy[] = s.policies.map((rules, i) => compilePolicy(`policy-${i}`, rules));
        const outflows = new Map<string, bigint>();
        if (s.outflows.native > 0n) outflows.set('native', s.outflows.native);
        if (s.outflows.token > 0n) outflows.set(TOKEN, s.outflows.token);
        const denial = evaluatePolicies({
          policies,
          facts: { chainId: CHAIN, outflows, destinations: s.destinations },
          now: NOW,
          assetOf: (r) => (r.chainId === CHAIN ? ASSETS[r.asset] : undefined),
          spent: (asset, window) => (asset === 'native' ? (window === '24h' ? s.spent.native24 : s.spent.native7) : window === '24h' ? s.spent.token24 : s.spent.token7),
          standing: (d) => s.standings[POOL.indexOf(d)]!,
          expressionContext: () => ({ destinations: s.destinations }),
        });
        let expected: { policyId: string; ruleIndex: number } | undefined;
        outer: for (const [p, rules] of s.policies.entries()) {
          for (const [i, r] of rules.entries()) {
            if (refuses(r, s)) {
              expected = { policyId: `policy-${p}`, ruleIndex: i };
              break outer;
            }
          }
        }
        assert.deepEqual(denial && { policyId: denial.policyId, ruleIndex: denial.ruleIndex }, expected);
      }),
      { numRuns: runs },
    );
  });

  it('a cap is reached, not passed: equal is allowed, one base unit over refused', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 30n }), fc.bigInt({ min: 0n, max: 10n ** 30n }), (cap, spent) => {
        fc.pre(spent <= cap);
        const policies = [compilePolicy('p', [{ type: 'max_amount', asset: 'USDC', chainId: CHAIN, amount: '-', amountRaw: String(cap), window: '24h' } as Rule])];
        const judge = (amount: bigint) =>
          evaluatePolicies({ policies, facts: { chainId: CHAIN, outflows: new Map([[TOKEN, amount]]), destinations: [] }, now: NOW, assetOf: () => ASSETS.USDC, spent: () => spent, standing: () => ({ kind: 'new' }), expressionContext: () => ({}) });
        if (cap - spent > 0n) assert.equal(judge(cap - spent), undefined);
        assert.equal(judge(cap - spent + 1n)?.ruleType, 'max_amount');
      }),
      { numRuns: runs },
    );
  });
});
