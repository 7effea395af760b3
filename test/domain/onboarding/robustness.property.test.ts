import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { FieldError } from '../../../src/domain/errors.js';
import { parseDocumentDataUrl } from '../../../src/domain/onboarding/documents/index.js';
import {
  additionalUserInfoRequired,
  checkUboTotal,
  validateAdditionalUserInfo,
  validateAddress,
  validateAuthenticators,
  validateBeneficiaryDetails,
  validateEntityInfo,
  validateUserInfo,
  validateWalletAddress,
} from '../../../src/domain/onboarding/validation/index.js';
import { SoftwareAuthenticator } from '../../harness/authenticator.js';
import { NOW, usAddress, usUser } from './fixtures.js';

// Wider than JSON on purpose: null prototypes, boxed values, typed arrays, dates, sparse arrays, bigints.
const anything = fc.anything({
  maxDepth: 3,
  withNullPrototype: true,
  withBoxedValues: true,
  withTypedArray: true,
  withDate: true,
  withSparseArray: true,
  withBigInt: true,
  withObjectString: true,
  withMap: true,
  withSet: true,
});

const BASE = '/base';
type Validate = (value: unknown) => FieldError[];
const highRisk = new Set(['VEN']);
const RP = { rpIds: ['localhost'], origins: ['http://localhost:*'] };
const passkey = new SoftwareAuthenticator();

const validators: [string, Validate, () => Record<string, unknown>][] = [
  ['validateAddress', (v) => validateAddress(v, BASE), usAddress],
  ['validateUserInfo', (v) => validateUserInfo(v, BASE, NOW), usUser],
  ['validateAdditionalUserInfo', (v) => validateAdditionalUserInfo(v, BASE), () => ({ employmentStatus: 'employed', sourceOfFunds: 'salary', mostRecentOccupation: '11-0000', expectedMonthlyPaymentsUsd: '0_1000' })],
  ['validateBeneficiaryDetails', (v) => validateBeneficiaryDetails(v, BASE), () => ({ beneficiaryType: ['ubo', 'representative'], ownershipPercentage: 50, title: 'CEO' })],
  ['validateEntityInfo', (v) => validateEntityInfo(v, BASE), () => ({ businessType: 'llc', registeredAddress: usAddress(), activityInfo: { businessIndustry: 52 }, financialInfo: { sourceOfFunds: 'loan' }, highRiskInfo: { highRiskActivities: 'none' } })],
  ['validateWalletAddress', (v) => validateWalletAddress(v, BASE), () => ({})],
  ['validateAuthenticators', (v) => validateAuthenticators(v, BASE, RP), () => ({})],
];

function assertWellFormed(errors: unknown): void {
  assert.ok(Array.isArray(errors));
  for (const error of errors as FieldError[]) {
    assert.equal(error.in, 'body');
    assert.ok(error.pointer === BASE || error.pointer.startsWith(`${BASE}/`), error.pointer);
    assert.match(error.code, /^[a-z][a-z0-9_]*$/);
    assert.equal(typeof error.detail, 'string');
  }
}

describe('validators never throw (property-based)', () => {
  for (const [name, validate, valid] of validators) {
    it(`${name}: any value as the whole input`, () => {
      fc.assert(fc.property(anything, (value) => assertWellFormed(validate(value))), { numRuns: 300 });
    });

    const fields = Object.keys(valid());
    if (fields.length === 0) continue;
    it(`${name}: any value in any one field, including nested ones`, () => {
      fc.assert(
        fc.property(fc.constantFrom(...fields), anything, fc.option(fc.string({ maxLength: 20 }), { nil: undefined }), (field, value, nested) => {
          const input = valid();
          const current = input[field];
          if (nested !== undefined && current !== null && typeof current === 'object' && !Array.isArray(current)) {
            input[field] = { ...current, [nested]: value };
          } else {
            input[field] = value;
          }
          assertWellFormed(validate(input));
        }),
        { numRuns: 300 },
      );
    });
  }

  it('authenticators: any value in any attestation field', () => {
    const fields = ['authenticatorName', 'challenge', 'attestation', 'credentialId', 'clientDataJson', 'attestationObject', 'transports'];
    fc.assert(
      fc.property(fc.constantFrom(...fields), anything, (field, value) => {
        // A real registration, so that a value reaching the attestation checks meets real CBOR around it.
        const { challenge, ...registration } = passkey.register();
        const attestation: Record<string, unknown> = registration;
        const item: Record<string, unknown> = { authenticatorName: 'key', challenge, attestation };
        if (field in attestation) attestation[field] = value;
        else item[field] = value;
        assertWellFormed(validateAuthenticators([item, value], BASE, RP));
      }),
      { numRuns: 300 },
    );
  });

  it('additionalUserInfoRequired, checkUboTotal and parseDocumentDataUrl on anything', () => {
    fc.assert(
      fc.property(anything, anything, (value, other) => {
        const needed = additionalUserInfoRequired(value, NOW, highRisk);
        assert.equal(typeof needed.required, 'boolean');
        additionalUserInfoRequired({ ...usUser(), birthDate: value, nationality: other, residentialAddress: value }, NOW, highRisk);
        assertWellFormed(checkUboTotal(value as number[], BASE));
        assertWellFormed(checkUboTotal([value, other] as number[], BASE));
        const parsed = parseDocumentDataUrl(value, BASE);
        if (!parsed.ok) assertWellFormed(parsed.errors);
        const prefixed = parseDocumentDataUrl(typeof value === 'string' ? `data:image/png;base64,${value}` : value, BASE);
        if (!prefixed.ok) assertWellFormed(prefixed.errors);
      }),
      { numRuns: 500 },
    );
  });
});
