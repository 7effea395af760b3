/**
 * npm run bench:screening: name screening at scale (issue 36's goal: 100,000 customers against a 20,000-entry list in
 * at most 60 s on 2 cores, one screening's p99 at most 5 ms). Everything is generated from a fixed seed: a list in
 * OFAC's shape (individuals with aliases, some in Cyrillic, entities with legal forms, dates of birth, countries)
 * and customers, 3 % of them planted from the list (exact, misspelt, an alias, in Cyrillic, with initials, reordered)
 * and the rest random people from the same name pools, so candidates are many. Writes bench/results/screening-latest.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScreeningIndex } from '../src/domain/screening/engine.js';
import type { ListEntry, ScreeningSubject } from '../src/domain/screening/types.js';
import { mulberry32 } from './lib/mulberry32.js';

const ENTRIES = Number(process.env.SCREENING_BENCH_ENTRIES ?? 20_000);
const CUSTOMERS = Number(process.env.SCREENING_BENCH_CUSTOMERS ?? 100_000);

const random = mulberry32(36);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const int = (n: number) => Math.floor(random() * n);

const SYLLABLES = ['ka', 'lo', 'vin', 'mar', 'sen', 'ber', 'to', 'ri', 'dan', 'el', 'ov', 'ko', 'na', 'sha', 'mir', 'gor', 'tu', 'ran', 'fel', 'dor', 'han', 'li', 'mo', 'zer', 'pa', 'qui', 'ste', 'bra', 'vel', 'nos', 'ad', 'ush', 'ter', 'gal', 'rom', 'is', 'ben', 'cor', 'dal', 'yu'];
const SUFFIXES = ['', '', 'ov', 'enko', 'son', 'ez', 'i', 'ani', 'ski', 'er'];
const surname = () => {
  const n = 2 + int(2);
  let s = '';
  for (let i = 0; i < n; i++) s += pick(SYLLABLES);
  return s + pick(SUFFIXES);
};
const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const FIRST = Array.from({ length: 400 }, () => cap(pick(SYLLABLES) + pick(SYLLABLES) + pick(['', 'a', 'o', 'e', 'in', 'us'])));
const LAST = Array.from({ length: 6000 }, () => cap(surname()));
const COUNTRIES = ['RUS', 'IRN', 'PRK', 'SYR', 'VEN', 'CHN', 'DEU', 'FRA', 'USA', 'ARE', 'TUR', 'YEM', 'BLR', 'CUB', 'MMR'];
const ENTITY_WORDS = ['Trading', 'Global', 'Energy', 'Maritime', 'Capital', 'Petro', 'Logistics', 'Industrial', 'Export', 'Holding', 'Star', 'Ocean', 'Red', 'Blue', 'Golden', 'Eastern', 'United', 'Fortune', 'Silk', 'Falcon'];
const LEGAL = ['LLC', 'Ltd', 'Company Limited', 'FZE', 'JSC', 'S.A.', 'GmbH', 'Co.'];

/** Latin to Cyrillic, letter by letter: enough to make names the transliteration has to bring back. */
const TO_CYRILLIC: Record<string, string> = { sh: 'ш', ch: 'ч', zh: 'ж', yu: 'ю', ya: 'я', a: 'а', b: 'б', c: 'к', d: 'д', e: 'е', f: 'ф', g: 'г', h: 'х', i: 'и', j: 'й', k: 'к', l: 'л', m: 'м', n: 'н', o: 'о', p: 'п', q: 'к', r: 'р', s: 'с', t: 'т', u: 'у', v: 'в', w: 'в', x: 'кс', y: 'ы', z: 'з' };
function cyrillic(name: string): string {
  return name
    .toLowerCase()
    .replace(/sh|ch|zh|yu|ya|[a-z]/g, (m) => TO_CYRILLIC[m] ?? m)
    .replace(/(^|\s)(\p{L})/gu, (_, s: string, c: string) => s + c.toUpperCase());
}
function typo(word: string): string {
  const i = 1 + int(Math.max(1, word.length - 2));
  const kind = int(3);
  if (kind === 0) return word.slice(0, i) + word.slice(i + 1);
  if (kind === 1) return word.slice(0, i) + pick(['a', 'e', 'i', 'o', 'y']) + word.slice(i + 1);
  return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
}
const birthDate = () => `${1940 + int(60)}-${String(1 + int(12)).padStart(2, '0')}-${String(1 + int(28)).padStart(2, '0')}`;

