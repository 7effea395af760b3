/** The UK Sanctions List's CSV: `Report Date: …`, the sample's 58-column header, one row per name and per address. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cyrillic, ENTITY_WORDS, LEGAL, Names } from './list-readers-names.js';
import { csvField, lorem, p2, wallet } from './list-readers-text.js';
import { Rng } from './screening-quality/random.js';

const SAMPLES = join(import.meta.dirname, '..', '..', 'config', 'screening');

const UK_REGIMES: [string, string][] = [
  ['RUS', 'The Russia (Sanctions) (EU Exit) Regulations 2019'],
  ['RUS', 'The Russia (Sanctions) (EU Exit) Regulations 2019'],
  ['RUS', 'The Russia (Sanctions) (EU Exit) Regulations 2019'],
  ['BLR', 'The Republic of Belarus (Sanctions) (EU Exit) Regulations 2019'],
  ['IRN', 'The Iran (Sanctions) (Human Rights) (EU Exit) Regulations 2019'],
  ['CYB', 'The Cyber (Sanctions) (EU Exit) Regulations 2020'],
  ['SYR', 'The Syria (Sanctions) (EU Exit) Regulations 2019'],
  ['DPR', "The Democratic People's Republic of Korea (Sanctions) (EU Exit) Regulations 2019"],
  ['CTI', 'The Counter-Terrorism (International Sanctions) (EU Exit) Regulations 2019'],
  ['GAC', 'The Global Anti-Corruption Sanctions Regulations 2021'],
  ['GHR', 'The Global Human Rights Sanctions Regulations 2020'],
  ['LIB', 'The Libya (Sanctions) (EU Exit) Regulations 2020'],
];
const UK_COUNTRIES = ['Russia', 'Belarus', 'Iran', 'Syria', 'North Korea', 'Ukraine', 'Kazakhstan', 'United Arab Emirates', 'Cyprus', 'Turkey', 'Libya', 'Yemen', 'China'];

export function generateUk(dir: string, count: number): void {
  const rng = new Rng(5204);
  const names = new Names(rng);
  const [report = '', headerLine = ''] = readFileSync(join(SAMPLES, 'uk-sample', 'UK-Sanctions-List.csv'), 'utf8').split(/\r?\n/);
  const header = headerLine.split(',');
  const counters = new Map<string, number>();
  const rows: string[] = [report, headerLine];
  for (let i = 0; i < count; i++) {
    const [prefix, regime] = rng.pick(UK_REGIMES);
    const n = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, n);
    const kind = rng.next();
    const type = kind < 0.72 ? 'Individual' : kind < 0.97 ? 'Entity' : 'Ship';
    const country = rng.pick(UK_COUNTRIES);
    const common: Record<string, string> = {
      'Last Updated': `${p2(1 + rng.int(28))}/${p2(1 + rng.int(12))}/${2022 + rng.int(4)}`,
      'Unique ID': `${prefix}${String(n).padStart(4, '0')}`,
      'OFSI Group ID': String(15000 + i),
      'Regime Name': regime,
      'Designation Type': type,
      'Designation source': rng.chance(0.9) ? 'UK' : 'UN',
      'Sanctions Imposed': rng.pick(['Asset freeze|Travel Ban', 'Asset freeze', 'Asset freeze|Travel Ban|Director disqualification sanction', 'Asset freeze|Trust services sanctions']),
      'Other Information': rng.chance(0.01) ? `Digital Currency Address - ETH ${wallet(rng)}` : rng.chance(0.5) ? lorem(rng, 5 + rng.int(20)) : '',
      'UK Statement of Reasons': `${lorem(rng, 30 + rng.int(90))}.`,
      'Date Designated': `${p2(1 + rng.int(28))}/${p2(1 + rng.int(12))}/${2020 + rng.int(6)}`,
    };
    const nameRows: Record<string, string>[] = [];
    if (type === 'Individual') {
      const p = names.person(rng.chance(0.7) ? 'slavic' : names.origin());
      const { y, m, d } = p.birth;
      Object.assign(common, {
        'D.O.B': rng.pick([`${p2(d)}/${p2(m)}/${y}`, `${p2(d)}/${p2(m)}/${y}`, `dd/mm/${y}`, `00/${p2(m)}/${y}`, `${p2(d)}/${p2(m)}/${y} ${p2(d)}/${p2(m)}/${y + 1}`]),
        'Nationality(/ies)': rng.chance(0.2) ? `(1) ${country} (2) ${rng.pick(UK_COUNTRIES)}` : country,
        Position: rng.chance(0.5) ? lorem(rng, 3 + rng.int(10)) : '',
        Gender: p.male ? 'Male' : 'Female',
        'Town of birth': names.entity().words.split(' ')[1]!,
        'Country of birth': country,
        'Passport number': rng.chance(0.3) ? String(700000000 + rng.int(99999999)) : '',
      });
      const split = (given: string[], family: string) => ({ 'Name 6': family.toUpperCase(), 'Name 1': given[0] ?? '', 'Name 2': given[1] ?? '', 'Name 3': given[2] ?? '' });
      nameRows.push({ ...split(p.given, p.family), 'Name type': 'Primary Name', 'Name non-latin script': p.script && rng.chance(0.5) ? p.script : '', 'Non-latin script type': p.script ? 'Cyrillic' : '', 'Non-latin script language': p.script ? 'Russian' : '' });
      for (let a = 0, k = rng.few(3); a < k; a++) nameRows.push({ ...split(p.given.map((w) => names.spelling(w)), p.family), 'Name type': 'Primary Name Variation' });
      for (let a = 0, k = rng.few(3); a < k; a++) nameRows.push({ ...split([names.spelling(p.given[0]!)], names.spelling(p.family)), 'Name type': 'Alias', 'Alias strength': rng.pick(['Good quality', 'Low quality', '']) });
    } else {
      const e = names.entity();
      const whole = type === 'Ship' ? `${rng.pick(ENTITY_WORDS)} ${e.words.split(' ')[1]}`.toUpperCase() : `${e.words} ${e.form}`.toUpperCase();
      if (type === 'Ship') Object.assign(common, { 'IMO number': `IMO${9000000 + rng.int(999999)}`, 'Current owner/operator (s)': `${names.entity().words} ${rng.pick(LEGAL)}`, 'Current believed flag of ship': rng.pick(['Gabon', 'Panama', 'Cameroon', 'Comoros']), 'Type of ship': 'Oil Tanker', 'Year Built': String(1995 + rng.int(25)) });
      else Object.assign(common, { 'Type of entity': rng.pick(['Joint Stock Company', 'Limited Liability Company', 'Bank']), 'Business registration number (s)': String(1000000000 + rng.int(899999999)), Website: `www.${e.words.toLowerCase().replace(/\s+/g, '-')}.example` });
      nameRows.push({ 'Name 6': whole, 'Name type': 'Primary Name', 'Name non-latin script': rng.chance(0.3) ? cyrillic(e.words) : '' });
      for (let a = 0, k = rng.few(4); a < k; a++) nameRows.push({ 'Name 6': a === 0 ? e.words.toUpperCase() : `${names.entity().words} ${e.form}`.toUpperCase(), 'Name type': 'Alias', 'Alias strength': '' });
    }
    const addresses = Array.from({ length: 1 + rng.few(5) }, (_, a) => ({ 'Address Line 1': `${1 + rng.int(200)} ${names.entity().words} Street`, 'Address Line 6': rng.pick(['Moscow', 'Minsk', 'Tehran', 'Damascus', 'Dubai', 'Limassol']), 'Address Postal Code': String(100000 + rng.int(899999)), 'Address Country': a === 0 ? country : rng.pick(UK_COUNTRIES) }));
    // The primary name's row once per address, and some other names' too; the rest one row, without an address.
    const out: Record<string, string>[] = [];
    for (const [k, row] of nameRows.entries()) {
      if (k === 0 || rng.chance(0.3)) for (const address of addresses) out.push({ ...common, ...row, ...address });
      else out.push({ ...common, ...row });
    }
    // Now and then the list gives a variation before the primary name.
    if (out.length > 1 && rng.chance(0.05)) out.push(out.shift()!);
    for (const row of out) rows.push(header.map((h) => csvField(row[h] ?? '')).join(','));
  }
  writeFileSync(join(dir, 'UK-Sanctions-List.csv'), rows.join('\r\n') + '\r\n');
}
