import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parseEuFsf } from './eu-fsf.js';
import { ListFormatError, parseOfac, parseSimpleCsv, SIMPLE_HEADER, type ListFile } from './formats.js';
import type { ListEntry } from './types.js';
import { isOfsiConsolidatedCsv, isUkSanctionsCsv, parseUkSanctions } from './uk-sanctions.js';
import { parseUnSc } from './un-sc.js';
import { parseXml, rootElement } from './xml.js';

/** Where a list comes from: a folder (SCREENING_LISTS) or one simple CSV file (WATCHLIST_FILE). */
export interface ListSource {
  label: string;
  path: string;
  kind: 'folder' | 'file';
}

/** The formats a list's files may be in (docs/screening.md#lists-and-their-formats). */
export type ListFormat = 'ofac-sdn' | 'eu-fsf-xml' | 'un-sc-xml' | 'uk-sanctions-csv' | 'simple-csv';

/** One version of a list, as read from its files. */
export interface LoadedList {
  source: ListSource;
  /** SHA-256 (hex, first 16 digits) over the names and bytes of the files read: a new version is a new fingerprint. */
  version: string;
  format: ListFormat;
  files: string[];
  entries: ListEntry[];
}

/** The files of a source as they are on disk, before parsing. */
export interface ListFiles {
  source: ListSource;
  files: ListFile[];
  version: string;
}