interface Person {
  entryNumber: string;
  first: string;
  middle?: string;
  last: string;
  birth: string;
}
/** A customer as generated; planted: the entry it was made from; shouldHit false when it was given another birth date (a hit then is wrong). */
export interface BenchCustomer {
  subject: ScreeningSubject;
  planted?: string;
  shouldHit?: boolean;
}

/**
 * The list and the customers, from the fixed seed (bench/rescreen.ts uses them too). One call per process: the
 * seed's stream continues from where the name pools left it, so the first call gives the same data every run.
 */
export function generate(entryCount = ENTRIES, customerCount = CUSTOMERS): { entries: ListEntry[]; customers: BenchCustomer[] } {
  const people: Person[] = [];
  const entries: ListEntry[] = [];
  for (let i = 0; i < entryCount; i++) {
    const base = { list: 'BENCH-SDN', entryNumber: String(10_000 + i), programs: [pick(['SDGT', 'CYBER2', 'IRAN', 'DPRK3', 'RUSSIA-EO14024'])], walletAddresses: [] };
    if (random() < 0.75) {
      const p: Person = { entryNumber: base.entryNumber, first: pick(FIRST), last: pick(LAST), birth: birthDate(), ...(random() < 0.5 ? { middle: pick(FIRST) } : {}) };
      people.push(p);
      const aliases = [];
      if (random() < 0.4) aliases.push({ name: `${typo(p.last).toUpperCase()}, ${p.first}`, aliasType: 'a.k.a.' });
      if (random() < 0.2) aliases.push({ name: cyrillic(`${p.last}, ${p.first}`), aliasType: 'a.k.a.' });
      if (random() < 0.2) aliases.push({ name: `${pick(LAST).toUpperCase()}, ${p.first}`, aliasType: 'f.k.a.' });
      entries.push({
        ...base,
        type: 'individual',
        name: `${p.last.toUpperCase()}, ${[p.first, p.middle].filter(Boolean).join(' ')}`,
        aliases,
        birthDates: random() < 0.7 ? [{ text: p.birth, day: p.birth, month: p.birth.slice(0, 7), fromYear: Number(p.birth.slice(0, 4)), toYear: Number(p.birth.slice(0, 4)) }] : [],
        countries: random() < 0.6 ? [pick(COUNTRIES)] : [],
      });
    } else {
      const name = `${pick(ENTITY_WORDS)} ${cap(surname())} ${pick(ENTITY_WORDS)} ${pick(LEGAL)}`.toUpperCase();
      entries.push({ ...base, type: 'entity', name, aliases: random() < 0.3 ? [{ name: `${cap(surname())} ${pick(ENTITY_WORDS)}`, aliasType: 'a.k.a.' }] : [], birthDates: [], countries: [pick(COUNTRIES)] });
    }
  }

  const customers: BenchCustomer[] = [];
  for (let i = 0; i < customerCount; i++) {
    if (random() < 0.03) {
      const k = int(people.length);
      const p = people[k]!;
      const entry = entries[Number(p.entryNumber) - 10_000]!;
      const variant = int(6);
      // Each variant's name and its family name, given apart as the API's lastName gives it (personSubject).
      const misspelt = typo(p.last);
      const names: [string, string][] = [
        [[p.first, p.middle, p.last].filter(Boolean).join(' '), p.last],
        [`${p.first} ${p.middle ?? ''} ${misspelt}`, misspelt],
        [`${p.last.toUpperCase()} ${p.first}${p.middle ? ` ${p.middle}` : ''}`, p.last.toUpperCase()],
        [cyrillic(`${p.first}${p.middle ? ` ${p.middle}` : ''} ${p.last}`), cyrillic(p.last)],
        [`${p.first[0]}. ${p.middle ? `${p.middle[0]}. ` : ''}${p.last}`, p.last],
        [`${p.first}${p.middle ? ` ${p.middle}` : ''} ${p.last}`, p.last],
      ];
      const [name, familyName] = names[variant]!;
      customers.push({ subject: { kind: 'person', names: [name], familyName, birthDate: variant === 5 ? birthDate() : p.birth, countries: [pick(COUNTRIES)] }, planted: entry.entryNumber, shouldHit: variant !== 5 || entry.birthDates.length === 0 });
    } else if (random() < 0.1) {
      customers.push({ subject: { kind: 'entity', names: [`${pick(ENTITY_WORDS)} ${cap(surname())} ${pick(LEGAL)}`, `${cap(surname())} ${pick(ENTITY_WORDS)}`], countries: [pick(COUNTRIES)] } });
    } else {
      // Drawn in this order, so the seed gives the same customers as before their family names were given apart.
      const given = [pick(FIRST), random() < 0.3 ? pick(FIRST) : ''];
      const familyName = pick(LAST);
      customers.push({ subject: { kind: 'person', names: [[...given, familyName].filter(Boolean).join(' ')], familyName, birthDate: birthDate(), countries: [pick(COUNTRIES)] } });
    }
  }
  return { entries, customers };
}

