import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_HIGH_RISK_COUNTRIES } from '../../../src/domain/onboarding/reference/index.js';
import { additionalUserInfoRequired, validateAdditionalUserInfo } from '../../../src/domain/onboarding/validation/additional-user-info.js';
import { NOW, assertOnly, assertValid, deUser, usUser, withField } from './fixtures.js';

const P = '/additionalUserInfo';
const info = () => ({ employmentStatus: 'employed', sourceOfFunds: 'salary', mostRecentOccupation: '15-0000', expectedMonthlyPaymentsUsd: '1000_5000' });
const highRisk: ReadonlySet<string> = new Set(DEFAULT_HIGH_RISK_COUNTRIES);

describe('validateAdditionalUserInfo', () => {
  it('accepts a complete object', () => {
    assertValid(validateAdditionalUserInfo(info(), P));
    assertValid(validateAdditionalUserInfo({ ...info(), employmentStatus: 'retired', sourceOfFunds: 'pension', mostRecentOccupation: '55-0000' }, P));
  });

  it('every field is required', () => {
    for (const field of Object.keys(info())) {
      assertOnly(validateAdditionalUserInfo(withField(info(), [field], undefined), P), `${P}/${field}`, 'required');
      assertOnly(validateAdditionalUserInfo({ ...info(), [field]: null }, P), `${P}/${field}`, 'required');
      assertOnly(validateAdditionalUserInfo({ ...info(), [field]: 5 }, P), `${P}/${field}`, 'invalid_type');
    }
  });

  it('values come from the published lists', () => {
    assertOnly(validateAdditionalUserInfo({ ...info(), employmentStatus: 'Employed' }, P), `${P}/employmentStatus`, 'invalid_value');
    assertOnly(validateAdditionalUserInfo({ ...info(), sourceOfFunds: 'lottery' }, P), `${P}/sourceOfFunds`, 'invalid_value');
    assertOnly(validateAdditionalUserInfo({ ...info(), mostRecentOccupation: '15-1252' }, P), `${P}/mostRecentOccupation`, 'invalid_value');
  });

  it('expectedMonthlyPaymentsUsd is any whole-dollar range low < high', () => {
    assertValid(validateAdditionalUserInfo({ ...info(), expectedMonthlyPaymentsUsd: '2500_7500' }, P));
    for (const range of ['5000_1000', '1000_1000', '1000-5000', '1000_', '_5000', '-1_5', '1.5_3', '01000_5000', '1000_5000_9000', ' 0_1000', '99999999999999999_999999999999999999']) {
      assertOnly(validateAdditionalUserInfo({ ...info(), expectedMonthlyPaymentsUsd: range }, P), `${P}/expectedMonthlyPaymentsUsd`, 'invalid_range');
    }
  });

  it('property: a range is valid exactly when low < high', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1e12 }), fc.nat({ max: 1e12 }), (low, high) => {
        const errors = validateAdditionalUserInfo({ ...info(), expectedMonthlyPaymentsUsd: `${low}_${high}` }, P);
        if (low < high) assertValid(errors);
        else assertOnly(errors, `${P}/expectedMonthlyPaymentsUsd`, 'invalid_range');
      }),
    );
  });

  it('a non-object is one error', () => {
    assertOnly(validateAdditionalUserInfo('employed', P), P, 'invalid_type');
    assertOnly(validateAdditionalUserInfo(null, P), P, 'required');
  });
});

describe('additionalUserInfoRequired', () => {
  it('is required over 60 completed years', () => {
    assert.deepEqual(additionalUserInfoRequired({ ...usUser(), birthDate: '1964-06-01' }, NOW, highRisk), { required: true, reason: 'over_60' });
    assert.deepEqual(additionalUserInfoRequired({ ...usUser(), birthDate: '1964-06-02' }, NOW, highRisk), { required: false });
    assert.deepEqual(additionalUserInfoRequired({ ...usUser(), birthDate: '1965-01-01' }, NOW, highRisk), { required: false });
  });

  it('is required for a high-risk nationality or residence', () => {
    assert.deepEqual(additionalUserInfoRequired({ ...deUser(), nationality: 'VEN' }, NOW, highRisk), { required: true, reason: 'high_risk' });
    const kenya = { streetLine1: 'Kenyatta Ave 1', city: 'Nairobi', postalCode: '00100', country: 'KEN' };
    assert.deepEqual(additionalUserInfoRequired({ ...deUser(), residentialAddress: kenya }, NOW, highRisk), { required: true, reason: 'high_risk' });
    assert.deepEqual(additionalUserInfoRequired(deUser(), NOW, highRisk), { required: false });
    assert.deepEqual(additionalUserInfoRequired({ ...deUser(), nationality: 'VEN' }, NOW, new Set()), { required: false });
    // Age is reported first when both apply.
    assert.deepEqual(additionalUserInfoRequired({ ...deUser(), nationality: 'VEN', birthDate: '1950-01-01' }, NOW, highRisk), { required: true, reason: 'over_60' });
  });

  it('malformed input never makes it required', () => {
    for (const value of [null, 'x', [], { birthDate: '1950-02-30' }, { birthDate: 1950 }, { residentialAddress: 'KEN' }]) {
      assert.deepEqual(additionalUserInfoRequired(value, NOW, highRisk), { required: false });
    }
  });
});
