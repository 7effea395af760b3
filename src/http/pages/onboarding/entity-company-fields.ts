import { BUSINESS_TYPES, ENTITY_SOURCES_OF_FUNDS, HIGH_RISK_ACTIVITIES, ANNUAL_REVENUE_RANGES_USD } from '../../../domain/onboarding/reference/entity-kyb.js';
import { addressFields, COUNTRY_OPTIONS } from './details-fields.js';
import { yesNo } from './entity-form.js';
import type { InputSpec } from './html.js';

// The company step's inputs: each `name` is the API's field path inside entityInfo, with an autocomplete token where
// the browser has one. The registered address follows its country (the individual flow's address rules: labels, the
// state's list, required in the USA); the company number's hint names the register of the country.

const words = (value: string) => value.charAt(0).toUpperCase() + value.slice(1).replace(/_/g, ' ');
const usd = (range: string) => range.split('_').map((n) => `$${Number(n).toLocaleString('en-US')}`).join(' to ');

const COMPANY_NUMBER_HINTS: Record<string, string> = {
  USA: 'The EIN (employer identification number), e.g. 12-3456789.',
  GBR: 'The Companies House number, e.g. 01234567.',
  DEU: 'The Handelsregister number with its court, e.g. HRB 12345 B.',
  FRA: 'The SIREN, e.g. 123 456 789.',
  NLD: 'The KvK number, e.g. 12345678.',
  IRL: 'The CRO number, e.g. 123456.',
};

export const REGISTERED_COUNTRY: InputSpec = { name: 'registeredAddress.country', label: 'Country where the company is registered', autocomplete: 'country', required: true, options: COUNTRY_OPTIONS };

/** An address block of the company (registered or physical) for a country: the individual flow's, renamed. */
export function companyAddress(prefix: 'registeredAddress' | 'physicalAddress', country: string, required: boolean): InputSpec[] {
  const section = prefix === 'registeredAddress' ? '' : 'section-physical ';
  return addressFields(country)
    .filter((f) => f.name.startsWith('residentialAddress.'))
    .map((f) => ({
      ...f,
      name: f.name.replace('residentialAddress.', `${prefix}.`),
      ...(f.autocomplete ? { autocomplete: `${section}${f.autocomplete}`.trim() } : {}),
      required: required && f.required === true,
      ...(f.hint ? { hint: f.hint.replace('your post', 'the company’s post') } : {}),
    }));
}

export function identityFields(country: string): InputSpec[] {
  return [
    { name: 'businessLegalName', label: 'Legal name of the company', autocomplete: 'organization', required: true, maxLength: 200 },
    { name: 'businessTradeName', label: 'Trading name', autocomplete: 'organization', maxLength: 200, hint: 'If it trades under another name.' },
    { name: 'businessType', label: 'Legal form', required: true, options: BUSINESS_TYPES.map((v): [string, string] => [v, words(v)]) },
    { name: 'companyNumber', label: 'Company number', autocomplete: 'off', required: true, maxLength: 64, hint: COMPANY_NUMBER_HINTS[country] ?? 'The number in the company register.' },
    { name: 'email', label: 'Company email', type: 'email', autocomplete: 'email', required: true, maxLength: 254 },
    { name: 'website', label: 'Website', autocomplete: 'url', maxLength: 200, hint: 'Starting with https://' },
  ];
}

export const ACTIVITY_FIELDS: InputSpec[] = [
  { name: 'activityInfo.businessDescription', label: 'What the company does', required: true, maxLength: 500 },
  { name: 'activityInfo.businessIndustry', label: 'Industry code (NAICS)', autocomplete: 'off', required: true, maxLength: 6, hint: '2 to 6 digits, e.g. 522320.' },
];

export const FINANCIAL_FIELDS: InputSpec[] = [
  { name: 'financialInfo.sourceOfFunds', label: 'Where the company’s money comes from', required: true, options: ENTITY_SOURCES_OF_FUNDS.map((v): [string, string] => [v, words(v)]) },
  { name: 'financialInfo.estimatedAnnualRevenueUsd', label: 'Annual revenue (USD)', required: true, options: ANNUAL_REVENUE_RANGES_USD.map((v): [string, string] => [v, usd(v)]) },
  { name: 'financialInfo.expectedMonthlyPaymentsUsd', label: 'Expected payments a month (USD)', autocomplete: 'off', required: true, maxLength: 15, hint: 'A whole number, e.g. 25000.' },
  yesNo('financialInfo.hasMaterialIntermediaryEntityOwner', 'Is it owned through another company?', 'Another company holds 25 % or more of it.'),
];

export const RISK_FIELDS: InputSpec[] = [
  yesNo('highRiskInfo.operatesInProhibitedCountries', 'Does it operate in sanctioned countries?'),
  { name: 'highRiskInfo.highRiskActivities', label: 'Higher-risk activities', required: true, options: HIGH_RISK_ACTIVITIES.map((v): [string, string] => [v, words(v)]) },
  { name: 'highRiskInfo.highRiskActivitiesExplanation', label: 'About those activities', maxLength: 500, hint: 'Required when it has any.' },
  yesNo('highRiskInfo.conductsMoneyServices', 'Does it provide money services?', 'Money transmission, currency exchange, cheque cashing.'),
  { name: 'highRiskInfo.conductsMoneyServicesDescription', label: 'About those money services', maxLength: 500, hint: 'Required when it does.' },
];

/** The integers and booleans of entityInfo, from the form's text (anything else stays text for the domain to refuse). */
export function entityValue(name: string, value: string): unknown {
  if (name === 'activityInfo.businessIndustry' || name === 'financialInfo.expectedMonthlyPaymentsUsd') return /^\d{1,15}$/.test(value) ? Number(value) : value;
  if (['financialInfo.hasMaterialIntermediaryEntityOwner', 'highRiskInfo.operatesInProhibitedCountries', 'highRiskInfo.conductsMoneyServices'].includes(name)) {
    return value === 'true' ? true : value === 'false' ? false : value;
  }
  return value;
}
