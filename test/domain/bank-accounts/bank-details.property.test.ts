import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkBankDetails, checkIban, isValidRoutingNumber, isValidUsAccountNumber, type BankAccountInput } from '../../../src/domain/bank-accounts/bank-details.js';
import { expectedHolderNames, holderNameMatches } from '../../../src/domain/bank-accounts/holder-name.js';

const RUNS = Number(process.env.BANK_DETAILS_RUNS ?? 200);

// Published examples: the IBAN registry's (SWIFT) and the banks' own, and the Federal Reserve's routing directory.
const SEPA_IBANS = [
  'DE89370400440532013000',
  'GB82WEST12345698765432',
  'FR1420041010050500013M02606',
  'NL91ABNA0417164300',
  'ES9121000418450200051332',
  'BE68539007547034',
  'IT60X0542811101000000123456',
  'CH9300762011623852957',
  'AT611904300234573201',
];
const NON_SEPA_IBANS = ['BR1800360305000010009795493C1', 'SA0380000000608010167519', 'TR330006100519786457841326'];
const ROUTING_NUMBERS = ['021000021', '011000015', '026009593', '121000358', '111000025', '322271627', '063100277', '091000019'];

/** Every string that differs from `value` in exactly one digit (the typo a checksum must catch). */
function singleDigitMutations(value: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < value.length; i++) {
    if (!/[0-9]/.test(value[i]!)) continue;
    for (let d = 0; d <= 9; d++) if (String(d) !== value[i]) out.push(value.slice(0, i) + d + value.slice(i + 1));
  }
  return out;
}

const ok = (iban: string) => 'iban' in checkIban(iban, '/iban');

describe('bank details', () => {
  it('accepts the published SEPA IBANs, with or without spaces and in lower case', () => {
    for (const iban of SEPA_IBANS) {
      assert.ok(ok(iban), iban);
      assert.ok(ok(iban.replace(/(.{4})/g, '$1 ').toLowerCase()), `${iban} spaced`);
    }
  });

  it('refuses every single-digit mutation of them (mod 97), and valid IBANs from outside SEPA', () => {
    for (const iban of SEPA_IBANS) for (const m of singleDigitMutations(iban)) assert.ok(!ok(m), m);
    for (const iban of NON_SEPA_IBANS) {
      const result = checkIban(iban, '/iban');
      assert.ok('errors' in result && result.errors[0]!.code === 'iban_not_sepa', iban);
    }
  });

  it('accepts the published routing numbers and refuses every single-digit mutation (3-7-1 checksum)', () => {
    for (const r of ROUTING_NUMBERS) {
      assert.ok(isValidRoutingNumber(r), r);
      for (const m of singleDigitMutations(r)) assert.ok(!isValidRoutingNumber(m), m);
    }
  });

  it('US account numbers are 4 to 17 digits', () => {
    assert.ok(isValidUsAccountNumber('0001') && isValidUsAccountNumber('1'.repeat(17)));
    for (const bad of ['123', '1'.repeat(18), '12345a', ' 12345', '１２３４５']) assert.ok(!isValidUsAccountNumber(bad), bad);
  });

  it('never throws on arbitrary strings, and reports only the fields of the body', () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.stringMatching(/^[A-Z]{2}[0-9]{2}[A-Z0-9 ]{0,30}$/));
    fc.assert(
      fc.property(
        fc.record({
          currency: fc.constantFrom('USD' as const, 'EUR' as const),
          accountHolderName: text,
          bankName: fc.option(text, { nil: undefined }),
          us: fc.option(fc.record({ accountNumber: text, routingNumber: text, accountType: fc.constantFrom('checking' as const, 'savings' as const) }), { nil: undefined }),
          iban: fc.option(fc.record({ iban: text, bic: fc.option(text, { nil: undefined }) }), { nil: undefined }),
        }),
        (body) => {
          const result = checkBankDetails({ accountId: '00000000-0000-0000-0000-000000000000', ...body } as BankAccountInput);
          if ('errors' in result) {
            assert.ok(result.errors.length > 0);
            for (const e of result.errors) assert.match(e.pointer, /^\/(accountHolderName|bankName|us|iban|address)(\/|$)/);
          } else {
            assert.ok(result.details.last4.length === 4);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('a holder name matches whatever its case, accents, punctuation and word order', () => {
    const expected = expectedHolderNames({ userInfo: { firstName: 'José', middleName: 'Luis', lastName: 'Núñez-García' }, entityInfo: null });
    fc.assert(
      fc.property(fc.shuffledSubarray(['jose', 'NUNEZ', 'garcía'], { minLength: 3, maxLength: 3 }), fc.constantFrom(' ', ', ', ' - ', '.  '), (words, sep) => {
        assert.ok(holderNameMatches(words.join(sep), expected), words.join(sep));
      }),
      { numRuns: RUNS },
    );
    assert.ok(holderNameMatches('Jose Luis Nunez Garcia', expected));
    assert.ok(!holderNameMatches('Jose Nunez', expected), 'a missing surname is another name');
    assert.ok(!holderNameMatches('', expected) && !holderNameMatches('---', expected));
    assert.ok(holderNameMatches('ACME ROBOTICS INC', expectedHolderNames({ userInfo: null, entityInfo: { businessLegalName: 'Acme Robotics, Inc.' } })));
  });
});
