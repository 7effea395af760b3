import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { iso31661 } from 'iso-3166';
import {
  ANNUAL_REVENUE_RANGES_USD,
  COUNTRY_CODES,
  DEFAULT_HIGH_RISK_COUNTRIES,
  DOCUMENT_TYPES,
  ENTITY_DOCUMENT_TYPES,
  MONTHLY_PAYMENT_RANGES_USD,
  OCCUPATION_CODES,
  OCCUPATION_NAMES,
  REQUIRED_ENTITY_DOCUMENT_GROUPS,
  USER_DOCUMENT_TYPES,
  alpha2Of,
  documentTypeKind,
  isCountryCode,
  parseHighRiskCountries,
} from '../../../src/domain/onboarding/reference/index.js';
import { isIntegerRange } from '../../../src/domain/onboarding/validation/formats.js';

const SPEC_COUNTRIES =
  'ABW AFG AGO ALB AND ARG ARM AUS AUT AZE BEL BGD BGR BHR BHS BIH BLZ BMU BOL BRA BRB BWA CAN CHL CHN CIV CMR COL COM CRI CUW CXR CYM CYP CZE DEU DMA DNK DOM DZA ECU EGY ESP EST ETH FIN FJI FRA GBR GEO GHA GIB GRC GTM HKG HND HRV HTI HUN IDN IMN IND IRL IRQ ISL ISR ITA JAM JOR JPN KAZ KEN KGZ KHM KNA KOR KWT LAO LBN LBR LCA LKA LTU LUX LVA MAR MCO MDA MDG MEX MHL MKD MLT MNE MOZ MRT MUS MWI MYS NAM NGA NIC NLD NOR NPL NZL OMN PAN PER PHL PAK POL PRT QAT ROU RUS SAU SEN SGP SMR SVK SVN ZAF SWE CHE THA TUN TUR UGA UKR ARE USA URY UZB VEN VNM YEM ZMB ZWE';

describe('reference data', () => {
  it('COUNTRY_CODES is exactly the spec list, in the spec order', () => {
    assert.deepEqual([...COUNTRY_CODES], SPEC_COUNTRIES.split(' '));
    assert.equal(new Set(COUNTRY_CODES).size, COUNTRY_CODES.length);
  });

  it('every country code maps to the alpha-2 code iso-3166 pairs it with', () => {
    for (const alpha3 of COUNTRY_CODES) {
      const entry = iso31661.find((e) => e.alpha3 === alpha3);
      assert.ok(entry, `${alpha3} is an assigned ISO 3166-1 code`);
      assert.equal(alpha2Of(alpha3), entry.alpha2);
    }
    assert.equal(alpha2Of('USA'), 'US');
    assert.equal(alpha2Of('GBR'), 'GB');
    assert.throws(() => alpha2Of('XYZ'), RangeError);
    assert.throws(() => alpha2Of('constructor'), RangeError);
    assert.equal(isCountryCode('usa'), false);
  });

  it('the default high-risk countries are supported codes, and the override parser names bad codes', () => {
    for (const code of DEFAULT_HIGH_RISK_COUNTRIES) assert.ok(isCountryCode(code), code);
    assert.ok(!(DEFAULT_HIGH_RISK_COUNTRIES as readonly string[]).includes('IRQ'));
    assert.deepEqual(parseHighRiskCountries(' VEN, YEM,LBN ,VEN'), ['VEN', 'YEM', 'LBN']);
    assert.deepEqual(parseHighRiskCountries(''), []);
    assert.deepEqual(parseHighRiskCountries(' , '), []);
    assert.throws(() => parseHighRiskCountries('VEN,IRN,ven'), /IRN, ven/);
  });

  it('occupation codes are SOC 2018 major groups, each named', () => {
    assert.equal(OCCUPATION_CODES.length, 23);
    for (const code of OCCUPATION_CODES) {
      assert.match(code, /^\d{2}-0000$/);
      assert.ok(OCCUPATION_NAMES[code].endsWith('Occupations'));
    }
  });

  it('the published ranges are valid, contiguous ranges', () => {
    for (const list of [MONTHLY_PAYMENT_RANGES_USD, ANNUAL_REVENUE_RANGES_USD]) {
      list.forEach((range, i) => {
        assert.ok(isIntegerRange(range), range);
        if (i > 0) assert.equal(range.split('_')[0], list[i - 1]!.split('_')[1]);
      });
    }
  });

  it('document types are the spec lists, and each type has a kind', () => {
    assert.deepEqual([...USER_DOCUMENT_TYPES], ['passport', 'national_id_front', 'national_id_back', 'proof_of_address', 'other']);
    assert.equal(ENTITY_DOCUMENT_TYPES.length, 14);
    assert.equal(DOCUMENT_TYPES.length, 17);
    assert.equal(documentTypeKind('passport'), 'user');
    assert.equal(documentTypeKind('shareholder_registry'), 'entity');
    assert.equal(documentTypeKind('proof_of_address'), 'both');
    assert.equal(documentTypeKind('other'), 'both');
    assert.equal(documentTypeKind('selfie'), null);
    assert.equal(documentTypeKind(42), null);
    for (const types of Object.values(REQUIRED_ENTITY_DOCUMENT_GROUPS)) {
      for (const type of types) assert.notEqual(documentTypeKind(type), null);
    }
  });
});
