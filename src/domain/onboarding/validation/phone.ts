import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

// The "max" metadata checks the digits against each country's numbering plan; the default "min"
// metadata only checks the length, which would let e.g. unassigned area codes through.
const E164 = /^\+[1-9]\d{1,14}$/;

/**
 * E.164 exactly (a "+", the country code and the number, no spaces or punctuation) and a valid number
 * for its country. Formatting characters are rejected rather than stripped so that what is stored is
 * what was checked.
 */
export function isValidE164Phone(phone: string): boolean {
  if (!E164.test(phone)) return false;
  const parsed = parsePhoneNumberFromString(phone);
  return parsed !== undefined && parsed.isValid() && parsed.number === phone;
}
