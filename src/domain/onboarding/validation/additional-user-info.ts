import type { FieldError } from '../../errors.js';
import { EMPLOYMENT_STATUSES, INDIVIDUAL_SOURCES_OF_FUNDS, OCCUPATION_CODES } from '../reference/individual-kyc.js';
import { ageOn } from './dates.js';
import { enumField, fieldError, isAbsent, isRecord, joinPointer, objectField, own } from './fields.js';
import { isIntegerRange } from './formats.js';
import { MAX_AGE } from './user-info.js';

/** additionalUserInfo is required for users older than this many completed years. */
export const ADDITIONAL_INFO_AGE_THRESHOLD = 60;

/**
 * additionalUserInfo: all four fields required when the object is given (`required`).
 * expectedMonthlyPaymentsUsd accepts ANY canonical `<low>_<high>` whole-dollar range with low < high
 * (`invalid_range`), not only MONTHLY_PAYMENT_RANGES_USD: the spec fixes the form, not the buckets, and
 * integrators may use their own.
 */
export function validateAdditionalUserInfo(info: unknown, pointer: string): FieldError[] {
  const errors: FieldError[] = [];
  const object = objectField(info, pointer, errors);
  if (object === undefined) return errors;
  const at = (field: string): string => joinPointer(pointer, field);

  enumField(own(object, 'employmentStatus'), at('employmentStatus'), EMPLOYMENT_STATUSES, errors, { required: true });
  enumField(own(object, 'sourceOfFunds'), at('sourceOfFunds'), INDIVIDUAL_SOURCES_OF_FUNDS, errors, { required: true });
  enumField(own(object, 'mostRecentOccupation'), at('mostRecentOccupation'), OCCUPATION_CODES, errors, {
    required: true,
    describe: 'a SOC 2018 major-group code such as 15-0000',
  });
  const range = own(object, 'expectedMonthlyPaymentsUsd');
  const rangeAt = at('expectedMonthlyPaymentsUsd');
  if (isAbsent(range)) errors.push(fieldError(rangeAt, 'required', 'is required'));
  else if (typeof range !== 'string') errors.push(fieldError(rangeAt, 'invalid_type', 'must be a string'));
  else if (!isIntegerRange(range)) errors.push(fieldError(rangeAt, 'invalid_range', 'must be a range <low>_<high> of whole USD with low < high, e.g. 1000_5000'));
  return errors;
}

/**
 * Whether additionalUserInfo must accompany this userInfo: the user is over 60 (more than 60 completed
 * years on `now`), or their nationality or residential country is in `highRiskCountries`. Age is
 * checked first. Malformed input never makes it required here; validateUserInfo reports it.
 */
export function additionalUserInfoRequired(
  userInfo: unknown,
  now: Date,
  highRiskCountries: ReadonlySet<string>,
): { required: boolean; reason?: 'over_60' | 'high_risk' } {
  if (!isRecord(userInfo)) return { required: false };
  const birthDate = own(userInfo, 'birthDate');
  // An impossible age (over MAX_AGE) is the birth date's error alone, not also a reason to ask for more.
  const age = typeof birthDate === 'string' ? ageOn(birthDate, now) : NaN;
  if (age > ADDITIONAL_INFO_AGE_THRESHOLD && age <= MAX_AGE) return { required: true, reason: 'over_60' };
  const address = own(userInfo, 'residentialAddress');
  const countries = [own(userInfo, 'nationality'), isRecord(address) ? own(address, 'country') : undefined];
  if (countries.some((c) => typeof c === 'string' && highRiskCountries.has(c))) return { required: true, reason: 'high_risk' };
  return { required: false };
}
