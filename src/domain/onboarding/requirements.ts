import { REQUIRED_ENTITY_DOCUMENT_GROUPS } from './reference/document-types.js';
import type { EntityInfo, UserInfo } from './types.js';

// What a verification still needs. Entities use the spec's four document groups exactly, plus the three
// questionnaire codes; users and associated persons use codes we define (docs/onboarding.md).

const present = (v: unknown) => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '');

/** Required entityInfo fields by dotted name, with the questionnaire that covers each section. */
const ENTITY_REQUIRED_FIELDS: { field: string; get: (e: EntityInfo) => unknown; questionnaire?: string }[] = [
  { field: 'businessLegalName', get: (e) => e.businessLegalName },
  { field: 'businessType', get: (e) => e.businessType },
  { field: 'companyNumber', get: (e) => e.companyNumber },
  { field: 'email', get: (e) => e.email },
  { field: 'registeredAddress', get: (e) => e.registeredAddress },
  { field: 'physicalAddress', get: (e) => e.physicalAddress, questionnaire: 'PHYSICAL_ADDRESS_QUESTIONNAIRE' },
  { field: 'activityInfo.businessDescription', get: (e) => e.activityInfo?.businessDescription, questionnaire: 'ACTIVITY_INFO_QUESTIONNAIRE' },
  { field: 'activityInfo.businessIndustry', get: (e) => e.activityInfo?.businessIndustry, questionnaire: 'ACTIVITY_INFO_QUESTIONNAIRE' },
  { field: 'financialInfo.sourceOfFunds', get: (e) => e.financialInfo?.sourceOfFunds, questionnaire: 'FINANCIAL_INFO_QUESTIONNAIRE' },
  { field: 'financialInfo.estimatedAnnualRevenueUsd', get: (e) => e.financialInfo?.estimatedAnnualRevenueUsd, questionnaire: 'FINANCIAL_INFO_QUESTIONNAIRE' },
  { field: 'financialInfo.expectedMonthlyPaymentsUsd', get: (e) => e.financialInfo?.expectedMonthlyPaymentsUsd, questionnaire: 'FINANCIAL_INFO_QUESTIONNAIRE' },
  {
    field: 'financialInfo.hasMaterialIntermediaryEntityOwner',
    get: (e) => e.financialInfo?.hasMaterialIntermediaryEntityOwner,
    questionnaire: 'FINANCIAL_INFO_QUESTIONNAIRE',
  },
  { field: 'highRiskInfo.operatesInProhibitedCountries', get: (e) => e.highRiskInfo?.operatesInProhibitedCountries },
  { field: 'highRiskInfo.highRiskActivities', get: (e) => e.highRiskInfo?.highRiskActivities },
  { field: 'highRiskInfo.conductsMoneyServices', get: (e) => e.highRiskInfo?.conductsMoneyServices },
];

export function missingCompanyData(info: EntityInfo): string[] {
  return ENTITY_REQUIRED_FIELDS.filter((r) => !present(r.get(info))).map((r) => r.field);
}

export function missingEntityDocuments(documentTypes: readonly string[], info: EntityInfo): string[] {
  const have = new Set(documentTypes);
  const missing: string[] = Object.entries(REQUIRED_ENTITY_DOCUMENT_GROUPS)
    .filter(([, satisfiedBy]) => !satisfiedBy.some((t: string) => have.has(t)))
    .map(([code]) => code);
  for (const r of ENTITY_REQUIRED_FIELDS) {
    if (r.questionnaire && !present(r.get(info)) && !missing.includes(r.questionnaire)) missing.push(r.questionnaire);
  }
  return missing;
}

/** Personal data a verification needs beyond what the request schema already requires. */
const PERSON_REQUIRED_FIELDS: { code: string; get: (u: UserInfo) => unknown }[] = [
  { code: 'USER_INFO_BIRTH_DATE', get: (u) => u.birthDate },
  { code: 'USER_INFO_NATIONALITY', get: (u) => u.nationality },
  { code: 'USER_INFO_RESIDENTIAL_ADDRESS', get: (u) => u.residentialAddress },
];

/**
 * IDENTITY_DOCUMENT: a passport, or both sides of a national id. PROOF_OF_ADDRESS_DOCUMENT: proof_of_address.
 * Missing personal data is reported with USER_INFO_* codes in the same list.
 */
export function missingPersonRequirements(userInfo: UserInfo, documentTypes: readonly string[]): string[] {
  const have = new Set(documentTypes);
  const missing: string[] = [];
  if (!have.has('passport') && !(have.has('national_id_front') && have.has('national_id_back'))) missing.push('IDENTITY_DOCUMENT');
  if (!have.has('proof_of_address')) missing.push('PROOF_OF_ADDRESS_DOCUMENT');
  for (const r of PERSON_REQUIRED_FIELDS) if (!present(r.get(userInfo))) missing.push(r.code);
  return missing;
}
