import { parse } from 'csv-parse/sync';
import { listedDate } from './birth-dates.js';
import { countryCode } from './countries.js';
import { parseBirthDate, parseRemarks } from './remarks.js';
import type { EntryType, ListEntry } from './types.js';

/** A list file that cannot be used: the message names the file and, when it is one row, its line. */
export class ListFormatError extends Error {}

export interface ListFile {
  path: string;
  text: string;
}

/** OFAC's empty value. */
const EMPTY = '-0-';
const value = (field: string | undefined): string => {
  const v = (field ?? '').trim();
  return v === EMPTY ? '' : v;
};

/** Rows of a headerless CSV file with their line numbers, each with exactly `columns` fields. */
export function rows(file: ListFile, columns: number, what: string, fromLine = 1): { fields: string[]; line: number }[] {
  // OFAC's files end with an ASCII SUB (0x1A) after the last line.
  const text = file.text.replace(/^\uFEFF/, '').replace(/\x1A\s*$/, '');
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { info: true, relax_column_count: true, skip_empty_lines: true, bom: true, from_line: fromLine }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (err) {
    const line = (err as { lines?: number }).lines;
    throw new ListFormatError(`${file.path}${line ? ` line ${line}` : ''}: not valid CSV (${(err as Error).message.replace(/^Invalid [^:]*: /, '').split(':')[0]})`);
  }
  return records.map(({ record, info }) => {
    if (record.length !== columns) throw new ListFormatError(`${file.path} line ${info.lines}: ${what} has ${columns} columns, this row ${record.length}`);
    return { fields: record, line: info.lines };
  });
}

function entNum(file: ListFile, line: number, field: string | undefined): string {
  const v = (field ?? '').trim();
  if (!/^\d{1,10}$/.test(v)) throw new ListFormatError(`${file.path} line ${line}: ent_num must be a number (got ${JSON.stringify(v.slice(0, 40))})`);
  return v;
}

function entryType(sdnType: string): EntryType {
  const t = sdnType.toLowerCase();
  return t === 'individual' ? 'individual' : t === 'vessel' ? 'vessel' : t === 'aircraft' ? 'aircraft' : 'entity';
}

/**
 * OFAC's SDN list as published (docs/screening.md#ofacs-sdn-files): SDN.CSV (ent_num, SDN_Name, SDN_Type, Program,
 * Title, Call_Sign, Vess_type, Tonnage, GRT, Vess_flag, Vess_owner, Remarks), ALT.CSV (ent_num, alt_num, alt_type,
 * alt_name, alt_remarks) and ADD.CSV (ent_num, add_num, Address, City/State/Province/Postal Code, Country,
 * add_remarks), without a header, `-0-` for empty. Programs are `] [`-separated; dates of birth, nationality,
 * citizenship and wallet addresses come from the remarks; ALT.CSV gives aliases, ADD.CSV more countries.
 */
export function parseOfac(label: string, sdn: ListFile, alt?: ListFile, add?: ListFile): ListEntry[] {
  const entries = new Map<string, ListEntry>();
  for (const { fields, line } of rows(sdn, 12, 'SDN.CSV')) {
    const ent = entNum(sdn, line, fields[0]);
    const name = value(fields[1]);
    if (!name) throw new ListFormatError(`${sdn.path} line ${line}: SDN_Name is empty`);
    if (entries.has(ent)) throw new ListFormatError(`${sdn.path} line ${line}: ent_num ${ent} is given twice`);
    const remarks = parseRemarks(value(fields[11]));
    const flag = countryCode(value(fields[9]));
    entries.set(ent, {
      list: label,
      entryNumber: ent,
      type: entryType(value(fields[2])),
      name,
      aliases: [],
      programs: value(fields[3])
        .split(/\]\s*\[/)
        .map((p) => p.replace(/[[\]]/g, '').trim())
        .filter(Boolean),
      birthDates: remarks.birthDates,
      countries: flag && !remarks.countries.includes(flag) ? [...remarks.countries, flag] : remarks.countries,
      walletAddresses: remarks.walletAddresses,
      ...(remarks.other.length ? { remarks: remarks.other } : {}),
    });
  }
  const owner = (file: ListFile, line: number, field: string | undefined): ListEntry => {
    const ent = entNum(file, line, field);
    const entry = entries.get(ent);
    if (!entry) throw new ListFormatError(`${file.path} line ${line}: ent_num ${ent} is not in SDN.CSV`);
    return entry;
  };
  if (alt) {
    for (const { fields, line } of rows(alt, 5, 'ALT.CSV')) {
      const entry = owner(alt, line, fields[0]);
      const name = value(fields[3]);
      if (!name) throw new ListFormatError(`${alt.path} line ${line}: alt_name is empty`);
      entry.aliases.push({ name, aliasType: value(fields[2]) || 'a.k.a.' });
    }
  }
  if (add) {
    for (const { fields, line } of rows(add, 6, 'ADD.CSV')) {
      const entry = owner(add, line, fields[0]);
      const code = countryCode(value(fields[4]));
      if (code && !entry.countries.includes(code)) entry.countries.push(code);
    }
  }
  return [...entries.values()];
}

export const SIMPLE_HEADER = 'name,birthDate,country,list';

/**
 * The simple list (docs/screening.md#the-simple-csv): the header `name,birthDate,country,list`, then one party a row;
 * birthDate (YYYY-MM-DD, or a year) and country (alpha-3) may be empty. `label` set: the folder's label is the list,
 * the `list` column its program; unset (WATCHLIST_FILE): the `list` column is the list.
 */
export function parseSimpleCsv(file: ListFile, label?: string): ListEntry[] {
  const text = file.text.replace(/^\uFEFF/, '');
  const firstLine = text.split(/\r?\n/, 1)[0]?.trim() ?? '';
  if (firstLine.replace(/\s+/g, '') !== SIMPLE_HEADER) throw new ListFormatError(`${file.path} line 1: a watch list must start with the header ${SIMPLE_HEADER}`);
  return rows({ path: file.path, text }, 4, 'a watch list', 2).map(({ fields, line: at }) => {
    const [name = '', birthDate = '', country = '', list = ''] = fields.map((f) => f.trim());
    if (!name || !list) throw new ListFormatError(`${file.path} line ${at}: name and list are required`);
    const ymd = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthDate);
    const date = ymd ? listedDate(birthDate, ymd[1]!, ymd[2], ymd[3]) : birthDate ? parseBirthDate(birthDate) : undefined;
    if (birthDate && !date) throw new ListFormatError(`${file.path} line ${at}: birthDate must be YYYY-MM-DD (got ${JSON.stringify(birthDate.slice(0, 40))})`);
    const code = country ? countryCode(country) : undefined;
    if (country && !code) throw new ListFormatError(`${file.path} line ${at}: country must be an alpha-3 code (got ${JSON.stringify(country.slice(0, 40))})`);
    return {
      list: label ?? list,
      entryNumber: String(at),
      type: 'unknown',
      name,
      aliases: [],
      programs: label ? [list] : [],
      birthDates: date ? [date] : [],
      countries: code ? [code] : [],
      walletAddresses: [],
    };
  });
}
