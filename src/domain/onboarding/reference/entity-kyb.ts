/**
 * Allowed values of entityInfo (KYB). The spec leaves them "not shown", so these are this service's
 * published choices; lower snake_case like the rest of the API's enumerations.
 */

/** entityInfo.businessType: legal form of the business. */
export const BUSINESS_TYPES = [
  'corporation', 'llc', 'partnership', 'sole_proprietorship', 'trust', 'cooperative', 'non_profit', 'other',
] as const;

/** entityInfo.financialInfo.sourceOfFunds: where the business's money comes from. */
export const ENTITY_SOURCES_OF_FUNDS = [
  'business_revenue', 'investment', 'loan', 'owner_contribution', 'grant', 'sale_of_assets', 'other',
] as const;

/**
 * entityInfo.highRiskInfo.highRiskActivities: one value (the spec types the field as a single string).
 * Anything but `none` needs highRiskActivitiesExplanation.
 */
export const HIGH_RISK_ACTIVITIES = [
  'none', 'adult_entertainment', 'gambling', 'cryptocurrency', 'money_services', 'weapons', 'cannabis',
  'precious_metals', 'charities', 'other',
] as const;

/** entityInfo.financialInfo.preferredPrimaryCurrency: lower-case ISO 4217 codes and stablecoin tickers. */
export const CURRENCIES = ['usd', 'eur', 'gbp', 'usdc', 'usdt'] as const;

/**
 * Suggested buckets for entityInfo.financialInfo.estimatedAnnualRevenueUsd (`<low>_<high>` in whole USD).
 * Advisory, like MONTHLY_PAYMENT_RANGES_USD: validation accepts any integer range low < high.
 */
export const ANNUAL_REVENUE_RANGES_USD = [
  '0_100000', '100000_1000000', '1000000_10000000', '10000000_50000000', '50000000_250000000',
  '250000000_1000000000',
] as const;
