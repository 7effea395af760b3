import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { COUNTRY_CODES } from '../../../src/domain/onboarding/reference/index.js';
import { validateAddress } from '../../../src/domain/onboarding/validation/address.js';
import { assertOnly, assertValid, deAddress, gbAddress, jpAddress, usAddress, withField } from './fixtures.js';

const P = '/userInfo/residentialAddress';

describe('validateAddress', () => {
  it('accepts realistic addresses in the US, Germany, the UK and Japan', () => {
    for (const address of [usAddress(), deAddress(), gbAddress(), jpAddress()]) assertValid(validateAddress(address, P));
    assertValid(validateAddress({ ...gbAddress(), state: 'GB-LND', postalCode: 'sw1a2aa' }, P));
    assertValid(validateAddress({ ...usAddress(), postalCode: '94105-1234', streetLine2: null }, P));
    // A country postcode-validator has no pattern for: only non-blank is required.
    assertValid(validateAddress({ streetLine1: '1 Queen\'s Road', city: 'Hong Kong', postalCode: '000000', country: 'HKG' }, P));
    // A nested subdivision (a district of Nakhchivan, whose parent is AZ-NX) still belongs to AZ.
    assertValid(validateAddress({ streetLine1: 'Heydar Aliyev 1', city: 'Babek', state: 'AZ-BAB', postalCode: '7000', country: 'AZE' }, P));
  });

  it('country must be a supported alpha-3 code', () => {
    assertOnly(validateAddress({ ...deAddress(), country: 'DE', state: null }, P), `${P}/country`, 'invalid_value');
    assertOnly(validateAddress({ ...deAddress(), country: 'IRN', state: null }, P), `${P}/country`, 'invalid_value');
    assertOnly(validateAddress({ ...deAddress(), country: 'deu', state: null }, P), `${P}/country`, 'invalid_value');
    assertOnly(validateAddress(withField(deAddress(), ['country'], undefined), P), `${P}/country`, 'required');
    assertOnly(validateAddress({ ...deAddress(), country: 276 }, P), `${P}/country`, 'invalid_type');
  });

  it('a US address needs a US subdivision code as state', () => {
    assertOnly(validateAddress({ ...usAddress(), state: null }, P), `${P}/state`, 'required');
    assertOnly(validateAddress(withField(usAddress(), ['state'], undefined), P), `${P}/state`, 'required');
    assertOnly(validateAddress({ ...usAddress(), state: '  ' }, P), `${P}/state`, 'required');
    for (const state of ['CA', 'California', 'us-ca', 'US-XX', 'DE-BE', 'CA-ON']) {
      assertOnly(validateAddress({ ...usAddress(), state }, P), `${P}/state`, 'invalid_subdivision');
    }
    assertValid(validateAddress({ ...usAddress(), state: 'US-DC', postalCode: '20500' }, P));
  });

  it('a state given for another country must be one of its subdivisions', () => {
    assertOnly(validateAddress({ ...deAddress(), state: 'US-CA' }, P), `${P}/state`, 'invalid_subdivision');
    assertOnly(validateAddress({ ...jpAddress(), state: 'JP-99' }, P), `${P}/state`, 'invalid_subdivision');
    assertOnly(validateAddress({ ...deAddress(), state: 12 }, P), `${P}/state`, 'invalid_type');
    // Hong Kong has no ISO 3166-2 subdivisions of its own.
    assertOnly(validateAddress({ streetLine1: '1 Queen\'s Road', city: 'Hong Kong', state: 'CN-HK', postalCode: '000000', country: 'HKG' }, P), `${P}/state`, 'invalid_subdivision');
  });

  it('postal codes are checked against the country pattern', () => {
    assertOnly(validateAddress({ ...usAddress(), postalCode: '9410' }, P), `${P}/postalCode`, 'invalid_postal_code');
    assertOnly(validateAddress({ ...deAddress(), postalCode: '1011' }, P), `${P}/postalCode`, 'invalid_postal_code');
    assertOnly(validateAddress({ ...gbAddress(), postalCode: '12345' }, P), `${P}/postalCode`, 'invalid_postal_code');
    assertOnly(validateAddress({ ...jpAddress(), postalCode: '10115' }, P), `${P}/postalCode`, 'invalid_postal_code');
    // Checked as given: surrounding whitespace is not trimmed away.
    assertOnly(validateAddress({ ...usAddress(), postalCode: ' 94105' }, P), `${P}/postalCode`, 'invalid_postal_code');
    assertOnly(validateAddress({ ...usAddress(), postalCode: '9'.repeat(17) }, P), `${P}/postalCode`, 'invalid_postal_code');
  });

  it('blank or missing required lines are `required`', () => {
    for (const field of ['streetLine1', 'city', 'postalCode']) {
      assertOnly(validateAddress({ ...usAddress(), [field]: ' \t' }, P), `${P}/${field}`, 'required');
      assertOnly(validateAddress(withField(usAddress(), [field], undefined), P), `${P}/${field}`, 'required');
      assertOnly(validateAddress({ ...usAddress(), [field]: 7 }, P), `${P}/${field}`, 'invalid_type');
    }
    assertOnly(validateAddress({ ...usAddress(), streetLine2: false }, P), `${P}/streetLine2`, 'invalid_type');
  });

  it('a non-object address is one error at the address itself', () => {
    assertOnly(validateAddress(null, P), P, 'required');
    assertOnly(validateAddress('1 Market St', P), P, 'invalid_type');
    assertOnly(validateAddress([usAddress()], P), P, 'invalid_type');
  });

  it('pointer tokens are escaped', () => {
    assertOnly(validateAddress({ ...usAddress(), city: '' }, '/a~b/c~1d'), '/a~b/c~1d/city', 'required');
  });

  it('property: any supported country with no state and a non-blank code either passes or reports only the postal code', () => {
    fc.assert(
      fc.property(fc.constantFrom(...COUNTRY_CODES.filter((c) => c !== 'USA')), fc.string({ minLength: 1, maxLength: 12 }), (country, postalCode) => {
        const errors = validateAddress({ streetLine1: 'x', city: 'y', postalCode, country }, P);
        assert.ok(errors.every((e) => ['invalid_postal_code', 'required'].includes(e.code) && e.pointer === `${P}/postalCode`));
        assert.ok(errors.length <= 1);
      }),
      { numRuns: 300 },
    );
  });
});
