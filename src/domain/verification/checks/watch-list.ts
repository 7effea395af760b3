import { ScreeningIndex } from '../../screening/engine.js';
import { parseSimpleCsv } from '../../screening/formats.js';
import type { ScreeningHit } from '../../screening/types.js';

/**
 * The simple list of WATCHLIST_FILE (docs/screening.md#the-simple-csv): the header `name,birthDate,country,list`;
 * birthDate (YYYY-MM-DD) and country (alpha-3) may be empty. Kept for the callers of the first screening; the
 * screening itself is src/domain/screening/ (ScreeningLists on the Policy).
 */
export interface WatchListEntry {
  name: string;
  birthDate: string | null;
  country: string | null;
  list: string;
}

// One comparison key for names across the service (the bank accounts' holder check uses it too).
export { normalizeName } from '../../names.js';

export function parseWatchList(text: string): WatchListEntry[] {
  return parseSimpleCsv({ path: 'watch list', text }).map((e) => ({ name: e.name, birthDate: e.birthDates[0]?.day ?? null, country: e.countries[0] ?? null, list: e.list }));
}

/** The finding a screening hit makes: `match` when the birth dates agree too, `possible` on the name alone. */
export function hitKind(hit: ScreeningHit): 'match' | 'possible' {
  return hit.agreed.includes('birthDate') ? 'match' : 'possible';
}

/** A simple list on its own, screened by the screening engine (tests; one-off checks). */
export class WatchList {
  private readonly index: ScreeningIndex;
  private readonly entries: WatchListEntry[];

  constructor(entries: WatchListEntry[]) {
    this.entries = entries;
    const csv = ['name,birthDate,country,list', ...entries.map((e) => [e.name, e.birthDate ?? '', e.country ?? '', e.list].map((f) => `"${f.replace(/"/g, '""')}"`).join(','))].join('\n');
    this.index = new ScreeningIndex(parseSimpleCsv({ path: 'watch list', text: csv }));
  }

  /**
   * `match` when the name and a listed birth date agree; `possible` on the name alone (no date to compare).
   * `familyName`, the person's last name when known apart (as personSubject gives it), weighs above the given names.
   */
  screen(fullName: string, birthDate: string | null | undefined, familyName?: string | null): { kind: 'match' | 'possible'; entry: WatchListEntry } | undefined {
    const hit = this.index.screen({ kind: 'person', names: [fullName], familyName: familyName ?? null, birthDate: birthDate ?? null })[0];
    return hit ? { kind: hitKind(hit), entry: this.entries[Number(hit.entryNumber) - 2]! } : undefined;
  }
}
