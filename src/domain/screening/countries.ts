import { iso31661 } from 'iso-3166';

/** Country names as OFAC writes them where they differ from ISO 3166's. */
const OFAC_NAMES: Record<string, string> = {
  russia: 'RUS',
  iran: 'IRN',
  syria: 'SYR',
  venezuela: 'VEN',
  'korea north': 'PRK',
  'north korea': 'PRK',
  'korea south': 'KOR',
  'south korea': 'KOR',
  burma: 'MMR',
  'congo democratic republic of the': 'COD',
  'congo republic of the': 'COG',
  bolivia: 'BOL',
  tanzania: 'TZA',
  moldova: 'MDA',
  laos: 'LAO',
  vietnam: 'VNM',
  'west bank': 'PSE',
  palestinian: 'PSE',
  'united kingdom': 'GBR',
  'united states': 'USA',
  turkey: 'TUR',
  'cote divoire': 'CIV',
  kosovo: 'XKX',
  'region crimea': 'UKR',
  // The UN's spellings (its consolidated list writes countries by name), where they differ from ISO 3166's.
  'democratic peoples republic of korea': 'PRK',
  'republic of korea': 'KOR',
  'democratic republic of the congo': 'COD',
  'republic of the congo': 'COG',
  'united republic of tanzania': 'TZA',
  'republic of moldova': 'MDA',
  'state of palestine': 'PSE',
  netherlands: 'NLD',
};

const key = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z]+/g, ' ')
    .trim();

const BY_NAME = new Map<string, string>([...iso31661.map((c) => [key(c.name), c.alpha3] as [string, string]), ...Object.entries(OFAC_NAMES)]);
const ALPHA3 = new Set(iso31661.map((c) => c.alpha3));

/** A country's alpha-3 code from its name as lists write it (Russia, Korea, North, Iran) or from its code; undefined when unknown. */
export function countryCode(nameOrCode: string): string | undefined {
  const trimmed = nameOrCode.trim();
  if (/^[A-Z]{3}$/.test(trimmed) && ALPHA3.has(trimmed)) return trimmed;
  return BY_NAME.get(key(trimmed));
}

/** ISO 3166 alpha-2 codes the EU writes that are not (or no longer) assigned: Kosovo, Serbia and Montenegro. */
const OLD_ALPHA2: Record<string, string> = { XK: 'XKX', CS: 'SRB' };
const BY_ALPHA2 = new Map<string, string>([...iso31661.map((c) => [c.alpha2, c.alpha3] as [string, string]), ...Object.entries(OLD_ALPHA2)]);

/** A country's alpha-3 code from its ISO 3166 alpha-2 code (the EU's countryIso2Code); undefined when unknown (`00`). */
export function countryFromAlpha2(code: string): string | undefined {
  return BY_ALPHA2.get(code.trim().toUpperCase());
}
