import type { FieldError } from '../../errors.js';
import { BUSINESS_TYPES } from '../reference/entity-kyb.js';
import { validateAddress } from './address.js';
import { oneOf, validateActivityInfo, validateFinancialInfo, validateHighRiskInfo } from './entity-info-sections.js';
import { checkText, fieldError, joinPointer, objectField, own } from './fields.js';
import { isEmail, isHttpUrl } from './formats.js';

type Format = { code: string; test: (value: string) => boolean; detail: string };
const URL_FORMAT: Format = { code: 'invalid_url', test: isHttpUrl, detail: 'must be an http or https URL' };

/** The top-level strings: all non-blank free text, some with a format on top. */
const STRING_FIELDS: Record<string, Format | null> = {
  businessLegalName: null,
  businessTradeName: null,
  companyNumber: null,
  email: { code: 'invalid_email', test: isEmail, detail: 'must be an e-mail address like name@example.com' },
  website: URL_FORMAT,
  logoUrl: URL_FORMAT,
};

/**
 * entityInfo of an update: every field optional, only present ones are checked. null is not "absent"
 * here (the spec gives entity fields no null), so a null field is `invalid_type`.
 *
 * Cross-field rules (money-services description, high-risk explanation) apply within the submitted
 * object only; for a partial update the caller merges it with the stored entity info first if a rule
 * should see fields that were sent earlier.
 */
export function validateEntityInfo(info: unknown, pointer: string): FieldError[] {
  const errors: FieldError[] = [];
  const object = objectField(info, pointer, errors);
  if (object === undefined) return errors;
  const at = (field: string): string => joinPointer(pointer, field);
  // Absent fields are skipped; null ones are reported once here and then skipped too.
  const given = (field: string, expected: string): boolean => {
    const value = own(object, field);
    if (value === null) errors.push(fieldError(at(field), 'invalid_type', `must be ${expected}`));
    return value !== undefined && value !== null;
  };

  for (const [field, format] of Object.entries(STRING_FIELDS)) {
    if (!given(field, 'a string')) continue;
    const value = own(object, field);
    if (typeof value !== 'string') errors.push(fieldError(at(field), 'invalid_type', 'must be a string'));
    else if (checkText(value, at(field), errors) && format !== null && !format.test(value)) errors.push(fieldError(at(field), format.code, format.detail));
  }
  oneOf(object, 'businessType', pointer, BUSINESS_TYPES, errors);
  for (const field of ['registeredAddress', 'physicalAddress']) {
    if (given(field, 'an object')) errors.push(...validateAddress(own(object, field), at(field)));
  }

  const sections = [
    ['activityInfo', validateActivityInfo],
    ['financialInfo', validateFinancialInfo],
    ['highRiskInfo', validateHighRiskInfo],
  ] as const;
  for (const [field, validate] of sections) {
    if (!given(field, 'an object')) continue;
    const section = objectField(own(object, field), at(field), errors);
    if (section !== undefined) errors.push(...validate(section, at(field)));
  }
  return errors;
}
