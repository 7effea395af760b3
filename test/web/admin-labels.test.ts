import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ROOT_URL } from '../harness/root.js';

// The console's field labels (humanize in web/admin/src/format.ts, which record-details.ts uses for every key of a
// record): words an officer reads, acronyms in capitals, not a field path with its first letter raised.

/** Declared here: the console is type-checked as browser code by its own project (see admin-format.test.ts). */
interface Format {
  humanize(key: string): string;
}
const { humanize } = (await import(new URL('web/admin/src/format.ts', ROOT_URL).href)) as Format;

describe('console field labels', () => {
  it('splits camelCase and snake_case into a sentence', () => {
    assert.equal(humanize('residentialAddress'), 'Residential address');
    assert.equal(humanize('proof_of_address'), 'Proof of address');
    assert.equal(humanize('BUSINESS_REVENUE'), 'Business revenue');
    assert.equal(humanize('firstName'), 'First name');
  });

  it('keeps acronyms in capitals wherever they stand, however the key spells them', () => {
    assert.equal(humanize('isOtpActivated'), 'Is OTP activated');
    assert.equal(humanize('isOTPActivated'), 'Is OTP activated');
    assert.equal(humanize('is_otp_activated'), 'Is OTP activated');
    assert.equal(humanize('ssnLast4'), 'SSN last4');
    assert.equal(humanize('socialSecurityNumber'), 'Social security number');
    assert.equal(humanize('userId'), 'User ID');
    assert.equal(humanize('uboIds'), 'UBO IDs');
    assert.equal(humanize('websiteUrl'), 'Website URL');
    assert.equal(humanize('kycStatus'), 'KYC status');
    assert.equal(humanize('kybProvider'), 'KYB provider');
    assert.equal(humanize('iban'), 'IBAN');
    assert.equal(humanize('bicCode'), 'BIC code');
    assert.equal(humanize('einNumber'), 'EIN number');
    assert.equal(humanize('taxTin'), 'Tax TIN');
    assert.equal(humanize('apiKey'), 'API key');
  });

  it('leaves words that merely contain an acronym alone', () => {
    assert.equal(humanize('identityDocument'), 'Identity document');
    assert.equal(humanize('tinyBusiness'), 'Tiny business');
    assert.equal(humanize('rapidOtpless'), 'Rapid otpless');
  });
});
