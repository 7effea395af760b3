import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PRODUCT_IDS, PRODUCTS, type CountryRule } from '../../../src/domain/products/catalogue.js';
import { ineligibility, type AccountFacts } from '../../../src/domain/products/eligibility.js';
import { parseCountryRules, parseOfferedProducts } from '../../../src/domain/products/product-config.js';
import { VERIFICATION_STATUSES } from '../../../src/db/schema/index.js';

const COUNTRIES = ['USA', 'DEU', 'CAN', 'FRA'];

const facts: fc.Arbitrary<AccountFacts> = fc.record({
  type: fc.constantFrom('individual' as const, 'entity' as const),
  verificationStatus: fc.constantFrom(...VERIFICATION_STATUSES, null),
  country: fc.constantFrom(...COUNTRIES, null),
  custody: fc.constantFrom('custodial' as const, 'self_custodial' as const, null),
  hasWallet: fc.boolean(),
});
const rule = fc.option(
  fc.oneof(
    fc.subarray(COUNTRIES, { minLength: 1 }).map((allowed): CountryRule => ({ allowed })),
    fc.subarray(COUNTRIES, { minLength: 1 }).map((excluded): CountryRule => ({ excluded })),
  ),
  { nil: undefined },
);

describe('product eligibility (property-based)', () => {
  it('each reason appears exactly when its condition holds, and eligibility needs none', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PRODUCT_IDS), rule, facts, (id, countryRule, f) => {
        const product = PRODUCTS[id];
        const reasons = ineligibility(product, countryRule, f);
        assert.equal(reasons.includes('verification_not_active'), f.verificationStatus !== 'active');
        assert.equal(reasons.includes('country_unknown'), countryRule !== undefined && f.country === null);
        const country = f.country;
        const outside = countryRule !== undefined && country !== null && ('allowed' in countryRule ? !countryRule.allowed.includes(country) : countryRule.excluded.includes(country));
        assert.equal(reasons.includes('country_not_supported'), outside);
        assert.equal(reasons.includes('self_custodial_account'), product.custodialWalletRequired && f.custody === 'self_custodial');
        assert.equal(reasons.includes('wallet_missing'), product.custodialWalletRequired && f.custody !== 'self_custodial' && !f.hasWallet);
        assert.equal(new Set(reasons).size, reasons.length, 'no reason twice');
      }),
    );
  });
});

describe('product configuration', () => {
  it('PRODUCTS defaults to every product and refuses unknown ones', () => {
    assert.deepEqual(parseOfferedProducts(undefined), [...PRODUCT_IDS]);
    assert.deepEqual(parseOfferedProducts('yield_vaults, custodial_wallet'), ['yield_vaults', 'custodial_wallet']);
    assert.throws(() => parseOfferedProducts('yield_vaults,moon'), /unknown product\(s\) moon/);
  });

  it('PRODUCT_COUNTRIES reads allowed and excluded lists and refuses what it cannot read', () => {
    assert.deepEqual(parseCountryRules('yield_vaults=!USA,CAN; fiat_withdrawals=DEU'), { yield_vaults: { excluded: ['USA', 'CAN'] }, fiat_withdrawals: { allowed: ['DEU'] } });
    for (const bad of ['yield_vaults=US', 'moon=USA', 'yield_vaults', 'yield_vaults=USA;yield_vaults=DEU', 'yield_vaults=']) assert.throws(() => parseCountryRules(bad), Error, bad);
  });
});
