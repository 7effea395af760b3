import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import type { FieldError } from '../../errors.js';
import { alpha2Of, isCountryCode } from '../reference/country-codes.js';
import { fieldError, isAbsent, isBlank, joinPointer, objectField, optionalString, own, requiredString } from './fields.js';
import { isSubdivisionOf } from './subdivisions.js';

// No country's postal code is longer; the bound also keeps the library's regular expressions on short input.
const MAX_POSTAL_CODE_LENGTH = 16;

/**
 * Address = {streetLine1, streetLine2?, city, state?, postalCode, country}.
 * - country must be in COUNTRY_CODES (`invalid_value`);
 * - state is required for USA (`required`) and, whenever given, must be an ISO 3166-2 code of the
 *   address's country, e.g. "US-CA" (`invalid_subdivision`); upper-case exactly as ISO writes it;
 * - postalCode must match postcode-validator's pattern for the country when the library has one
 *   (`invalid_postal_code`); otherwise it only has to be non-blank and short. The value is checked as
 *   given, not trimmed, since it is stored as given.
 * Blank streetLine1, city or postalCode is `required`; control characters are `invalid_characters`.
 * Null or undefined `address` is `required`.
 */
export function validateAddress(address: unknown, pointer: string): FieldError[] {
  const errors: FieldError[] = [];
  const object = objectField(address, pointer, errors);
  if (object === undefined) return errors;
  const at = (field: string): string => joinPointer(pointer, field);

  requiredString(own(object, 'streetLine1'), at('streetLine1'), errors);
  optionalString(own(object, 'streetLine2'), at('streetLine2'), errors);
  requiredString(own(object, 'city'), at('city'), errors);

  const countryValue = own(object, 'country');
  let alpha2: string | undefined;
  let country: string | undefined;
  if (isCountryCode(countryValue)) {
    country = countryValue;
    alpha2 = alpha2Of(countryValue);
  } else if (isAbsent(countryValue)) {
    errors.push(fieldError(at('country'), 'required', 'is required'));
  } else if (typeof countryValue !== 'string') {
    errors.push(fieldError(at('country'), 'invalid_type', 'must be a string'));
  } else {
    errors.push(fieldError(at('country'), 'invalid_value', 'must be a supported ISO 3166-1 alpha-3 country code'));
  }

  const state = own(object, 'state');
  if (isAbsent(state) || (typeof state === 'string' && isBlank(state))) {
    if (country === 'USA') errors.push(fieldError(at('state'), 'required', 'is required for US addresses (ISO 3166-2 code such as US-CA)'));
    else if (typeof state === 'string') errors.push(fieldError(at('state'), 'invalid_subdivision', 'must be null or an ISO 3166-2 subdivision code'));
  } else if (typeof state !== 'string') {
    errors.push(fieldError(at('state'), 'invalid_type', 'must be a string'));
  } else if (alpha2 !== undefined && !isSubdivisionOf(state, alpha2)) {
    errors.push(fieldError(at('state'), 'invalid_subdivision', `must be an ISO 3166-2 subdivision code of ${country ?? 'the country'}, e.g. ${alpha2}-…`));
  }

  const postalCode = requiredString(own(object, 'postalCode'), at('postalCode'), errors);
  if (postalCode !== undefined) {
    const tooLong = postalCode.length > MAX_POSTAL_CODE_LENGTH;
    const mismatch = alpha2 !== undefined && postcodeValidatorExistsForCountry(alpha2) && !postcodeValidator(postalCode, alpha2);
    if (tooLong || mismatch) {
      errors.push(fieldError(at('postalCode'), 'invalid_postal_code', `is not a valid postal code for ${country ?? 'the country'}`));
    }
  }
  return errors;
}
