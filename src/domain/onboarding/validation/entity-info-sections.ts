import type { FieldError } from '../../errors.js';
import { CURRENCIES, ENTITY_SOURCES_OF_FUNDS, HIGH_RISK_ACTIVITIES } from '../reference/entity-kyb.js';
import { checkText, enumField, fieldError, isBlank, joinPointer, optionalBoolean, own, type JsonObject } from './fields.js';
import { isIntegerRange } from './formats.js';

/*
 * The three nested sections of entityInfo. Each gets an object (the caller checked that) and checks
 * only the fields present in it. null counts as given-and-wrong (`invalid_type`): the spec has no
 * nullable entity fields.
 */

function nonBlankString(object: JsonObject, field: string, pointer: string, errors: FieldError[]): void {
  const value = own(object, field);
  if (value === undefined) return;
  if (typeof value !== 'string') errors.push(fieldError(joinPointer(pointer, field), 'invalid_type', 'must be a string'));
  else checkText(value, joinPointer(pointer, field), errors);
}

function boolean(object: JsonObject, field: string, pointer: string, errors: FieldError[]): boolean | undefined {
  const value = own(object, field);
  if (value === null) errors.push(fieldError(joinPointer(pointer, field), 'invalid_type', 'must be a boolean'));
  return optionalBoolean(value, joinPointer(pointer, field), errors);
}

/** A present field from a list; absent is fine, null is `invalid_type`. */
export function oneOf<T extends string>(object: JsonObject, field: string, pointer: string, allowed: readonly T[], errors: FieldError[]): T | undefined {
  const value = own(object, field);
  if (value === undefined) return undefined;
  if (value === null) {
    errors.push(fieldError(joinPointer(pointer, field), 'invalid_type', 'must be a string'));
    return undefined;
  }
  return enumField(value, joinPointer(pointer, field), allowed, errors, { required: true });
}

/** activityInfo: businessDescription non-blank; businessIndustry a 2-6 digit NAICS-style code (`invalid_value`). */
export function validateActivityInfo(section: JsonObject, pointer: string): FieldError[] {
  const errors: FieldError[] = [];
  nonBlankString(section, 'businessDescription', pointer, errors);
  const industry = own(section, 'businessIndustry');
  const industryAt = joinPointer(pointer, 'businessIndustry');
  if (industry === undefined) return errors;
  if (typeof industry !== 'number') errors.push(fieldError(industryAt, 'invalid_type', 'must be an integer'));
  // NAICS sectors are 2 digits and national industries 6; every level in between is a valid code.
  else if (!Number.isInteger(industry) || industry < 10 || industry > 999_999) {
    errors.push(fieldError(industryAt, 'invalid_value', 'must be a 2- to 6-digit NAICS industry code, e.g. 522320'));
  }
  return errors;
}

/**
 * financialInfo: preferredPrimaryCurrency, sourceOfFunds from their lists (`invalid_value`);
 * estimatedAnnualRevenueUsd any `<low>_<high>` whole-USD range with low < high (`invalid_range`);
 * expectedMonthlyPaymentsUsd a non-negative safe integer (`invalid_value`).
 */
export function validateFinancialInfo(section: JsonObject, pointer: string): FieldError[] {
  const errors: FieldError[] = [];
  oneOf(section, 'preferredPrimaryCurrency', pointer, CURRENCIES, errors);
  oneOf(section, 'sourceOfFunds', pointer, ENTITY_SOURCES_OF_FUNDS, errors);
  const revenue = own(section, 'estimatedAnnualRevenueUsd');
  const revenueAt = joinPointer(pointer, 'estimatedAnnualRevenueUsd');
  if (revenue !== undefined && typeof revenue !== 'string') errors.push(fieldError(revenueAt, 'invalid_type', 'must be a string'));
  else if (typeof revenue === 'string' && !isIntegerRange(revenue)) {
    errors.push(fieldError(revenueAt, 'invalid_range', 'must be a range <low>_<high> of whole USD with low < high, e.g. 100000_1000000'));
  }
  const monthly = own(section, 'expectedMonthlyPaymentsUsd');
  const monthlyAt = joinPointer(pointer, 'expectedMonthlyPaymentsUsd');
  if (monthly !== undefined && typeof monthly !== 'number') errors.push(fieldError(monthlyAt, 'invalid_type', 'must be an integer'));
  else if (typeof monthly === 'number' && !(Number.isSafeInteger(monthly) && monthly >= 0)) {
    errors.push(fieldError(monthlyAt, 'invalid_value', 'must be a whole, non-negative number of USD'));
  }
  boolean(section, 'hasMaterialIntermediaryEntityOwner', pointer, errors);
  return errors;
}

/**
 * highRiskInfo: highRiskActivities from HIGH_RISK_ACTIVITIES; an activity other than `none` needs
 * highRiskActivitiesExplanation, and conductsMoneyServices true needs conductsMoneyServicesDescription
 * (`required`). An unknown activity is reported once, as `invalid_value`, without also demanding an
 * explanation for it.
 */
export function validateHighRiskInfo(section: JsonObject, pointer: string): FieldError[] {
  const errors: FieldError[] = [];
  boolean(section, 'operatesInProhibitedCountries', pointer, errors);
  const activity = oneOf(section, 'highRiskActivities', pointer, HIGH_RISK_ACTIVITIES, errors);
  const moneyServices = boolean(section, 'conductsMoneyServices', pointer, errors);
  const needs: [string, boolean, string][] = [
    ['highRiskActivitiesExplanation', activity !== undefined && activity !== 'none', 'is required when highRiskActivities is not none'],
    ['conductsMoneyServicesDescription', moneyServices === true, 'is required when conductsMoneyServices is true'],
  ];
  for (const [field, required, why] of needs) {
    const value = own(section, field);
    if (required && (value === undefined || (typeof value === 'string' && isBlank(value)))) {
      errors.push(fieldError(joinPointer(pointer, field), 'required', why));
    } else {
      nonBlankString(section, field, pointer, errors);
    }
  }
  return errors;
}