function main(): void {
  const { entries, customers } = generate();
  const buildStart = performance.now();
  const index = new ScreeningIndex(entries);
  const buildMs = performance.now() - buildStart;

  const times = new Float64Array(customers.length);
  let hits = 0;
  let customersHit = 0;
  let planted = 0;
  let plantedFound = 0;
  let plantedWrongDate = 0;
  let plantedWrongDateHit = 0;
  const started = performance.now();
  customers.forEach((c, i) => {
    const t0 = performance.now();
    const found = index.screen(c.subject);
    times[i] = performance.now() - t0;
    hits += found.length;
    if (found.length > 0) customersHit++;
    if (c.planted && c.shouldHit) {
      planted++;
      if (found.some((h) => h.entryNumber === c.planted)) plantedFound++;
    } else if (c.planted) {
      plantedWrongDate++;
      if (found.some((h) => h.entryNumber === c.planted)) plantedWrongDateHit++;
    }
  });
  const totalMs = performance.now() - started;
  const sorted = [...times].sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;

  const result = {
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: availableParallelism(),
    threads: 1,
    entries: ENTRIES,
    variants: entries.reduce((n, e) => n + 1 + e.aliases.length, 0),
    customers: CUSTOMERS,
    indexBuildMs: round(buildMs, 0),
    totalSeconds: round(totalMs / 1000, 2),
    perScreeningMs: { p50: round(q(0.5)), p99: round(q(0.99)), max: round(sorted.at(-1)!) },
    hits,
    customersHit,
    /** Customers made from an entry (exact, misspelt, reordered, Cyrillic, initials), and how many hit it. */
    planted,
    plantedFound,
    /** The same name with another birth date than the listed one: not to hit. */
    plantedWrongDate,
    plantedWrongDateHit,
    goals: { totalSecondsMax: 60, p99MsMax: 5 },
  };
  const ok = result.totalSeconds <= 60 && result.perScreeningMs.p99 <= 5;
  console.log(JSON.stringify(result, null, 2));
  console.log(ok ? 'goals met' : 'GOALS MISSED');
  const dir = join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'screening-latest.json'), JSON.stringify(result, null, 2) + '\n');
  process.exitCode = ok ? 0 : 1;
}

// Run as a script (npm run bench:screening), not when bench/rescreen.ts imports the generators.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
