import { iso31661Alpha3ToAlpha2 } from 'iso-3166';

/**
 * CountryCode: the ISO 3166-1 alpha-3 codes the spec allows, exactly as listed and in the spec's order
 * (which is not alphabetical: PHL before PAK, ZAF between SVN and SWE, ARE after UKR). Published as a
 * tuple so TypeBox can build `Type.Enum` from it and the OpenAPI document lists the same values.
 */
export const COUNTRY_CODES = [
  'ABW', 'AFG', 'AGO', 'ALB', 'AND', 'ARG', 'ARM', 'AUS', 'AUT', 'AZE', 'BEL', 'BGD', 'BGR', 'BHR', 'BHS', 'BIH',
  'BLZ', 'BMU', 'BOL', 'BRA', 'BRB', 'BWA', 'CAN', 'CHL', 'CHN', 'CIV', 'CMR', 'COL', 'COM', 'CRI', 'CUW', 'CXR',
  'CYM', 'CYP', 'CZE', 'DEU', 'DMA', 'DNK', 'DOM', 'DZA', 'ECU', 'EGY', 'ESP', 'EST', 'ETH', 'FIN', 'FJI', 'FRA',
  'GBR', 'GEO', 'GHA', 'GIB', 'GRC', 'GTM', 'HKG', 'HND', 'HRV', 'HTI', 'HUN', 'IDN', 'IMN', 'IND', 'IRL', 'IRQ',
  'ISL', 'ISR', 'ITA', 'JAM', 'JOR', 'JPN', 'KAZ', 'KEN', 'KGZ', 'KHM', 'KNA', 'KOR', 'KWT', 'LAO', 'LBN', 'LBR',
  'LCA', 'LKA', 'LTU', 'LUX', 'LVA', 'MAR', 'MCO', 'MDA', 'MDG', 'MEX', 'MHL', 'MKD', 'MLT', 'MNE', 'MOZ', 'MRT',
  'MUS', 'MWI', 'MYS', 'NAM', 'NGA', 'NIC', 'NLD', 'NOR', 'NPL', 'NZL', 'OMN', 'PAN', 'PER', 'PHL', 'PAK', 'POL',
  'PRT', 'QAT', 'ROU', 'RUS', 'SAU', 'SEN', 'SGP', 'SMR', 'SVK', 'SVN', 'ZAF', 'SWE', 'CHE', 'THA', 'TUN', 'TUR',
  'UGA', 'UKR', 'ARE', 'USA', 'URY', 'UZB', 'VEN', 'VNM', 'YEM', 'ZMB', 'ZWE',
] as const;

export type CountryCode = (typeof COUNTRY_CODES)[number];

const COUNTRY_CODE_SET: ReadonlySet<string> = new Set(COUNTRY_CODES);

/** True for a string in COUNTRY_CODES (case-sensitive: the spec's codes are upper-case). */
export function isCountryCode(value: unknown): value is CountryCode {
  return typeof value === 'string' && COUNTRY_CODE_SET.has(value);
}

// Built once at load so a spec code that iso-3166 does not know fails at startup, not mid-request.
const ALPHA2: ReadonlyMap<string, string> = new Map(
  COUNTRY_CODES.map((alpha3) => {
    const alpha2 = Object.hasOwn(iso31661Alpha3ToAlpha2, alpha3) ? iso31661Alpha3ToAlpha2[alpha3] : undefined;
    if (alpha2 === undefined) throw new Error(`iso-3166 has no alpha-2 code for ${alpha3}`);
    return [alpha3, alpha2];
  }),
);

/**
 * The ISO 3166-1 alpha-2 code of a supported alpha-3 code (subdivision codes and the postal-code library
 * are keyed by alpha-2). Throws RangeError for a code outside COUNTRY_CODES: callers check membership first.
 */
export function alpha2Of(alpha3: string): string {
  const alpha2 = ALPHA2.get(alpha3);
  if (alpha2 === undefined) throw new RangeError(`not a supported country code: ${JSON.stringify(alpha3)}`);
  return alpha2;
}
