import { readFileSync } from 'node:fs';
import { normalizeName } from '../../names.js';

/**
 * Name screening list. File format (docs/verification.md): CSV with the header `name,birthDate,country,list`;
 * birthDate (YYYY-MM-DD) and country (alpha-3) may be empty. Names are compared normalized: case, accents,
 * punctuation and word order do not matter.
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
  const [header, ...lines] = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (header?.trim() !== 'name,birthDate,country,list') throw new Error('watch list must start with the header name,birthDate,country,list');
  return lines.map((line, i) => {
    const [name, birthDate, country, list] = line.split(',').map((s) => s.trim());
    if (!name || !list) throw new Error(`watch list line ${i + 2}: name and list are required`);
    return { name, birthDate: birthDate || null, country: country || null, list };
  });
}

export class WatchList {
  private readonly byName = new Map<string, WatchListEntry[]>();

  constructor(entries: WatchListEntry[]) {
    for (const entry of entries) {
      const key = normalizeName(entry.name);
      this.byName.set(key, [...(this.byName.get(key) ?? []), entry]);
    }
  }

  static fromFile(path: string): WatchList {
    return new WatchList(parseWatchList(readFileSync(path, 'utf8')));
  }

  /** `match` when the name and a listed birth date agree; `possible` on the name alone (no date to compare). */
  screen(fullName: string, birthDate: string | null | undefined): { kind: 'match' | 'possible'; entry: WatchListEntry } | undefined {
    for (const entry of this.byName.get(normalizeName(fullName)) ?? []) {
      if (entry.birthDate && birthDate && entry.birthDate === birthDate) return { kind: 'match', entry };
      if (!entry.birthDate || !birthDate) return { kind: 'possible', entry };
    }
    return undefined;
  }
}
