import { parse } from 'csv-parse/sync';
import { listedDate } from './birth-dates.js';
import { countryCode } from './countries.js';
import { ListFormatError, rows, type ListFile } from './formats.js';
import { parseRemarks } from './remarks.js';
import type { EntryType, ListedBirthDate, ListedName, ListEntry } from './types.js';

/** The columns read; the file has more (58 in all, docs/screening.md#the-uk-sanctions-list-csv), found by their names. */
const REQUIRED = ['Unique ID', 'Name 6', 'Name 1', 'Name 2', 'Name 3', 'Name 4', 'Name 5', 'Name type', 'Regime Name', 'Designation Type'] as const;
const OPTIONAL = ['Alias strength', 'Name non-latin script', 'Other Information', 'Address Country', 'D.O.B', 'Nationality(/ies)', 'Current believed flag of ship'] as const;
type Column = (typeof REQUIRED)[number] | (typeof OPTIONAL)[number];

const lines = (text: string) => text.replace(/^\uFEFF/, '').split(/\r?\n/, 3);

/** Whether a CSV file is the UK Sanctions List's: its `Report Date: …` line, or a header with Unique ID and Name 6. */
export function isUkSanctionsCsv(text: string): boolean {
  const [first = '', second = ''] = lines(text);
  const header = /^"?Report Date/i.test(first) ? second : first;
  return /(^|,)"?Unique ID"?(,|$)/.test(header) && /(^|,)"?Name 6"?(,|$)/.test(header);
}

/** OFSI's Consolidated List (ConList.csv: `Last Updated,…`, then `Name 6,Name 1,…,Group ID`), closed on 28 January 2026. */
export function isOfsiConsolidatedCsv(text: string): boolean {
  const [first = '', second = ''] = lines(text);
  return /^"?Last Updated"?,/.test(first) && /^"?Name 6"?,/.test(second) && /(^|,)"?Group ID"?(,|$)/.test(second);
}

const DATE = /\b(\d{1,2}|dd|00)\/(\d{1,2}|mm|00)\/(\d{4})\b/gi;

/**
 * The dates of a D.O.B cell: `14/07/1961`, with `dd`, `mm` or `00` for a part not known (`00/00/1961`, `dd/mm/1961`,
 * `dd/07/1961`); several in one cell are each read. Text that holds no such date gives none.
 */
export function ukBirthDates(cell: string): ListedBirthDate[] {
  const dates: ListedBirthDate[] = [];
  for (const m of cell.matchAll(DATE)) {
    const [text, d, mo, y] = [m[0], m[1]!, m[2]!, m[3]!];
    const month = /^\d+$/.test(mo) && Number(mo) >= 1 && Number(mo) <= 12 ? mo : undefined;
    const day = month && /^\d+$/.test(d) && Number(d) >= 1 && Number(d) <= 31 ? d : undefined;
    if (!dates.some((x) => x.text === text)) dates.push(listedDate(text, y, month, day));
  }
  return dates;
}

/** The countries of a cell: one name, or several (`(1) Russia (2) Belarus`, `Russia|Belarus`, `Russia; Belarus`, `Russia, Belarus`). */
function ukCountries(cell: string): string[] {
  const whole = countryCode(cell);
  if (whole || !cell.trim()) return whole ? [whole] : [];
  return cell
    .split(/\(\d+\)|[|;,]|\.\s/)
    .map((part) => countryCode(part))
    .filter((c): c is string => c !== undefined);
}

function entryType(designationType: string): EntryType {
  const t = designationType.trim().toLowerCase();
  return t === 'individual' ? 'individual' : t === 'entity' ? 'entity' : t === 'ship' ? 'vessel' : 'unknown';
}

/**
 * The UK Sanctions List (FCDO) in its CSV form (docs/screening.md#the-uk-sanctions-list-csv): a `Report Date: …` line,
 * the header, then one row per name (and per address) of a designation, rows of one designation sharing its Unique ID.
 * Name 6 is the family name (an entity's or ship's whole name), Name 1 to 5 the others; `Name type` says `Primary Name`,
 * `Primary Name Variation` or `Alias`. The entry number is the Unique ID (`RUS0001`).
 */
