import { isCountryCode, type CountryCode } from './country-codes.js';

/**
 * Countries whose nationals or residents are treated as high risk by default (which makes
 * additionalUserInfo mandatory). Source: the FATF lists as published after the October 2025 plenary,
 * restricted to the codes the spec's CountryCode list contains:
 * - "High-risk jurisdictions subject to a call for action" (DPRK, Iran, Myanmar): none is in the list.
 * - "Jurisdictions under increased monitoring": Algeria, Angola, Bolivia, Bulgaria, Cameroon,
 *   Côte d'Ivoire, Haiti, Kenya, Lao PDR, Lebanon, Monaco, Namibia, Nepal, Venezuela, Vietnam, Yemen
 *   (DR Congo, South Sudan, Syria and the British Virgin Islands are listed by FATF but not allowed by the spec).
 * Burkina Faso, Mozambique, Nigeria and South Africa left the list in October 2025; Croatia in June 2025.
 * Iraq has not been FATF-listed since 2013 and is deliberately absent. The lists change three times a
 * year, so deployments override this with an environment variable (see parseHighRiskCountries).
 */
export const DEFAULT_HIGH_RISK_COUNTRIES = [
  'AGO', 'BGR', 'BOL', 'CIV', 'CMR', 'DZA', 'HTI', 'KEN', 'LAO', 'LBN', 'MCO', 'NAM', 'NPL', 'VEN', 'VNM', 'YEM',
] as const satisfies readonly CountryCode[];

/**
 * Parses a comma-separated override such as "VEN, YEM,LBN" (whitespace around codes ignored; empty text
 * means "no high-risk countries"). Every code must be in COUNTRY_CODES, otherwise this throws an Error
 * naming all bad codes, so a typo in configuration stops the server instead of silently lowering checks.
 */
export function parseHighRiskCountries(text: string): string[] {
  const codes = text
    .split(',')
    .map((code) => code.trim())
    .filter((code) => code !== '');
  const bad = codes.filter((code) => !isCountryCode(code));
  if (bad.length > 0) {
    throw new Error(`high-risk countries must be supported ISO 3166-1 alpha-3 codes; not recognised: ${bad.join(', ')}`);
  }
  return [...new Set(codes)];
}
