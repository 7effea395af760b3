/**
 * Allowed values of additionalUserInfo (individual KYC). The spec leaves them "not shown", so these are
 * this service's published choices; lower snake_case like the rest of the API's enumerations.
 */

/** additionalUserInfo.employmentStatus */
export const EMPLOYMENT_STATUSES = [
  'employed', 'self_employed', 'unemployed', 'retired', 'student', 'homemaker', 'other',
] as const;

/** additionalUserInfo.sourceOfFunds: where an individual's money comes from. */
export const INDIVIDUAL_SOURCES_OF_FUNDS = [
  'salary', 'business_income', 'investments', 'savings', 'inheritance', 'pension', 'gift', 'sale_of_property',
  'loan', 'government_benefits', 'other',
] as const;

/**
 * additionalUserInfo.mostRecentOccupation: US SOC 2018 major-group codes. Major groups rather than the
 * ~870 detailed occupations because risk scoring only uses the group and integrators can map to it.
 */
export const OCCUPATION_CODES = [
  '11-0000', '13-0000', '15-0000', '17-0000', '19-0000', '21-0000', '23-0000', '25-0000', '27-0000', '29-0000',
  '31-0000', '33-0000', '35-0000', '37-0000', '39-0000', '41-0000', '43-0000', '45-0000', '47-0000', '49-0000',
  '51-0000', '53-0000', '55-0000',
] as const;

export type OccupationCode = (typeof OCCUPATION_CODES)[number];

/** SOC 2018 major-group titles, for documentation and UIs. */
export const OCCUPATION_NAMES: Readonly<Record<OccupationCode, string>> = {
  '11-0000': 'Management Occupations',
  '13-0000': 'Business and Financial Operations Occupations',
  '15-0000': 'Computer and Mathematical Occupations',
  '17-0000': 'Architecture and Engineering Occupations',
  '19-0000': 'Life, Physical, and Social Science Occupations',
  '21-0000': 'Community and Social Service Occupations',
  '23-0000': 'Legal Occupations',
  '25-0000': 'Educational Instruction and Library Occupations',
  '27-0000': 'Arts, Design, Entertainment, Sports, and Media Occupations',
  '29-0000': 'Healthcare Practitioners and Technical Occupations',
  '31-0000': 'Healthcare Support Occupations',
  '33-0000': 'Protective Service Occupations',
  '35-0000': 'Food Preparation and Serving Related Occupations',
  '37-0000': 'Building and Grounds Cleaning and Maintenance Occupations',
  '39-0000': 'Personal Care and Service Occupations',
  '41-0000': 'Sales and Related Occupations',
  '43-0000': 'Office and Administrative Support Occupations',
  '45-0000': 'Farming, Fishing, and Forestry Occupations',
  '47-0000': 'Construction and Extraction Occupations',
  '49-0000': 'Installation, Maintenance, and Repair Occupations',
  '51-0000': 'Production Occupations',
  '53-0000': 'Transportation and Material Moving Occupations',
  '55-0000': 'Military Specific Occupations',
};

/**
 * Suggested buckets for additionalUserInfo.expectedMonthlyPaymentsUsd (`<low>_<high>` in whole USD).
 * Advisory: the spec fixes only the form, so validation accepts any integer range low < high (see
 * validateAdditionalUserInfo); these are the values the documentation and examples use.
 */
export const MONTHLY_PAYMENT_RANGES_USD = [
  '0_1000', '1000_5000', '5000_10000', '10000_50000', '50000_100000', '100000_1000000',
] as const;
