import type { FieldError } from '../../errors.js';
import { fieldError, isAbsent, joinPointer, objectField, own, requiredString } from './fields.js';

/** BeneficiaryType values per the spec. */
export const BENEFICIARY_TYPES = ['ubo', 'representative'] as const;

/** A UBO owns MORE than this percentage (spec: "more than 25%"). */
export const UBO_THRESHOLD_PERCENT = 25;

/**
 * BeneficiaryDetails: beneficiaryType is a non-empty array of distinct values from BENEFICIARY_TYPES
 * (`required` / `duplicate_items` / `invalid_value` at the bad element); a `ubo` needs
 * ownershipPercentage > 25 and <= 100 (`required` / `out_of_range`); a `representative` needs a
 * non-blank title (`required`). A percentage given for a non-UBO must still lie in 0..100.
 */
export function validateBeneficiaryDetails(details: unknown, pointer: string): FieldError[] {
  const errors: FieldError[] = [];
  const object = objectField(details, pointer, errors);
  if (object === undefined) return errors;
  const typesAt = joinPointer(pointer, 'beneficiaryType');
  const types = own(object, 'beneficiaryType');
  const valid = new Set<string>();

  if (isAbsent(types) || (Array.isArray(types) && types.length === 0)) {
    errors.push(fieldError(typesAt, 'required', `must list at least one of: ${BENEFICIARY_TYPES.join(', ')}`));
  } else if (!Array.isArray(types)) {
    errors.push(fieldError(typesAt, 'invalid_type', 'must be an array'));
  } else {
    let duplicated = false;
    types.forEach((type: unknown, index) => {
      if (typeof type !== 'string' || !(BENEFICIARY_TYPES as readonly string[]).includes(type)) {
        errors.push(fieldError(joinPointer(typesAt, index), 'invalid_value', `must be one of: ${BENEFICIARY_TYPES.join(', ')}`));
      } else if (valid.has(type)) {
        duplicated = true;
      } else {
        valid.add(type);
      }
    });
    if (duplicated) errors.push(fieldError(typesAt, 'duplicate_items', 'must not list a type twice'));
  }

  const percentAt = joinPointer(pointer, 'ownershipPercentage');
  const percent = own(object, 'ownershipPercentage');
  if (isAbsent(percent)) {
    if (valid.has('ubo')) errors.push(fieldError(percentAt, 'required', 'is required for a UBO'));
  } else if (typeof percent !== 'number' || !Number.isFinite(percent)) {
    errors.push(fieldError(percentAt, 'invalid_type', 'must be a number'));
  } else if (valid.has('ubo') ? percent <= UBO_THRESHOLD_PERCENT || percent > 100 : percent < 0 || percent > 100) {
    const range = valid.has('ubo') ? `more than ${UBO_THRESHOLD_PERCENT} and at most 100 for a UBO` : 'between 0 and 100';
    errors.push(fieldError(percentAt, 'out_of_range', `must be ${range}`));
  }

  const title = own(object, 'title');
  if (valid.has('representative')) requiredString(title, joinPointer(pointer, 'title'), errors);
  else if (!isAbsent(title) && typeof title !== 'string') errors.push(fieldError(joinPointer(pointer, 'title'), 'invalid_type', 'must be a string'));
  return errors;
}

/**
 * The UBO percentages of one entity must not add up to more than 100 (`ownership_exceeds_100`, one error
 * at `pointer`). Summed in millionths of a percent, so binary floating point cannot push
 * 33.34 + 33.33 + 33.33 over 100, while a real excess (50.004 + 50.004) is never rounded away;
 * non-numbers are skipped because validateBeneficiaryDetails reports them.
 */
export function checkUboTotal(percentages: number[], pointer: string): FieldError[] {
  if (!Array.isArray(percentages)) return [];
  const millionths = percentages
    .filter((p): p is number => typeof p === 'number' && Number.isFinite(p))
    .reduce((sum, p) => sum + Math.round(p * 1_000_000), 0);
  if (millionths <= 100_000_000) return [];
  return [fieldError(pointer, 'ownership_exceeds_100', `must not give UBOs more than 100% in total (they add up to ${millionths / 1_000_000}%)`)];
}
