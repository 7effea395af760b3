import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkRules, type Coverage } from '../../../src/domain/policies/check-rules.js';
import type { PolicyAsset, PolicyAssets } from '../../../src/domain/policies/policy-assets.js';
import type { RuleInput } from '../../../src/domain/policies/rules.js';

// The rule checker against what an amount means, written out here: a decimal with at most the asset's decimals is
// accepted and becomes exactly whole * 10^decimals + fraction (padded), one decimal more is refused at its field.

/** One chain (8453) with its coin and tokens of every decimals a test asks for, named D<decimals>. */
function assetsWith(decimals: number[]): PolicyAssets {
  const bySymbol = new Map<string, PolicyAsset>([['ETH', { symbol: 'ETH', decimals: 18, key: 'native' }]]);
  for (const d of decimals) bySymbol.set(`D${d}`, { symbol: `D${d}`, decimals: d, key: `0x${d.toString(16).padStart(40, '0')}` });
  return {
    hasChain: (chainId) => chainId === 8453,
    find: (chainId, symbol) => (chainId === 8453 ? bySymbol.get(symbol.toUpperCase()) : undefined),
    listed: () => [...bySymbol.keys()],
    chainIds: () => [8453],
  };
}

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
/** A decimal as the schema admits it: digits, and maybe a point and more digits. */
const decimal = (maxFraction: number) =>
  fc.record({ whole: digits(1, 30), fraction: digits(0, maxFraction) }).map(({ whole, fraction }) => ({ whole, fraction, text: fraction ? `${whole}.${fraction}` : whole }));
/** Base units the reference way: the digits with the point moved right by `decimals`. */
const reference = (whole: string, fraction: string, decimals: number) => BigInt(whole + fraction.padEnd(decimals, '0'));

const windows = fc.constantFrom('transaction' as const, '24h' as const, '7d' as const);

describe('checkRules', () => {
  it('accepts an amount with at most the asset’s decimals, converting it exactly to base units (max_amount and require_approvals)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 36 }).chain((d) => fc.record({ d: fc.constant(d), amount: decimal(d), window: windows, approvals: fc.integer({ min: 1, max: 20 }) })),
        ({ d, amount, window, approvals }) => {
          const rules: RuleInput[] = [
            { type: 'max_amount', asset: `d${d}`, chainId: 8453, amount: amount.text, window },
            { type: 'require_approvals', above: { asset: `D${d}`, chainId: 8453, amount: amount.text }, approvals },
          ];
          const checked = checkRules(rules, assetsWith([d]), { accountType: 'entity' });
          assert.ok('rules' in checked, JSON.stringify(checked));
          const raw = reference(amount.whole, amount.fraction, d).toString();
          assert.deepEqual(checked.rules, [
            { type: 'max_amount', asset: `D${d}`, chainId: 8453, amount: amount.text, amountRaw: raw, window },
            { type: 'require_approvals', above: { asset: `D${d}`, chainId: 8453, amount: amount.text, amountRaw: raw }, approvals },
          ]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses one decimal more than the asset has, at that rule’s amount, and reports every rule’s problem at once', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        digits(1, 20),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 0, max: 3 }),
        (d, whole, last, before) => {
          const fraction = `${'0'.repeat(d)}${last}`;
          const good: RuleInput = { type: 'new_destination_delay', hours: 1 };
          const bad: RuleInput = { type: 'max_amount', asset: `D${d}`, chainId: 8453, amount: `${whole}.${fraction}`, window: '24h' };
          const rules = [...Array<RuleInput>(before).fill(good), bad, { type: 'require_approvals', above: { asset: 'NOPE', chainId: 8453, amount: '1' }, approvals: 1 } as RuleInput];
          const checked = checkRules(rules, assetsWith([d]), null);
          assert.ok('errors' in checked);
          assert.deepEqual(
            checked.errors.map((e) => [e.pointer, e.code]),
            [
              [`/rules/${before}/amount`, 'too_many_decimals'],
              [`/rules/${before + 1}/above/asset`, 'unknown_asset'],
            ],
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('require_approvals: more than 1 is refused on an individual account only', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.constantFrom<Coverage>(null, { accountType: 'individual' }, { accountType: 'entity' }), (approvals, coverage) => {
        const checked = checkRules([{ type: 'require_approvals', above: { asset: 'ETH', chainId: 8453, amount: '1' }, approvals }], assetsWith([]), coverage);
        const refused = coverage?.accountType === 'individual' && approvals > 1;
        assert.equal('errors' in checked, refused);
        if ('errors' in checked) assert.deepEqual(checked.errors.map((e) => e.pointer), ['/rules/0/approvals']);
      }),
    );
  });

  it('refuses a chain the deployment does not have at chainId, and keeps addresses in lower case, once each', () => {
    const other = checkRules([{ type: 'max_amount', asset: 'ETH', chainId: 1, amount: '1', window: '7d' }], assetsWith([]), null);
    assert.ok('errors' in other);
    assert.deepEqual(other.errors.map((e) => [e.pointer, e.code]), [['/rules/0/chainId', 'unsupported_chain']]);
    const a = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    const listed = checkRules([{ type: 'allowed_destinations', addresses: [a, a.toLowerCase()] }], assetsWith([]), null);
    assert.ok('rules' in listed);
    assert.deepEqual(listed.rules, [{ type: 'allowed_destinations', addresses: [a.toLowerCase()] }]);
  });
});
