import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ListEntry } from '../../../src/domain/screening/types.js';
import { ROOT_URL } from '../../harness/root.js';

/** The shipped sample (OFAC's format). */
export const SAMPLE = new URL('config/screening/ofac-sample', ROOT_URL).pathname;

const q = (s: string | null) => (s === null ? '-0- ' : `"${s.replace(/"/g, '""')}"`);

/** One SDN.CSV row as OFAC writes it: 12 columns, quoted text, `-0- ` for empty. */
export function sdnRow(ent: number, name: string, type: string | null, programs: string, remarks: string | null): string {
  return [String(ent), q(name), q(type), q(programs), q(null), q(null), q(null), q(null), q(null), q(null), q(null), q(remarks)].join(',');
}

export function altRow(ent: number, alt: number, name: string): string {
  return [String(ent), String(alt), q('a.k.a.'), q(name), q(null)].join(',');
}

export function addRow(ent: number, add: number, city: string, country: string): string {
  return [String(ent), String(add), q(null), q(city), q(country), q(null)].join(',');
}

/** A temporary folder holding a list in OFAC's format. */
export function ofacFolder(files: { sdn: string[]; alt?: string[]; add?: string[] }): string {
  const dir = mkdtempSync(join(tmpdir(), 'ofac-'));
  writeOfac(dir, files);
  return dir;
}

export function writeOfac(dir: string, files: { sdn: string[]; alt?: string[]; add?: string[] }): void {
  writeFileSync(join(dir, 'SDN.CSV'), files.sdn.join('\r\n') + '\r\n\x1a');
  writeFileSync(join(dir, 'ALT.CSV'), (files.alt ?? []).join('\r\n') + '\r\n\x1a');
  writeFileSync(join(dir, 'ADD.CSV'), (files.add ?? []).join('\r\n') + '\r\n\x1a');
}

/** A list entry of list L: an individual with no alias, program, date, country or wallet unless `more` gives them. */
export const listEntry = (entryNumber: string, name: string, more: Partial<ListEntry> = {}): ListEntry => ({
  list: 'L',
  entryNumber,
  type: 'individual',
  name,
  aliases: [],
  programs: [],
  birthDates: [],
  countries: [],
  walletAddresses: [],
  ...more,
});
