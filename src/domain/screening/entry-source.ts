import type { ListFormat } from './load.js';

/**
 * Where an operator reads a listed entry as its publisher shows it. OFAC's Sanctions List Search has a page per
 * entry (by ent_num); the EU's, the UN's and the UK's lists are published as whole files, so an entry's link is its
 * list's page, where the entry is found by its number; a simple CSV is the operator's own file and has none.
 */
const SOURCES: Record<ListFormat, ((entryNumber: string) => string) | null> = {
  'ofac-sdn': (n) => `https://sanctionssearch.ofac.treas.gov/Details.aspx?id=${encodeURIComponent(n)}`,
  'eu-fsf-xml': () => 'https://data.europa.eu/data/datasets/consolidated-list-of-persons-groups-and-entities-subject-to-eu-financial-sanctions',
  'un-sc-xml': () => 'https://main.un.org/securitycouncil/en/content/un-sc-consolidated-list',
  'uk-sanctions-csv': () => 'https://www.gov.uk/government/publications/the-uk-sanctions-list',
  'simple-csv': null,
};

export function entrySourceUrl(format: ListFormat, entryNumber: string): string | null {
  return SOURCES[format]?.(entryNumber) ?? null;
}