export function parseUkSanctions(label: string, file: ListFile): ListEntry[] {
  const text = file.text.replace(/^\uFEFF/, '');
  const headerLine = /^"?Report Date/i.test(lines(text)[0] ?? '') ? 2 : 1;
  const headerText = text.split(/\r?\n/)[headerLine - 1] ?? '';
  let header: string[];
  try {
    header = ((parse(headerText, { relax_column_count: true }) as string[][])[0] ?? []).map((h) => h.trim());
  } catch {
    throw new ListFormatError(`${file.path} line ${headerLine}: the UK Sanctions List's header cannot be read`);
  }
  const missing = REQUIRED.filter((c) => !header.includes(c));
  if (missing.length > 0) throw new ListFormatError(`${file.path} line ${headerLine}: the UK Sanctions List's header has no ${missing.join(', ')}`);
  const index = new Map<Column, number>([...REQUIRED, ...OPTIONAL].map((c) => [c, header.indexOf(c)]));
  const byId = new Map<string, { entry: ListEntry; primary: boolean }>();
  for (const { fields, line } of rows({ path: file.path, text }, header.length, 'the UK Sanctions List', headerLine).slice(1)) {
    const get = (c: Column) => {
      const i = index.get(c) ?? -1;
      return i < 0 ? '' : (fields[i] ?? '').trim();
    };
    const id = get('Unique ID');
    if (!id) throw new ListFormatError(`${file.path} line ${line}: Unique ID is empty`);
    const type = entryType(get('Designation Type'));
    const family = get('Name 6');
    const given = (['Name 1', 'Name 2', 'Name 3', 'Name 4', 'Name 5'] as const)
      .map(get)
      .filter(Boolean)
      .join(' ');
    const name = family && given ? `${family}, ${given}` : family || given;
    if (!name) throw new ListFormatError(`${file.path} line ${line}: ${id} has no name (Name 6 and Name 1 to 5 are empty)`);
    const listed: ListedName = { name, ...(type === 'individual' && family ? { familyName: family } : {}) };
    const nameType = get('Name type');
    const primary = /^primary name$/i.test(nameType);
    let held = byId.get(id);
    if (!held) {
      held = { entry: { list: label, entryNumber: id, type, name, ...(listed.familyName ? { familyName: listed.familyName } : {}), aliases: [], programs: [], birthDates: [], countries: [], walletAddresses: [] }, primary };
      byId.set(id, held);
    } else if (primary && !held.primary) {
      // The primary name came after a variation or alias: it becomes the entry's name, and the one before an alias.
      const { entry } = held;
      entry.aliases.unshift({ name: entry.name, ...(entry.familyName ? { familyName: entry.familyName } : {}), aliasType: 'Alias' });
      entry.name = name;
      if (listed.familyName) entry.familyName = listed.familyName;
      else delete entry.familyName;
      held.primary = true;
    }
    const { entry } = held;
    const strength = get('Alias strength');
    const alias = (n: ListedName, aliasType: string) => {
      if (n.name !== entry.name && !entry.aliases.some((a) => a.name === n.name)) entry.aliases.push({ ...n, aliasType });
    };
    if (!primary || name !== entry.name) alias(listed, strength ? `${nameType || 'Alias'} (${strength})` : nameType || 'Alias');
    const nonLatin = get('Name non-latin script');
    if (nonLatin) alias({ name: nonLatin }, 'non-Latin script');
    const regime = get('Regime Name');
    if (regime && !entry.programs.includes(regime)) entry.programs.push(regime);
    for (const date of ukBirthDates(get('D.O.B'))) if (!entry.birthDates.some((d) => d.text === date.text)) entry.birthDates.push(date);
    for (const code of [...ukCountries(get('Nationality(/ies)')), ...ukCountries(get('Address Country')), ...ukCountries(get('Current believed flag of ship'))]) {
      if (!entry.countries.includes(code)) entry.countries.push(code);
    }
    for (const w of parseRemarks(get('Other Information')).walletAddresses) if (!entry.walletAddresses.some((x) => x.address === w.address)) entry.walletAddresses.push(w);
  }
  return [...byId.values()].map((h) => h.entry);
}
