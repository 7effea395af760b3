import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { PolicyAsset } from '../../../src/domain/policies/policy-assets.js';
import type { Rule } from '../../../src/domain/policies/rules.js';
import { stepUpApprovals } from '../../../src/domain/policies/step-up.js';

// require_approvals' step-up held to a reference written out here from docs/policies.md#step-up: the largest
// `approvals` among the rules whose asset (on the transaction's chain) leaves the wallet strictly above the amount;
// 0 when none. Other rule types never step up. Random policies and transactions (POLICY_PROPERTY_RUNS, 300 by default).

const CHAIN = 8453;
const TOKEN = `0x${'cd'.repeat(20)}`;
const ASSETS: Record<string, PolicyAsset> = { ETH: { symbol: 'ETH', decimals: 18, key: 'native' }, USDC: { symbol: 'USDC', decimals: 6, key: TOKEN } };
const runs = Number(process.env.POLICY_PROPERTY_RUNS ?? 300);

const rule: fc.Arbitrary<Rule> = fc.oneof(
  fc
    .record({ asset: fc.constantFrom('ETH', 'USDC', 'DAI'), chainId: fc.constantFrom(CHAIN, 1), above: fc.bigInt({ min: 0n, max: 50n }), approvals: fc.integer({ min: 1, max: 20 }) })
    .map(({ asset, chainId, above, approvals }): Rule => ({ type: 'require_approvals', above: { asset, chainId, amount: String(above), amountRaw: String(above) }, approvals })),
  fc.bigInt({ min: 0n, max: 50n }).map((cap): Rule => ({ type: 'max_amount', asset: 'ETH', chainId: CHAIN, amount: String(cap), amountRaw: String(cap), window: 'transaction' })),
  fc.constant<Rule>({ type: 'new_destination_delay', hours: 1 }),
);

describe('require_approvals step-up', () => {
  it('is the largest approvals of the rules the outflow exceeds (equal is not above), 0 without one', () => {
    fc.assert(
      fc.property(fc.array(fc.array(rule, { minLength: 1, maxLength: 5 }), { maxLength: 5 }), fc.bigInt({ min: 0n, max: 60n }), fc.bigInt({ min: 0n, max: 60n }), (rules, native, token) => {
        const policies = rules.map((r, i) => ({ id: `p${i}`, rules: r }));
        const outflows = new Map<string, bigint>([['native', native], [TOKEN, token]]);
        const actual = stepUpApprovals(policies, { chainId: CHAIN, outflows, destinations: [] }, (r) => (r.chainId === CHAIN ? ASSETS[r.asset] : undefined));
        let expected = 0;
        for (const r of rules.flat()) {
          if (r.type !== 'require_approvals' || r.above.chainId !== CHAIN || !(r.above.asset in ASSETS)) continue;
          const out = r.above.asset === 'ETH' ? native : token;
          if (out > BigInt(r.above.amountRaw)) expected = Math.max(expected, r.approvals);
        }
        assert.equal(actual, expected);
      }),
      { numRuns: runs },
    );
  });
});
