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

/** Each line of the table is a key and the label it must get: `key -> Label`. */
function labelled(table: string): void {
  for (const line of table.trim().split('\n')) {
    const [key, label] = line.split(' -> ').map((side) => side.trim()) as [string, string];
    assert.equal(humanize(key), label, key);
  }
}

describe('console field labels', () => {
  it('splits camelCase and snake_case into a sentence', () => {
    labelled(`
      residentialAddress -> Residential address
      proof_of_address   -> Proof of address
      BUSINESS_REVENUE   -> Business revenue
      firstName          -> First name
    `);
  });

  it('keeps acronyms in capitals wherever they stand, however the key spells them', () => {
    labelled(`
      isOtpActivated       -> Is OTP activated
      isOTPActivated       -> Is OTP activated
      is_otp_activated     -> Is OTP activated
      ssnLast4             -> SSN last4
      socialSecurityNumber -> Social security number
      userId               -> User ID
      uboIds               -> UBO IDs
      websiteUrl           -> Website URL
      kycStatus            -> KYC status
      kybProvider          -> KYB provider
      iban                 -> IBAN
      bicCode              -> BIC code
      einNumber            -> EIN number
      taxTin               -> Tax TIN
      apiKey               -> API key
    `);
  });

  it('leaves words that merely contain an acronym alone', () => {
    labelled(`
      identityDocument -> Identity document
      tinyBusiness     -> Tiny business
      rapidOtpless     -> Rapid otpless
    `);
  });
});
