import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { parseTokenRates, tokenRate, tokenUnitsFor } from '../../../src/domain/tokens/token-rates.js';
import type { Token } from '../../../src/domain/tokens/token-registry.js';
import { quote } from '../../../src/domain/withdrawals/create-withdrawal.js';

// Fiat-to-token rates (docs/tokens.md#rates): the format, the sandbox's 1:1 for a currency's stablecoins, the rounding.

describe('token rates', () => {
  it('parses CURRENCY:SYMBOL=rate, keyed in upper case; refuses what is not one, zero and twice the same pair', () => {
    assert.deepEqual([...parseTokenRates(' USD:usdc=1, EUR:USDC=1.08 ,')], [['USD:USDC', '1'], ['EUR:USDC', '1.08']]);
    for (const bad of ['USD=1', 'GBP:USDC=1', 'USD:USDC=0', 'USD:USDC=0.000', 'USD:USDC=-1', 'USD:USDC=1e3', 'USD:USDC=1.0000000000000000001', 'USD:USDC=1,USD:usdc=2']) {
      assert.throws(() => parseTokenRates(bad), Error, bad);
    }
  });

  it('a configured rate wins; sandbox alone defaults a stablecoin of the currency to 1', () => {
    const rates = parseTokenRates('EUR:USDC=1.08');
    assert.equal(tokenRate(rates, 'EUR', 'usdc', false), '1.08');
    assert.equal(tokenRate(rates, 'USD', 'USDC', true), '1');
    assert.equal(tokenRate(rates, 'EUR', 'EURC', true), '1');
    assert.equal(tokenRate(rates, 'USD', 'USDC', false), undefined);
    assert.equal(tokenRate(rates, 'USD', 'EURC', true), undefined);
  });

  it('deposits round down, withdrawals up, to the base unit', () => {
    assert.equal(tokenUnitsFor(1234n, '1', 6, 'down'), 12_340_000n);
    assert.equal(tokenUnitsFor(1n, '0.333333333', 6, 'down'), 3_333n);
    assert.equal(tokenUnitsFor(1n, '0.333333333', 6, 'up'), 3_334n);
    assert.equal(tokenUnitsFor(100n, '1.08', 2, 'up'), 108n);
  });

  it('a token withdrawal’s quote carries the rate it applied to amount + fee (withdrawal.rate); a native one has none', () => {
    const config = loadConfig({ APP_ENV: 'sandbox', WITHDRAWAL_TOKEN_RATES: 'USD:USDC=0.98' }).withdrawals;
    const usdc = { symbol: 'USDC', decimals: 6 } as Token;
    const { fee, crypto } = quote('100.00', 'USD', usdc, config);
    assert.deepEqual([fee, crypto.rate, crypto.tokenAmount], ['0.50', '0.98', 98_490_000n], '100.50 USD at 0.98 USDC per USD');
    assert.equal(quote('100.00', 'USD', undefined, config).crypto.rate, undefined);
  });

  it('bad DEPOSIT_TOKEN_RATES and WITHDRAWAL_TOKEN_RATES are named together at start; the withdrawal rates default to the deposit ones', () => {
    assert.throws(
      () => loadConfig({ DEPOSIT_TOKEN_RATES: 'USD:USDC=x', WITHDRAWAL_TOKEN_RATES: 'USDC=1' }),
      (err: unknown) => err instanceof ConfigError && err.problems.some((p) => p.startsWith('DEPOSIT_TOKEN_RATES')) && err.problems.some((p) => p.startsWith('WITHDRAWAL_TOKEN_RATES')),
    );
    const config = loadConfig({ DEPOSIT_TOKEN_RATES: 'USD:USDC=0.99' });
    assert.equal(config.withdrawals.tokenRates.get('USD:USDC'), '0.99');
  });
});
