import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseUnits } from 'viem';
import { annualisedYield, startsWindow } from '../../../src/domain/vaults/apy.js';
import { toBaseUnits } from '../../../src/domain/tokens/amounts.js';
import { parseVaults, vaultIdOf } from '../../../src/domain/vaults/vault-config.js';
import { ApiError } from '../../../src/domain/errors.js';

const DAY = 86_400_000;
const t0 = new Date('2026-01-01T00:00:00Z');
const at = (days: number) => new Date(t0.getTime() + days * DAY);
const price = fc.bigInt({ min: 1n, max: 10n ** 30n });

describe('vault APY (property-based)', () => {
  it('a flat share price yields 0; a rising one a positive APY; a falling one a negative APY above -1', () => {
    fc.assert(
      fc.property(price, fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 10_000 }), (p, days, bps) => {
        assert.equal(annualisedYield({ assetsPerShare: p * 10_000n, at: t0 }, { assetsPerShare: p * 10_000n, at: at(days) }), 0);
        const up = annualisedYield({ assetsPerShare: p * 10_000n, at: t0 }, { assetsPerShare: p * (10_000n + BigInt(bps)), at: at(days) });
        assert.ok(up === null || up > 0, String(up));
        const down = annualisedYield({ assetsPerShare: p * 10_000n, at: t0 }, { assetsPerShare: p * (10_000n - BigInt(bps)), at: at(days) });
        assert.ok(down !== null && down <= 0 && down >= -1, String(down));
      }),
    );
  });

  it('compounds over a year: 1 % over 365 days is 0.01; 10 % in 7 days is (1.1)^(365/7) - 1', () => {
    assert.equal(annualisedYield({ assetsPerShare: 1_000_000n, at: t0 }, { assetsPerShare: 1_010_000n, at: at(365) }), 0.01);
    const weekly = annualisedYield({ assetsPerShare: 1_000_000n, at: t0 }, { assetsPerShare: 1_100_000n, at: at(7) })!;
    assert.ok(Math.abs(weekly - (Math.pow(1.1, 365 / 7) - 1)) < 1e-5, String(weekly));
  });

  it('no APY without elapsed time or from a zero price; a window starts at a snapshot at least N and at most 2N days old', () => {
    assert.equal(annualisedYield({ assetsPerShare: 1n, at: t0 }, { assetsPerShare: 2n, at: t0 }), null);
    assert.equal(annualisedYield({ assetsPerShare: 0n, at: t0 }, { assetsPerShare: 2n, at: at(7) }), null);
    assert.equal(startsWindow(t0, at(6.99), 7), false);
    assert.equal(startsWindow(t0, at(7), 7), true);
    assert.equal(startsWindow(t0, at(14), 7), true);
    assert.equal(startsWindow(t0, at(14.01), 7), false);
  });
});

describe('vault amounts and configuration', () => {
  it('toBaseUnits is parseUnits for every amount within the decimals, and refuses zero and extra decimals naming the field', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 40n }), fc.integer({ min: 0, max: 18 }), (units, decimals) => {
        const s = units.toString().padStart(decimals + 1, '0');
        const amount = decimals === 0 ? s : `${s.slice(0, -decimals)}.${s.slice(-decimals)}`;
        assert.equal(toBaseUnits(amount, decimals, '/amount'), units);
        assert.equal(toBaseUnits(amount, decimals, '/amount'), parseUnits(amount, decimals));
      }),
    );
    for (const [amount, code] of [
      ['0', 'invalid_value'],
      ['0.000', 'invalid_value'],
      ['1.0000001', 'too_many_decimals'],
    ] as const) {
      assert.throws(
        () => toBaseUnits(amount, 6, '/amount'),
        (err: unknown) => err instanceof ApiError && err.code === 'validation_failed' && JSON.stringify(err).includes(code) && JSON.stringify(err).includes('/amount'),
        amount,
      );
    }
  });

  it('VAULTS: chainId:address pairs on configured chains; ids derived from chain and address, case-insensitive', () => {
    const a = `0x${'ab'.repeat(20)}`;
    assert.deepEqual(parseVaults(`8453:${a.toUpperCase().replace('0X', '0x')}, 1:${a}`, new Set([1, 8453])), [
      { chainId: 8453, address: a },
      { chainId: 1, address: a },
    ]);
    assert.equal(vaultIdOf(8453, a), vaultIdOf(8453, a.toUpperCase().replace('0X', '0x')));
    assert.notEqual(vaultIdOf(8453, a), vaultIdOf(1, a));
    assert.deepEqual(parseVaults('', new Set()), []);
    assert.throws(() => parseVaults(`10:${a}`, new Set([1])), /chain 10 is not in CHAIN_RPC_URLS/);
    assert.throws(() => parseVaults('1:0x1234', new Set([1])), /is not chainId:0x/);
    assert.throws(() => parseVaults(`1:${a},1:${a}`, new Set([1])), /listed twice/);
  });
});
