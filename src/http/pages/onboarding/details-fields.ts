import { iso31662 } from 'iso-3166';
import { postcodeValidatorExistsForCountry } from 'postcode-validator';
import { alpha2Of, COUNTRY_CODES, isCountryCode } from '../../../domain/onboarding/reference/country-codes.js';
import { EMPLOYMENT_STATUSES, INDIVIDUAL_SOURCES_OF_FUNDS, MONTHLY_PAYMENT_RANGES_USD, OCCUPATION_CODES, OCCUPATION_NAMES } from '../../../domain/onboarding/reference/individual-kyc.js';
import type { InputSpec } from './html.js';

// The details step's inputs (docs/onboarding-links.md#the-hosted-flow): each `name` is the API's field path inside
// userInfo (or additionalUserInfo.*), with its autocomplete token. The address follows its country: labels, the
// state's list and whether it is required (validation/address.ts, subdivisions.ts), and the SSN for the USA only.

const regions = new Intl.DisplayNames(['en'], { type: 'region' });
/** A spec country code's English name. */
export const countryName = (alpha3: string) => regions.of(alpha2Of(alpha3)) ?? alpha3;

export const COUNTRY_OPTIONS: [string, string][] = [...COUNTRY_CODES].map((c): [string, string] => [c, countryName(c)]).sort((a, b) => a[1].localeCompare(b[1], 'en'));

const words = (value: string) => value.charAt(0).toUpperCase() + value.slice(1).replace(/_/g, ' ');

export const PERSON_FIELDS: InputSpec[] = [
  { name: 'firstName', label: 'First name', autocomplete: 'given-name', required: true, maxLength: 100 },
  { name: 'middleName', label: 'Middle name', autocomplete: 'additional-name', maxLength: 100 },
  { name: 'lastName', label: 'Last name', autocomplete: 'family-name', required: true, maxLength: 100 },
  { name: 'email', label: 'Email', type: 'email', autocomplete: 'email', required: true, maxLength: 254 },
  { name: 'phone', label: 'Mobile phone', type: 'tel', autocomplete: 'tel', hint: 'With the country code, e.g. +44 7700 900123.', maxLength: 20 },
  { name: 'birthDate', label: 'Date of birth', type: 'date', autocomplete: 'bday', required: true, hint: 'You must be 18 or older.' },
  { name: 'nationality', label: 'Nationality', required: true, options: COUNTRY_OPTIONS },
  { name: 'countryOfBirth', label: 'Country of birth', options: COUNTRY_OPTIONS },
];

/** Per country: what its address's parts are called, and whether it has a state the API requires. */
const ADDRESS_WORDS: Record<string, { city?: string; state?: string; postalCode?: string; stateRequired?: boolean }> = {
  USA: { state: 'State', postalCode: 'ZIP code', stateRequired: true },
  GBR: { city: 'Town or city', state: 'County', postalCode: 'Postcode' },
  CAN: { state: 'Province or territory', postalCode: 'Postal code' },
  AUS: { city: 'Suburb or town', state: 'State or territory', postalCode: 'Postcode' },
  IRL: { city: 'Town or city', state: 'County', postalCode: 'Eircode' },
  IND: { state: 'State', postalCode: 'PIN code' },
};

/** The ISO 3166-2 subdivisions of a country, first level only (US-CA, not its nested districts). */
function subdivisions(alpha3: string): [string, string][] {
  const alpha2 = alpha2Of(alpha3);
  return iso31662.filter((s) => s.parent === alpha2).map((s): [string, string] => [s.code, s.name]).sort((a, b) => a[1].localeCompare(b[1], 'en'));
}

/** The address inputs for a country (its code already chosen), then the SSN where the API requires one. */
export function addressFields(country: string): InputSpec[] {
  if (!isCountryCode(country)) return [];
  const words = ADDRESS_WORDS[country] ?? {};
  const states = subdivisions(country);
  const postalHint = postcodeValidatorExistsForCountry(alpha2Of(country)) ? undefined : 'As written on your post.';
  const fields: InputSpec[] = [
    { name: 'residentialAddress.streetLine1', label: 'Street and number', autocomplete: 'address-line1', required: true, maxLength: 200 },
    { name: 'residentialAddress.streetLine2', label: 'Apartment, floor, building', autocomplete: 'address-line2', maxLength: 200 },
    { name: 'residentialAddress.city', label: words.city ?? 'City', autocomplete: 'address-level2', required: true, maxLength: 100 },
    ...(states.length > 0
      ? [{ name: 'residentialAddress.state', label: words.state ?? 'State, province or region', autocomplete: 'address-level1', required: words.stateRequired === true, options: states }]
      : []),
    { name: 'residentialAddress.postalCode', label: words.postalCode ?? 'Postal code', autocomplete: 'postal-code', required: true, maxLength: 16, ...(postalHint ? { hint: postalHint } : {}) },
  ];
  if (country === 'USA') {
    fields.push({ name: 'socialSecurityNumber', label: 'Social Security number', autocomplete: 'off', required: true, hint: '9 digits, e.g. 123-45-6789: required for US residents.', maxLength: 11 });
  }
  return fields;
}

/** additionalUserInfo, asked when the API requires it (over 60, or a high-risk nationality or residence). */
export const ADDITIONAL_FIELDS: InputSpec[] = [
  { name: 'additionalUserInfo.employmentStatus', label: 'Employment status', required: true, options: EMPLOYMENT_STATUSES.map((v): [string, string] => [v, words(v)]) },
  { name: 'additionalUserInfo.sourceOfFunds', label: 'Where your money comes from', required: true, options: INDIVIDUAL_SOURCES_OF_FUNDS.map((v): [string, string] => [v, words(v)]) },
  {
    name: 'additionalUserInfo.expectedMonthlyPaymentsUsd',
    label: 'Expected payments a month (USD)',
    required: true,
    options: MONTHLY_PAYMENT_RANGES_USD.map((v): [string, string] => [v, v.split('_').map((n) => Number(n).toLocaleString('en-US')).join(' to ')]),
  },
  { name: 'additionalUserInfo.mostRecentOccupation', label: 'Most recent occupation', required: true, options: OCCUPATION_CODES.map((v): [string, string] => [v, OCCUPATION_NAMES[v]]) },
];

/** The country's select (the first question of the address, asked before its other fields). */
export const COUNTRY_FIELD: InputSpec = { name: 'residentialAddress.country', label: 'Country you live in', autocomplete: 'country', required: true, options: COUNTRY_OPTIONS };
