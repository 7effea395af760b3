import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_WEI_PER_UNIT, parseBankDetails, parseRates, parseTreasuryKey, SANDBOX_BANKS, type DepositConfig } from '../../../src/domain/deposits/deposit-config.js';
import { AMOUNT_PATTERN, toCents, weiFor } from '../../../src/domain/deposits/deposits.js';

const amount = new RegExp(AMOUNT_PATTERN);
const config: DepositConfig = { banks: SANDBOX_BANKS, weiPerUnit: DEFAULT_WEI_PER_UNIT, tokenRates: new Map(), sandboxRates: true, treasuryKey: undefined, expiryMs: 168 * 3_600_000 };

/** The ways an integrator may write an amount of cents: "12", "12.3", "12.30". */
const written = fc.bigInt({ min: 0n, max: 10n ** 14n - 1n }).chain((cents) => {
  const whole = (cents / 100n).toString();
  const fraction = (cents % 100n).toString().padStart(2, '0');
  const forms = [`${whole}.${fraction}`];
  if (fraction.endsWith('0')) forms.push(`${whole}.${fraction[0]}`);
  if (fraction === '00') forms.push(whole);
  return fc.constantFrom(...forms).map((text) => ({ cents, text }));
});

describe('deposit amounts', () => {
  it('every well-formed amount matches the pattern and converts to its exact cents (no floating point)', () => {
    fc.assert(
      fc.property(written, ({ cents, text }) => {
        assert.ok(amount.test(text), text);
        assert.equal(toCents(text), cents);
      }),
    );
  });

  it('refuses what is not a plain decimal with at most two decimals', () => {
    for (const bad of ['', '1.234', '01', '1.', '.5', '-1', '+1', '1e3', '1,00', ' 1', '1 ', '0x10', '１', '1000000000000', 'NaN', 'Infinity']) {
      assert.ok(!amount.test(bad), JSON.stringify(bad));
    }
    fc.assert(
      fc.property(fc.string(), (text) => {
        if (amount.test(text)) assert.match(text, /^\d+(\.\d{1,2})?$/);
      }),
    );
  });

  it('converts to wei exactly and monotonically at the configured rate', () => {
    fc.assert(
      fc.property(written, written, (a, b) => {
        const [x, y] = [weiFor(a.text, 'USD', config), weiFor(b.text, 'USD', config)];
        assert.equal(x, (a.cents * DEFAULT_WEI_PER_UNIT.USD) / 100n);
        if (a.cents <= b.cents) assert.ok(x <= y);
      }),
    );
    assert.equal(weiFor('1', 'EUR', config), DEFAULT_WEI_PER_UNIT.EUR);
  });
});

describe('deposit configuration', () => {
  it('parses bank details, requiring what each currency needs and refusing unknown fields', () => {
    const usd = parseBankDetails(JSON.stringify({ bank_name: 'B', bank_beneficiary_name: 'C', bank_account_number: '1', bank_routing_number: '2' }), 'USD');
    assert.deepEqual(usd.payment_rails, ['ach', 'wire']);
    assert.equal(usd.iban_number, '');
    const eur = parseBankDetails(JSON.stringify({ bank_name: 'B', bank_beneficiary_name: 'C', iban_number: 'DE89370400440532013000', iban_bic: 'COBADEFFXXX', payment_rails: ['sepa', 'sepa_instant'] }), 'EUR');
    assert.deepEqual(eur.payment_rails, ['sepa', 'sepa_instant']);
    for (const [raw, currency] of [
      ['{', 'USD'],
      ['[]', 'USD'],
      [JSON.stringify({ bank_name: 'B', bank_beneficiary_name: 'C' }), 'USD'],
      [JSON.stringify({ bank_name: 'B', bank_beneficiary_name: 'C', bank_account_number: '1', bank_routing_number: '2' }), 'EUR'],
      [JSON.stringify({ bank_name: 'B', bank_beneficiary_name: 'C', bank_account_number: '1', bank_routing_number: '2', swift: 'x' }), 'USD'],
      [JSON.stringify({ bank_name: 'B', bank_beneficiary_name: 'C', bank_account_number: 1, bank_routing_number: '2' }), 'USD'],
      [JSON.stringify({ bank_name: 'B', bank_beneficiary_name: 'C', bank_account_number: '1', bank_routing_number: '2', payment_rails: [] }), 'USD'],
    ] as const) {
      assert.throws(() => parseBankDetails(raw, currency), Error, raw);
    }
  });

  it('parses rates and treasury keys', () => {
    assert.deepEqual(parseRates('USD=5'), { ...DEFAULT_WEI_PER_UNIT, USD: 5n });
    assert.deepEqual(parseRates(''), DEFAULT_WEI_PER_UNIT);
    for (const bad of ['USD=0', 'GBP=1', 'USD=1.5', 'USD', 'USD=-1']) assert.throws(() => parseRates(bad), Error, bad);
    assert.equal(parseTreasuryKey('AB'.repeat(32)), `0x${'ab'.repeat(32)}`);
    for (const bad of ['0x12', '0'.repeat(64), 'zz'.repeat(32)]) assert.throws(() => parseTreasuryKey(bad), Error, bad);
  });
});
