import type { FieldError } from '../../errors.js';
import { isCountryCode } from '../reference/country-codes.js';
import { validateAddress } from './address.js';
import { ageOn, compareDates, parseCalendarDate, utcCalendarDate } from './dates.js';
import { fieldError, isAbsent, isBlank, isRecord, joinPointer, objectField, optionalString, own, requiredString } from './fields.js';
import { isEmail, isHttpUrl } from './formats.js';
import { isValidE164Phone } from './phone.js';
import { isValidSsn } from './ssn.js';

export const MIN_AGE = 18;
export const MAX_AGE = 120;

/**
 * UserInfo per the spec. Required: firstName, lastName (non-blank), email (`invalid_email`). Optional
 * and nullable: middleName, phone (E.164, valid number: `invalid_phone`), birthDate (real past date:
 * `invalid_date`; age 18..120 on `now`: `age_out_of_range`), nationality and countryOfBirth
 * (`invalid_value`), residentialAddress (validateAddress), profilePictureUrl (http(s): `invalid_url`),
 * socialSecurityNumber (`invalid_ssn`; `required` when residentialAddress.country is USA). Any string
 * with control characters is `invalid_characters`; a wrong JSON type is `invalid_type`.
 */
export function validateUserInfo(userInfo: unknown, pointer: string, now: Date): FieldError[] {
  const errors: FieldError[] = [];
  const info = objectField(userInfo, pointer, errors);
  if (info === undefined) return errors;
  const at = (field: string): string => joinPointer(pointer, field);

  requiredString(own(info, 'firstName'), at('firstName'), errors);
  optionalString(own(info, 'middleName'), at('middleName'), errors);
  requiredString(own(info, 'lastName'), at('lastName'), errors);

  const email = requiredString(own(info, 'email'), at('email'), errors);
  if (email !== undefined && !isEmail(email)) errors.push(fieldError(at('email'), 'invalid_email', 'must be an e-mail address like name@example.com'));

  const phone = optionalString(own(info, 'phone'), at('phone'), errors);
  if (phone !== undefined && !isValidE164Phone(phone)) {
    errors.push(fieldError(at('phone'), 'invalid_phone', 'must be a valid phone number in E.164 form, e.g. +14155552671'));
  }

  const birthDate = optionalString(own(info, 'birthDate'), at('birthDate'), errors);
  if (birthDate !== undefined) errors.push(...checkBirthDate(birthDate, at('birthDate'), now));

  for (const field of ['nationality', 'countryOfBirth']) {
    const value = own(info, field);
    if (typeof value === 'string' && !isCountryCode(value)) {
      errors.push(fieldError(at(field), 'invalid_value', 'must be a supported ISO 3166-1 alpha-3 country code'));
    } else {
      optionalString(value, at(field), errors);
    }
  }

  const address = own(info, 'residentialAddress');
  if (!isAbsent(address)) errors.push(...validateAddress(address, at('residentialAddress')));

  const pictureUrl = optionalString(own(info, 'profilePictureUrl'), at('profilePictureUrl'), errors);
  if (pictureUrl !== undefined && !isHttpUrl(pictureUrl)) errors.push(fieldError(at('profilePictureUrl'), 'invalid_url', 'must be an http or https URL'));

  const ssn = own(info, 'socialSecurityNumber');
  const livesInUs = isRecord(address) && own(address, 'country') === 'USA';
  if (isAbsent(ssn) || (typeof ssn === 'string' && isBlank(ssn))) {
    if (livesInUs) errors.push(fieldError(at('socialSecurityNumber'), 'required', 'is required for users whose residential address is in the USA'));
    else if (typeof ssn === 'string') errors.push(fieldError(at('socialSecurityNumber'), 'invalid_ssn', 'must be null or a full 9-digit SSN'));
  } else if (typeof ssn !== 'string') {
    errors.push(fieldError(at('socialSecurityNumber'), 'invalid_type', 'must be a string'));
  } else if (!isValidSsn(ssn)) {
    errors.push(fieldError(at('socialSecurityNumber'), 'invalid_ssn', 'must be a full, issuable SSN: 9 digits or AAA-GG-SSSS'));
  }
  return errors;
}

function checkBirthDate(birthDate: string, pointer: string, now: Date): FieldError[] {
  const parsed = parseCalendarDate(birthDate);
  if (parsed === null) return [fieldError(pointer, 'invalid_date', 'must be a real date in the form YYYY-MM-DD')];
  if (compareDates(parsed, utcCalendarDate(now)) > 0) return [fieldError(pointer, 'invalid_date', 'must not be in the future')];
  const age = ageOn(birthDate, now);
  if (!(age >= MIN_AGE && age <= MAX_AGE)) {
    return [fieldError(pointer, 'age_out_of_range', `must give an age between ${MIN_AGE} and ${MAX_AGE} years`)];
  }
  return [];
}