function fingerprint(files: ListFile[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(basename(file.path)).update('\0').update(file.text).update('\0');
  return hash.digest('hex').slice(0, 16);
}

const OFAC_FILES = ['SDN.CSV', 'ALT.CSV', 'ADD.CSV'];

/**
 * Which files of a folder make its list: OFAC's (SDN.CSV and, when present, ALT.CSV and ADD.CSV); else every *.xml (the
 * EU's or the UN's list, told apart by the root element when parsed); else every *.csv (the UK Sanctions List's, or
 * simple CSVs, told apart by the header).
 */
function pick(path: string, names: string[]): string[] {
  const byUpper = new Map(names.map((n) => [n.toUpperCase(), n]));
  if (byUpper.has('SDN.CSV')) return OFAC_FILES.filter((n) => byUpper.has(n)).map((n) => join(path, byUpper.get(n)!));
  const xml = names.filter((n) => n.toLowerCase().endsWith('.xml')).sort();
  if (xml.length > 0) return xml.map((n) => join(path, n));
  const csv = names.filter((n) => n.toLowerCase().endsWith('.csv')).sort();
  if (csv.length === 0) throw new ListFormatError(`${path}: no SDN.CSV (OFAC's format), no .xml (the EU's or the UN's list) and no .csv (the UK Sanctions List, or the header ${SIMPLE_HEADER})`);
  return csv.map((n) => join(path, n));
}

function describe(err: unknown, path: string): ListFormatError {
  if (err instanceof ListFormatError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  return new ListFormatError(`${path}: cannot be read (${code ?? (err as Error).message})`);
}

/** Reads a source's files (synchronously: at start-up). */
export function readListFilesSync(source: ListSource): ListFiles {
  try {
    const paths = source.kind === 'file' ? [source.path] : pick(source.path, statSync(source.path).isDirectory() ? readdirSync(source.path) : notAFolder(source.path));
    const files = paths.map((p) => ({ path: p, text: readFileSync(p, 'utf8') }));
    return { source, files, version: fingerprint(files) };
  } catch (err) {
    throw describe(err, source.path);
  }
}

/** Reads a source's files without holding the thread (reloads). */
export async function readListFiles(source: ListSource): Promise<ListFiles> {
  try {
    const paths = source.kind === 'file' ? [source.path] : pick(source.path, (await stat(source.path)).isDirectory() ? await readdir(source.path) : notAFolder(source.path));
    const files = await Promise.all(paths.map(async (p) => ({ path: p, text: await readFile(p, 'utf8') })));
    return { source, files, version: fingerprint(files) };
  } catch (err) {
    throw describe(err, source.path);
  }
}

function notAFolder(path: string): never {
  throw new ListFormatError(`${path}: not a folder`);
}

/** Parses files read by readListFiles; ListFormatError names the file and line of the first problem. */
export function parseListFiles({ source, files, version }: ListFiles): LoadedList {
  const byName = new Map(files.map((f) => [basename(f.path).toUpperCase(), f]));
  const sdn = source.kind === 'folder' ? byName.get('SDN.CSV') : undefined;
  if (sdn) {
    const entries = parseOfac(source.label, sdn, byName.get('ALT.CSV'), byName.get('ADD.CSV'));
    return { source, version, format: 'ofac-sdn', files: files.map((f) => f.path), entries };
  }
  if (source.kind === 'file') return { source, version, format: 'simple-csv', files: files.map((f) => f.path), entries: parseSimpleCsv(files[0]!) };
  const parsed = files.map((file) => ({ file, ...parseFolderFile(source.label, file) }));
  const format = parsed[0]!.format;
  const other = parsed.find((p) => p.format !== format);
  if (other) throw new ListFormatError(`${source.path}: one list a folder, in one format: ${basename(parsed[0]!.file.path)} is ${FORMAT_NAMES[format]}, ${basename(other.file.path)} ${FORMAT_NAMES[other.format]}`);
  if (format !== 'simple-csv') {
    // Entry numbers are an entry's key (a hit, its case); a list split over files must not give one twice.
    const seen = new Map<string, string>();
    for (const p of parsed) {
      for (const e of p.entries) {
        const before = seen.get(e.entryNumber);
        if (before) throw new ListFormatError(`${p.file.path}: entry ${e.entryNumber} is also in ${before}`);
        seen.set(e.entryNumber, p.file.path);
      }
    }
  }
  return { source, version, format, files: files.map((f) => f.path), entries: parsed.flatMap((p) => p.entries) };
}

const FORMAT_NAMES: Record<ListFormat, string> = {
  'ofac-sdn': "OFAC's SDN list",
  'eu-fsf-xml': "the EU's list (<export>)",
  'un-sc-xml': "the UN's list (<CONSOLIDATED_LIST>)",
  'uk-sanctions-csv': 'the UK Sanctions List',
  'simple-csv': 'a simple CSV',
};

/** One file of a folder without SDN.CSV, in the format its content says: the XML's root element, the CSV's header. */
function parseFolderFile(label: string, file: ListFile): { format: ListFormat; entries: ListEntry[] } {
  if (file.path.toLowerCase().endsWith('.xml')) {
    const root = rootElement(file.text);
    // Copied: the XML parser's values are slices of the file's text, which they would keep whole in memory (the EU's
    // 25 MB file held 56 MB of heap where a copy of its entries holds 6: docs/benchmarks.md).
    if (root === 'export') return { format: 'eu-fsf-xml', entries: structuredClone(parseEuFsf(label, file)) };
    if (root === 'CONSOLIDATED_LIST') return { format: 'un-sc-xml', entries: structuredClone(parseUnSc(label, file)) };
    // Not one of them: a malformed file is named as such, with its line, before its root is.
    parseXml(file, []);
    throw new ListFormatError(`${file.path} line 1: the root element <${root ?? ''}> is neither the EU's <export> nor the UN's <CONSOLIDATED_LIST>`);
  }
  if (isUkSanctionsCsv(file.text)) return { format: 'uk-sanctions-csv', entries: parseUkSanctions(label, file) };
  if (isOfsiConsolidatedCsv(file.text)) throw new ListFormatError(`${file.path} line 2: OFSI's Consolidated List (closed on 28 January 2026) is not read: use the UK Sanctions List's CSV`);
  return { format: 'simple-csv', entries: parseSimpleCsv(file, label) };
}

export function loadListSync(source: ListSource): LoadedList {
  return parseListFiles(readListFilesSync(source));
}
