import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseCamt053 } from '../../../src/domain/reconciliation/camt053.js';
import { entry, statementXml } from './helpers.js';

/**
 * Amounts written as banks write them (leading zeros, trailing zeros past the minor unit, no fraction at all) come
 * out of the parser as the exact minor units they were made from, at the entry and in a batch's transactions, in
 * both versions, for currencies of 0, 2, 3 and 4 decimals, up to 18 significant digits (camt's totalDigits).
 * The decimal text is written here digit by digit, not with the module's own formatMinor.
 */

const DIGITS: Record<string, number> = { JPY: 0, EUR: 2, USD: 2, KWD: 3, CLF: 4 };

const written = fc.record({
  currency: fc.constantFrom(...Object.keys(DIGITS)),
  minor: fc.bigInt({ min: 0n, max: 10n ** 18n - 1n }),
  leadingZeros: fc.integer({ min: 0, max: 2 }),
  trailingZeros: fc.integer({ min: 0, max: 3 }),
  dropZeroFraction: fc.boolean(),
});

type Written = typeof written extends fc.Arbitrary<infer T> ? T : never;

/** The decimal text for minor units, and what the parser must call it (no leading zeros, the currency's decimals). */
function decimal({ currency, minor, leadingZeros, trailingZeros, dropZeroFraction }: Written) {
  const d = DIGITS[currency]!;
  const digits = minor.toString().padStart(d + 1, '0');
  const whole = d === 0 ? digits : digits.slice(0, -d);
  const fraction = d === 0 ? '' : digits.slice(-d);
  const canonical = fraction ? `${whole}.${fraction}` : whole;
  const longFraction = fraction + '0'.repeat(trailingZeros);
  const text = '0'.repeat(leadingZeros) + whole + (longFraction === '' || (dropZeroFraction && /^0*$/.test(longFraction)) ? '' : `.${longFraction}`);
  return { text, canonical };
}

describe('camt.053 amounts round-trip exactly through minor units', () => {
  for (const version of ['001.02', '001.08'] as const) {
    it(`${version}: at the entry and in a batch's transactions`, () => {
      fc.assert(
        fc.property(written, written, (a, b) => {
          const entryAmount = decimal(a);
          const txAmount = decimal({ ...b, currency: a.currency });
          // 001.02 gives a transaction's amount as AmtDtls/TxAmt/Amt, 001.08 as TxDtls/Amt.
          const amt = `<Amt Ccy="${a.currency}">${txAmount.text}</Amt>`;
          const txAmt = version === '001.02' ? `<AmtDtls><TxAmt>${amt}</TxAmt></AmtDtls>` : amt;
          const tx = `<TxDtls>${txAmt}</TxDtls>`;
          const xml = statementXml(version, entry(version, { amount: entryAmount.text, currency: a.currency }) + entry(version, { amount: entryAmount.text, currency: a.currency, transactions: [tx, tx] }), { currency: a.currency });
          const lines = parseCamt053(xml).statements[0]!.lines;
          assert.deepEqual(
            lines.map((l) => [l.amountMinor, l.amount, l.currency]),
            [
              [a.minor, entryAmount.canonical, a.currency],
              [b.minor, txAmount.canonical, a.currency],
              [b.minor, txAmount.canonical, a.currency],
            ],
          );
        }),
        { numRuns: 150 },
      );
    });
  }
});
