import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ListFormatError, parseOfac, parseSimpleCsv, SIMPLE_HEADER, type ListFile } from './formats.js';
import type { ListEntry } from './types.js';

/** Where a list comes from: a folder (SCREENING_LISTS) or one simple CSV file (WATCHLIST_FILE). */
export interface ListSource {
  label: string;
  path: string;
  kind: 'folder' | 'file';
}

/** One version of a list, as read from its files. */
export interface LoadedList {
  source: ListSource;
  /** SHA-256 (hex, first 16 digits) over the names and bytes of the files read: a new version is a new fingerprint. */
  version: string;
  format: 'ofac-sdn' | 'simple-csv';
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

/** Which files of a folder make its list: OFAC's (SDN.CSV and, when present, ALT.CSV and ADD.CSV) or the *.csv. */
function pick(path: string, names: string[]): string[] {
  const byUpper = new Map(names.map((n) => [n.toUpperCase(), n]));
  if (byUpper.has('SDN.CSV')) return OFAC_FILES.filter((n) => byUpper.has(n)).map((n) => join(path, byUpper.get(n)!));
  const csv = names.filter((n) => n.toLowerCase().endsWith('.csv')).sort();
  if (csv.length === 0) throw new ListFormatError(`${path}: no SDN.CSV (OFAC's format) nor a .csv with the header ${SIMPLE_HEADER}`);
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
  const entries = files.flatMap((f) => parseSimpleCsv(f, source.kind === 'folder' ? source.label : undefined));
  return { source, version, format: 'simple-csv', files: files.map((f) => f.path), entries };
}

export function loadListSync(source: ListSource): LoadedList {
  return parseListFiles(readListFilesSync(source));
}
