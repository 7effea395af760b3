/** OFAC's SDN files: SDN.CSV (12 columns), ALT.CSV, ADD.CSV; no header, -0- for empty, SUB at the end. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENTITY_WORDS, LEGAL, Names, type Person } from './list-readers-names.js';
import { MONTHS, p2, wallet } from './list-readers-text.js';
import { Rng } from './screening-quality/random.js';

const OFAC_COUNTRIES = ['Russia', 'Iran', 'Korea, North', 'Syria', 'Venezuela', 'China', 'Burma', 'Cyprus', 'United Arab Emirates', 'Turkey', 'Belarus', 'Yemen', 'Lebanon', 'Iraq', 'Cuba', 'Mexico', 'Colombia', 'Hong Kong'];
const OFAC_PROGRAMS = ['SDGT', 'RUSSIA-EO14024', 'UKRAINE-EO13662', 'IRAN', 'IRGC', 'CYBER2', 'DPRK3', 'SDNTK', 'ILLICIT-DRUGS-EO14059', 'VENEZUELA-EO13850', 'GLOMAG', 'SYRIA', 'NPWMD', 'IFSR', 'BELARUS-EO14038'];

function ofacDate(rng: Rng, p: Person): string {
  const { y, m, d } = p.birth;
  const forms = [`${p2(d)} ${MONTHS[m - 1]} ${y}`, `${p2(d)} ${MONTHS[m - 1]} ${y}`, `${MONTHS[m - 1]} ${y}`, `${y}`, `circa ${y}`, `${y} to ${y + 1 + rng.int(2)}`, `circa ${p2(d)} ${MONTHS[m - 1]} ${y}`];
  return rng.pick(forms);
}

export function generateOfac(dir: string, count: number): void {
  const rng = new Rng(5201);
  const names = new Names(rng);
  const sdn: string[] = [];
  const alt: string[] = [];
  const add: string[] = [];
  const q = (s: string) => (s ? `"${s.replace(/"/g, '""')}"` : '-0- ');
  let ent = 9_000;
  let altNum = 1;
  let addNum = 1;
  for (let i = 0; i < count; i++) {
    ent += 1 + rng.few(3);
    const programs = Array.from(new Set(Array.from({ length: 1 + rng.few(2) }, () => rng.pick(OFAC_PROGRAMS)))).join('] [');
    const kind = rng.next();
    const remarks: string[] = [];
    const country = rng.pick(OFAC_COUNTRIES);
    let name: string;
    let type = '';
    let vessel = ['', '', '', '', '', ''];
    const aliases: [string, string][] = [];
    if (kind < 0.55) {
      const p = names.person();
      type = 'individual';
      name = `${p.family.toUpperCase()}, ${p.given.join(' ')}`;
      remarks.push(`DOB ${ofacDate(rng, p)}`);
      if (rng.chance(0.25)) remarks.push(`alt. DOB ${p.birth.y + 1}`);
      remarks.push(`POB ${names.entity().words.split(' ')[1]}, ${country}`, `${rng.pick(['nationality', 'citizen'])} ${country}`);
      if (rng.chance(0.2)) remarks.push(`alt. citizen ${rng.pick(OFAC_COUNTRIES)}`);
      remarks.push(`Gender ${p.male ? 'Male' : 'Female'}`);
      if (rng.chance(0.4)) remarks.push(`Passport ${100000000 + rng.int(899999999)} (${country}) expires ${p2(1 + rng.int(28))} ${rng.pick(MONTHS)} ${2025 + rng.int(8)}`);
      if (rng.chance(0.3)) remarks.push(`National ID No. ${1000000 + rng.int(8999999)} (${country})`);
      const n = rng.few(4);
      for (let a = 0; a < n; a++) {
        const g = p.given.map((w) => (rng.chance(0.5) ? names.spelling(w) : w));
        aliases.push([a === 0 && p.script && rng.chance(0.5) ? p.script : `${names.spelling(p.family).toUpperCase()}, ${g.join(' ')}`, rng.chance(0.9) ? 'a.k.a.' : 'f.k.a.']);
      }
    } else if (kind < 0.95) {
      const e = names.entity();
      name = `${e.words} ${e.form}`.toUpperCase();
      remarks.push(`Website ${e.words.toLowerCase().replace(/\s+/g, '-')}.example`);
      if (rng.chance(0.5)) remarks.push(`Organization Established Date ${1990 + rng.int(34)}`);
      remarks.push(`Registration Number ${1000000 + rng.int(8999999)} (${country})`);
      if (rng.chance(0.3)) remarks.push(`Tax ID No. ${1000000000 + rng.int(899999999)} (${country})`);
      const n = rng.few(3);
      for (let a = 0; a < n; a++) aliases.push([a === 0 ? e.words.toUpperCase() : `${names.entity().words} ${e.form}`.toUpperCase(), rng.pick(['a.k.a.', 'a.k.a.', 'f.k.a.', 'n.k.a.'])]);
    } else {
      const isVessel = kind < 0.99;
      name = `${rng.pick(ENTITY_WORDS)} ${names.entity().words.split(' ')[1]}`.toUpperCase();
      type = isVessel ? 'vessel' : 'aircraft';
      vessel = isVessel ? [`${String.fromCharCode(65 + rng.int(26))}${1000 + rng.int(8999)}`, rng.pick(['Crude Oil Tanker', 'General Cargo', 'Bulk Carrier']), `${10 + rng.int(300)},000`, `${5 + rng.int(150)},000`, rng.pick(OFAC_COUNTRIES), `${names.entity().words} ${rng.pick(LEGAL)}`] : ['', '', '', '', '', ''];
      remarks.push(isVessel ? `Vessel Registration Identification IMO ${9000000 + rng.int(999999)}` : `Aircraft Manufacturer's Serial Number (MSN) ${10000 + rng.int(89999)}`);
      if (rng.chance(0.3)) aliases.push([`${rng.pick(ENTITY_WORDS)} ${rng.pick(ENTITY_WORDS)}`.toUpperCase(), 'f.k.a.']);
    }
    if (rng.chance(0.015)) remarks.push(`Digital Currency Address - ${rng.pick(['ETH', 'USDT', 'XBT'])} ${wallet(rng)}`);
    if (rng.chance(0.3)) remarks.push(`Linked To: ${names.entity().words.toUpperCase()} ${rng.pick(LEGAL).toUpperCase()}`);
    sdn.push([String(ent), q(name), q(type), q(programs), '-0- ', ...vessel.map(q), q(`${remarks.join('; ')}.`)].join(','));
    for (const [a, t] of aliases) alt.push([String(ent), String(altNum++), q(t), q(a), '-0- '].join(','));
    for (let a = 0, n = 1 + rng.few(2); a < n; a++) add.push([String(ent), String(addNum++), q(rng.chance(0.5) ? `${1 + rng.int(200)} ${names.entity().words} Street` : ''), q(rng.pick(['Moscow', 'Tehran', 'Dubai', 'Limassol', 'Caracas', 'Pyongyang', 'Damascus', 'Hong Kong', 'Istanbul', 'Minsk'])), q(a === 0 ? country : rng.pick(OFAC_COUNTRIES)), '-0- '].join(','));
  }
  writeFileSync(join(dir, 'SDN.CSV'), sdn.join('\r\n') + '\r\n\x1a');
  writeFileSync(join(dir, 'ALT.CSV'), alt.join('\r\n') + '\r\n\x1a');
  writeFileSync(join(dir, 'ADD.CSV'), add.join('\r\n') + '\r\n\x1a');
}
