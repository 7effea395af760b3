import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkUboTotal, validateBeneficiaryDetails } from '../../../src/domain/onboarding/validation/beneficiary.js';
import { assertOnly, assertValid } from './fixtures.js';

const P = '/beneficiaryDetails';
const check = (details: unknown) => validateBeneficiaryDetails(details, P);

describe('validateBeneficiaryDetails', () => {
  it('accepts a UBO, a representative, and someone who is both', () => {
    assertValid(check({ beneficiaryType: ['ubo'], ownershipPercentage: 40 }));
    assertValid(check({ beneficiaryType: ['ubo'], ownershipPercentage: 100, title: null }));
    assertValid(check({ beneficiaryType: ['representative'], title: 'Chief Financial Officer', ownershipPercentage: null }));
    assertValid(check({ beneficiaryType: ['representative'], title: 'Director', ownershipPercentage: 10 }));
    assertValid(check({ beneficiaryType: ['ubo', 'representative'], title: 'CEO', ownershipPercentage: 25.01 }));
  });

  it('beneficiaryType is a non-empty list of distinct known values', () => {
    assertOnly(check({ beneficiaryType: [] }), `${P}/beneficiaryType`, 'required');
    assertOnly(check({ ownershipPercentage: 40 }), `${P}/beneficiaryType`, 'required');
    assertOnly(check({ beneficiaryType: 'ubo', ownershipPercentage: 40 }), `${P}/beneficiaryType`, 'invalid_type');
    assertOnly(check({ beneficiaryType: ['ubo', 'ubo'], ownershipPercentage: 40 }), `${P}/beneficiaryType`, 'duplicate_items');
    assertOnly(check({ beneficiaryType: ['ubo', 'director'], ownershipPercentage: 40 }), `${P}/beneficiaryType/1`, 'invalid_value');
    assertOnly(check({ beneficiaryType: ['UBO'] }), `${P}/beneficiaryType/0`, 'invalid_value');
  });

  it('a UBO owns more than 25% and at most 100%', () => {
    assertOnly(check({ beneficiaryType: ['ubo'] }), `${P}/ownershipPercentage`, 'required');
    assertOnly(check({ beneficiaryType: ['ubo'], ownershipPercentage: null }), `${P}/ownershipPercentage`, 'required');
    for (const p of [25, 0, -5, 100.01, 250]) assertOnly(check({ beneficiaryType: ['ubo'], ownershipPercentage: p }), `${P}/ownershipPercentage`, 'out_of_range');
    assertOnly(check({ beneficiaryType: ['ubo'], ownershipPercentage: '40' }), `${P}/ownershipPercentage`, 'invalid_type');
    assertOnly(check({ beneficiaryType: ['representative'], title: 'CEO', ownershipPercentage: 101 }), `${P}/ownershipPercentage`, 'out_of_range');
  });

  it('a representative has a title', () => {
    assertOnly(check({ beneficiaryType: ['representative'] }), `${P}/title`, 'required');
    assertOnly(check({ beneficiaryType: ['representative'], title: '  ' }), `${P}/title`, 'required');
    assertOnly(check({ beneficiaryType: ['representative'], title: 7 }), `${P}/title`, 'invalid_type');
  });

  it('a non-object is one error', () => {
    assertOnly(check(['ubo']), P, 'invalid_type');
    assertOnly(check(undefined), P, 'required');
  });
});

describe('checkUboTotal', () => {
  it('allows exactly 100% with decimals that do not add up exactly in floating point', () => {
    assert.equal(0.1 + 0.2 > 0.3, true); // the reason for summing in hundredths
    assertValid(checkUboTotal([33.34, 33.33, 33.33], P));
    assertValid(checkUboTotal([70.1, 29.9], P));
    assertValid(checkUboTotal([], P));
    assertOnly(checkUboTotal([50, 50.01], P), P, 'ownership_exceeds_100');
    assertOnly(checkUboTotal([60, 30, 30], '/beneficiaryDetails/ownershipPercentage'), '/beneficiaryDetails/ownershipPercentage', 'ownership_exceeds_100');
  });

  it('property: the verdict matches an exact sum in hundredths', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 2501, max: 10000 }), { maxLength: 5 }), (hundredths) => {
        const errors = checkUboTotal(hundredths.map((h) => h / 100), P);
        const total = hundredths.reduce((a, b) => a + b, 0);
        if (total <= 10000) assertValid(errors);
        else assertOnly(errors, P, 'ownership_exceeds_100');
      }),
    );
  });
});
