/**
 * npx tsx bench/list-readers.ts: the sanctions list readers at the real lists' sizes (issue 52). From a fixed seed it
 * writes one list of each format the server reads (docs/screening.md#lists-and-their-formats), in the shapes of the
 * samples in config/screening/*-sample/ repeated and varied, with generated fictional names: OFAC's SDN files (18,000
 * entries), the EU's FSF XML (5,600 entities, ~30,000 nameAlias, ~20 MB), the UN's consolidated XML (1,000
 * individuals and entities, ~2 MB) and the UK Sanctions List's CSV (5,000 designations in ~20,000 rows). Each is then
 * measured in a process of its own (so its peak RSS is its own): loadListSync (median of 3), the entries and names it
 * gives, peak RSS and the heap it keeps, the ScreeningIndex built over it, and 1,000 random names screened against it.
 * Writes bench/results/list-readers-latest.json. LIST_READERS_SCALE (default 1) scales every list;
 * LIST_READERS_KEEP=1 keeps the generated files (their folder is printed).
 */
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScreeningIndex } from '../src/domain/screening/engine.js';
import { loadListSync, type LoadedList } from '../src/domain/screening/load.js';
import type { ListEntry, ScreeningSubject } from '../src/domain/screening/types.js';
import { Rng } from './lib/screening-quality/random.js';

const SCALE = Number(process.env.LIST_READERS_SCALE ?? 1);
const SAMPLES = join(import.meta.dirname, '..', 'config', 'screening');
const QUERIES = 1_000;

// ---------------------------------------------------------------------------------------------------------------
// Fictional names from a seeded PRNG (bench/lib/mulberry32.ts)

const cap = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

type Origin = 'slavic' | 'arabic' | 'korean' | 'latin';

const SYLLABLES: Record<Origin, string[]> = {
  slavic: ['vla', 'di', 'mir', 'ser', 'gei', 'ale', 'ksan', 'bo', 'ris', 'yev', 'ge', 'ole', 'ni', 'ko', 'lai', 'pa', 'vel', 'an', 'ton', 'ig', 'ma', 'ro', 'sta', 'nis', 'lyu', 'mi', 'la', 'ta', 'na', 'sha', 've', 'ra', 'za', 'gor', 'dmi', 'try', 'kon', 'zhu', 'che', 'bor', 'sko', 'vo', 'lod', 'ya'],
  arabic: ['ab', 'du', 'la', 'ha', 'mid', 'ka', 'lid', 'sa', 'lim', 'fa', 'ruq', 'na', 'sir', 'ja', 'mal', 'ra', 'him', 'yu', 'suf', 'ma', 'mud', 'za', 'hir', 'ta', 'riq', 'wa', 'qa', 'sim', 'ba', 'hu', 'sayn', 'ib', 'kha', 'dar', 'mun', 'tha'],
  korean: ['kim', 'ri', 'pak', 'choe', 'jong', 'chol', 'song', 'hyok', 'yong', 'su', 'il', 'nam', 'ho', 'chang', 'min', 'kwang', 'myong', 'hak', 'sun', 'ok', 'gwang', 'hui', 'dok', 'un'],
  latin: ['ka', 'lo', 'vin', 'mar', 'sen', 'ber', 'to', 'ri', 'dan', 'el', 'ko', 'na', 'mir', 'gor', 'tu', 'ran', 'fel', 'dor', 'han', 'li', 'mo', 'zer', 'pa', 'qui', 'ste', 'bra', 'vel', 'nos', 'ad', 'ter', 'gal', 'rom', 'is', 'ben', 'cor', 'dal', 'yu', 'al', 'ves', 'ti'],
};
const FAMILY_ENDS: Record<Origin, string[]> = {
  slavic: ['ov', 'ev', 'in', 'enko', 'sky', 'uk', 'ovich', 'yan'],
  arabic: ['i', 'ani', 'awi', '', 'iri', 'ash'],
  korean: [''],
  latin: ['', '', 'ez', 'i', 'son', 'er', 'es', 'ot'],
};

interface Person {
  origin: Origin;
  given: string[];
  family: string;
  /** The name in its own script (Cyrillic, Arabic, Hangul-free: the Korean names are written in Latin only). */
  script?: string;
  birth: { y: number; m: number; d: number };
  male: boolean;
}

const TO_CYRILLIC: Record<string, string> = { sh: 'ш', ch: 'ч', zh: 'ж', kh: 'х', yu: 'ю', ya: 'я', a: 'а', b: 'б', c: 'к', d: 'д', e: 'е', f: 'ф', g: 'г', h: 'х', i: 'и', j: 'й', k: 'к', l: 'л', m: 'м', n: 'н', o: 'о', p: 'п', q: 'к', r: 'р', s: 'с', t: 'т', u: 'у', v: 'в', w: 'в', x: 'кс', y: 'ы', z: 'з' };
const TO_ARABIC: Record<string, string> = { sh: 'ش', kh: 'خ', th: 'ث', dh: 'ذ', a: 'ا', b: 'ب', c: 'ك', d: 'د', e: 'ي', f: 'ف', g: 'غ', h: 'ه', i: 'ي', j: 'ج', k: 'ك', l: 'ل', m: 'م', n: 'ن', o: 'و', p: 'ب', q: 'ق', r: 'ر', s: 'س', t: 'ت', u: 'و', v: 'ف', w: 'و', x: 'كس', y: 'ي', z: 'ز' };

function cyrillic(name: string): string {
  return name
    .toLowerCase()
    .replace(/sh|ch|zh|kh|yu|ya|[a-z]/g, (m) => TO_CYRILLIC[m] ?? m)
    .replace(/(^|[\s-])(\p{L})/gu, (_, s: string, c: string) => s + c.toUpperCase());
}
function arabic(name: string): string {
  return name
    .toLowerCase()
    .replace(/^al-|\sal-/g, (m) => m.replace('al-', 'ال'))
    .replace(/sh|kh|th|dh|[a-z]/g, (m) => TO_ARABIC[m] ?? m)
    .replace(/-/g, ' ');
}

class Names {
  constructor(private readonly rng: Rng) {}

  private word(origin: Origin, parts: number): string {
    let s = '';
    for (let i = 0; i < parts; i++) s += this.rng.pick(SYLLABLES[origin]);
    return cap(s);
  }

  origin(): Origin {
    const r = this.rng.next();
    return r < 0.45 ? 'slavic' : r < 0.75 ? 'arabic' : r < 0.85 ? 'korean' : 'latin';
  }

  person(origin = this.origin()): Person {
    const { rng } = this;
    const male = rng.chance(0.8);
    const birth = { y: 1940 + rng.int(60), m: 1 + rng.int(12), d: 1 + rng.int(28) };
    if (origin === 'korean') {
      const given = rng.chance(0.7) ? [this.word('korean', 1), this.word('korean', 1)] : [this.word('korean', 2)];
      return { origin, given, family: this.word('korean', 1), birth, male };
    }
    if (origin === 'arabic') {
      const given = [this.word('arabic', 2), ...(rng.chance(0.6) ? [this.word('arabic', 2)] : []), ...(rng.chance(0.2) ? [this.word('arabic', 2)] : [])];
      const family = `${rng.chance(0.6) ? 'Al-' : ''}${this.word('arabic', 2)}${rng.pick(FAMILY_ENDS.arabic)}`;
      return { origin, given, family, script: arabic([...given, family].join(' ')), birth, male };
    }
    const given = [this.word(origin, 2 + rng.int(2))];
    if (origin === 'slavic') {
      given.push(`${this.word('slavic', 2)}${male ? 'ovich' : 'ovna'}`);
      const family = `${this.word('slavic', 2)}${rng.pick(FAMILY_ENDS.slavic)}${male ? '' : 'a'}`;
      return { origin, given, family, script: cyrillic([...given, family].join(' ')), birth, male };
    }
    if (rng.chance(0.4)) given.push(this.word(origin, 2));
    return { origin, given, family: `${this.word(origin, 2 + rng.int(2))}${rng.pick(FAMILY_ENDS[origin])}`, birth, male };
  }

  /** Another Latin spelling, as transliterations differ: y/i, ey/ei, kh/h, a doubled or dropped letter, a typo. */
  spelling(word: string): string {
    const { rng } = this;
    const rules: [RegExp, string][] = [
      [/y/g, 'i'],
      [/ei/g, 'ey'],
      [/kh/gi, 'h'],
      [/ov$/, 'off'],
      [/ou/g, 'u'],
      [/u/g, 'ou'],
      [/j/g, 'dj'],
      [/a/g, 'e'],
    ];
    for (const [re, to] of rules) if (re.test(word) && rng.chance(0.5)) return word.replace(re, to);
    const i = 1 + rng.int(Math.max(1, word.length - 2));
    return rng.chance(0.5) ? word.slice(0, i) + word.slice(i + 1) : word.slice(0, i) + word[i] + word.slice(i);
  }

  entity(): { words: string; form: string } {
    const { rng } = this;
    const words = [rng.pick(ENTITY_WORDS), this.word(rng.pick(['slavic', 'latin', 'arabic'] as const), 2 + rng.int(2)), ...(rng.chance(0.6) ? [rng.pick(ENTITY_WORDS)] : [])].join(' ');
    return { words, form: rng.pick(LEGAL) };
  }
}

const ENTITY_WORDS = ['Trading', 'Global', 'Energy', 'Maritime', 'Capital', 'Petro', 'Logistics', 'Industrial', 'Export', 'Holding', 'Star', 'Ocean', 'Red', 'Blue', 'Golden', 'Eastern', 'United', 'Fortune', 'Silk', 'Falcon', 'Northern', 'Technologies', 'Shipping', 'Engineering', 'Investment', 'Defence', 'Aero', 'Resources', 'Mining', 'Bank'];
const LEGAL = ['LLC', 'Ltd', 'Company Limited', 'FZE', 'JSC', 'OOO', 'S.A.', 'GmbH', 'Co.', 'PJSC', 'AO', 'Corporation', 'Inc.'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const p2 = (n: number) => String(n).padStart(2, '0');
const lorem = (rng: Rng, words: number) => {
  const pool = ['the', 'designated', 'person', 'is', 'involved', 'in', 'activities', 'that', 'undermine', 'stability', 'of', 'a', 'fictional', 'state', 'company', 'provides', 'support', 'to', 'regime', 'through', 'finance', 'procurement', 'shipping', 'and', 'director', 'owner', 'associated', 'with', 'network', 'sanctions', 'evasion', 'military', 'sector', 'economy'];
  return Array.from({ length: words }, () => rng.pick(pool)).join(' ');
};
const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const csvField = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const wallet = (rng: Rng) => `0x${Array.from({ length: 40 }, () => '0123456789abcdef'[rng.int(16)]).join('')}`;

// ---------------------------------------------------------------------------------------------------------------
// OFAC's SDN files: SDN.CSV (12 columns), ALT.CSV, ADD.CSV; no header, -0- for empty, SUB at the end

const OFAC_COUNTRIES = ['Russia', 'Iran', 'Korea, North', 'Syria', 'Venezuela', 'China', 'Burma', 'Cyprus', 'United Arab Emirates', 'Turkey', 'Belarus', 'Yemen', 'Lebanon', 'Iraq', 'Cuba', 'Mexico', 'Colombia', 'Hong Kong'];
const OFAC_PROGRAMS = ['SDGT', 'RUSSIA-EO14024', 'UKRAINE-EO13662', 'IRAN', 'IRGC', 'CYBER2', 'DPRK3', 'SDNTK', 'ILLICIT-DRUGS-EO14059', 'VENEZUELA-EO13850', 'GLOMAG', 'SYRIA', 'NPWMD', 'IFSR', 'BELARUS-EO14038'];

function ofacDate(rng: Rng, p: Person): string {
  const { y, m, d } = p.birth;
  const forms = [`${p2(d)} ${MONTHS[m - 1]} ${y}`, `${p2(d)} ${MONTHS[m - 1]} ${y}`, `${MONTHS[m - 1]} ${y}`, `${y}`, `circa ${y}`, `${y} to ${y + 1 + rng.int(2)}`, `circa ${p2(d)} ${MONTHS[m - 1]} ${y}`];
  return rng.pick(forms);
}

function generateOfac(dir: string, count: number): void {
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

// ---------------------------------------------------------------------------------------------------------------
// The EU's FSF XML: <export> of <sanctionEntity>, each with regulation, subjectType, nameAlias, citizenship,
// birthdate, address, identification, remark; every part with its <regulationSummary>, as the full file has

const EU_PROGRAMMES = ['RUS', 'UKR', 'BLR', 'IRN', 'SYR', 'PRK', 'LBY', 'TERR', 'CYB', 'HR', 'MLI', 'VEN', 'MMR', 'YEM', 'SDN'];
const EU_COUNTRIES: [string, string][] = [
  ['RU', 'RUSSIAN FEDERATION'],
  ['BY', 'BELARUS'],
  ['IR', 'IRAN (ISLAMIC REPUBLIC OF)'],
  ['SY', 'SYRIAN ARAB REPUBLIC'],
  ['KP', "KOREA (DEMOCRATIC PEOPLE'S REPUBLIC OF)"],
  ['YE', 'YEMEN'],
  ['LY', 'LIBYA'],
  ['MM', 'MYANMAR'],
  ['AE', 'UNITED ARAB EMIRATES'],
  ['TR', 'TÜRKIYE'],
  ['CY', 'CYPRUS'],
  ['KZ', 'KAZAKHSTAN'],
  ['00', 'UNKNOWN'],
];
const EU_LANGUAGES = ['', 'EN', 'DE', 'FR', 'ES', 'IT', 'PL', 'BG', 'CS', 'EL', 'LT', 'LV', 'RO'];

function generateEu(dir: string, count: number): void {
  const rng = new Rng(5202);
  const names = new Names(rng);
  let logical = 100_000;
  const id = () => ++logical;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>', '<export xmlns="http://eu.europa.ec/fpi/fsd/export" generationDate="2026-01-15T10:00:00.000+01:00" globalFileId="900001">'];
  for (let i = 0; i < count; i++) {
    const entityId = id();
    const year = 2011 + rng.int(15);
    const date = `${year}-${p2(1 + rng.int(12))}-${p2(1 + rng.int(28))}`;
    const programme = rng.pick(EU_PROGRAMMES);
    const number = `${year}/${1000 + rng.int(8999)}`;
    const summary = `<regulationSummary regulationType="regulation" publicationDate="${date}" numberTitle="${number}" publicationUrl="https://eur-lex.europa.eu/example/fictional-${entityId}"/>`;
    const country = rng.pick(EU_COUNTRIES);
    const person = rng.chance(0.82);
    const lines: string[] = [`  <sanctionEntity designationDetails="" unitedNationId="" euReferenceNumber="EU.${1000 + i}.${10 + rng.int(89)}" logicalId="${entityId}">`];
    for (let r = 0, n = 1 + rng.few(3); r < n; r++) {
      lines.push(`    <regulation regulationType="regulation" organisationType="council" publicationDate="${date}" entryIntoForceDate="${date}" numberTitle="${number} (OJ L ${100 + rng.int(900)})" programme="${programme}" logicalId="${id()}">`, `      <publicationUrl>https://eur-lex.europa.eu/example/fictional-${entityId}-${r}</publicationUrl>`, '    </regulation>');
    }
    if (rng.chance(0.15)) lines.push(`    <remark>${xmlEscape(lorem(rng, 20 + rng.int(40)))}${rng.chance(0.1) ? `; Digital Currency Address - ETH ${wallet(rng)}` : ''}.</remark>`);
    lines.push(person ? '    <subjectType code="person" classificationCode="P"/>' : '    <subjectType code="enterprise" classificationCode="E"/>');
    const alias = (first: string, middle: string, last: string, whole: string, language: string, strong: boolean, gender: string, fn = '') =>
      lines.push(`    <nameAlias firstName="${xmlEscape(first)}" middleName="${xmlEscape(middle)}" lastName="${xmlEscape(last)}" wholeName="${xmlEscape(whole)}" function="${xmlEscape(fn)}" gender="${gender}" title="" nameLanguage="${language}" strong="${strong}" regulationLanguage="en" logicalId="${id()}">`, `      ${summary}`, '    </nameAlias>');
    if (person) {
      const p = names.person();
      const gender = p.male ? 'M' : 'F';
      const [first = '', ...rest] = p.given;
      const middle = rest.join(' ');
      const whole = [first, middle, p.family].filter(Boolean).join(' ');
      const fn = rng.chance(0.6) ? lorem(rng, 6 + rng.int(25)) : '';
      alias(first, middle, p.family, whole, '', true, gender, fn);
      // The EU repeats a name in the languages of its regulations (the reader keeps it once), and adds spellings.
      for (let a = 0, n = rng.few(12); a < n; a++) alias(first, middle, p.family, whole, rng.pick(EU_LANGUAGES), true, gender, fn);
      if (p.script) alias('', '', '', p.script, p.origin === 'slavic' ? 'RU' : 'AR', true, gender);
      for (let a = 0, n = rng.few(4); a < n; a++) {
        const f = names.spelling(first);
        const l = rng.chance(0.7) ? names.spelling(p.family) : p.family;
        alias(f, middle, l, [f, middle, l].filter(Boolean).join(' '), '', !rng.chance(0.2), gender);
      }
      for (let c = 0, n = 1 + rng.few(2); c < n; c++) {
        const [code, desc] = c === 0 ? country : rng.pick(EU_COUNTRIES);
        lines.push(`    <citizenship region="" countryIso2Code="${code}" countryDescription="${desc}" regulationLanguage="en" logicalId="${id()}">`, `      ${summary}`, '    </citizenship>');
      }
      const { y, m, d } = p.birth;
      const forms = [`birthdate="${y}-${p2(m)}-${p2(d)}" dayOfMonth="${d}" monthOfYear="${m}" year="${y}"`, `year="${y}"`, `monthOfYear="${m}" year="${y}"`, `yearRangeFrom="${y}" yearRangeTo="${y + 2}"`, ''];
      for (let b = 0, n = 1 + rng.few(3); b < n; b++) {
        const form = b === 0 ? forms[rng.int(4)]! : rng.pick(forms);
        const circa = form.startsWith('year=') && rng.chance(0.3);
        lines.push(`    <birthdate circa="${circa}" calendarType="GREGORIAN" city="${b === 0 ? xmlEscape(names.entity().words.split(' ')[1]!) : ''}" zipCode="" ${form} region="" place="" countryIso2Code="${country[0]}" countryDescription="${country[1]}" regulationLanguage="en" logicalId="${id()}">`, `      ${summary}`, '    </birthdate>');
      }
      for (let n = 0, k = rng.few(3); n < k; n++) {
        lines.push(`    <identification diplomatic="false" knownExpired="false" knownFalse="false" reportedLost="false" revokedByIssuer="false" issuedBy="" latinNumber="" nameOnDocument="" number="${100000000 + rng.int(899999999)}" region="" countryIso2Code="${country[0]}" countryDescription="${country[1]}" identificationTypeCode="${rng.pick(['passport', 'id', 'tin'])}" identificationTypeDescription="" regulationLanguage="en" logicalId="${id()}">`, `      ${summary}`, '    </identification>');
      }
    } else {
      const e = names.entity();
      alias('', '', '', `${e.words} ${e.form}`, '', true, '');
      // An entity's name in the regulations' languages: the legal form translated, one alias each.
      const translated = ['Obshchestvo s ogranichennoy otvetstvennostyu', 'Limited Liability Company', 'Gesellschaft mit beschränkter Haftung', 'Société à responsabilité limitée', 'Sociedad de responsabilidad limitada', 'Joint Stock Company', 'Aktsionernoe obshchestvo'];
      for (let a = 0, n = rng.few(9); a < n; a++) alias('', '', '', `${rng.chance(0.5) ? `${rng.pick(translated)} ${e.words}` : `${e.words} ${rng.pick(LEGAL)}`}`, rng.pick(EU_LANGUAGES), true, '');
      if (rng.chance(0.4)) alias('', '', '', cyrillic(e.words), 'RU', true, '');
      if (rng.chance(0.5)) alias('', '', '', e.words, '', rng.chance(0.5), '');
    }
    for (let a = 0, n = (person ? 0 : 1) + rng.few(2); a < n; a++) {
      const [code, desc] = a === 0 ? country : rng.pick(EU_COUNTRIES);
      const remark = rng.chance(0.2) ? `\n      <remark>${xmlEscape(lorem(rng, 8 + rng.int(12)))}</remark>` : '';
      lines.push(`    <address city="${rng.pick(['Moscow', 'Minsk', 'Tehran', 'Damascus', 'Dubai', 'Limassol', 'Tripoli', 'Yangon'])}" street="${1 + rng.int(200)} ${xmlEscape(names.entity().words)} Street" poBox="" zipCode="${100000 + rng.int(899999)}" region="" place="" asAtListingTime="false" countryIso2Code="${code}" countryDescription="${desc}" regulationLanguage="en" logicalId="${id()}">${remark}`, `      ${summary}`, '    </address>');
    }
    lines.push('  </sanctionEntity>');
    out.push(lines.join('\n'));
  }
  out.push('</export>', '');
  writeFileSync(join(dir, 'eu-fsf.xml'), out.join('\n'));
}

// ---------------------------------------------------------------------------------------------------------------
// The UN's consolidated XML: <CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL>… <ENTITIES><ENTITY>…

const UN_LISTS: [string, string][] = [
  ['Al-Qaida', 'QD'],
  ['Taliban', 'TA'],
  ['DPRK', 'KP'],
  ['Iraq', 'IQ'],
  ['DRC', 'CD'],
  ['Libya', 'LY'],
  ['Somalia', 'SO'],
  ['South Sudan', 'SS'],
  ['Mali', 'ML'],
  ['CAR', 'CF'],
  ['Yemen', 'YE'],
  ['Haiti', 'HT'],
];
const UN_COUNTRIES = ['Yemen', 'Iraq', 'Afghanistan', 'Somalia', 'Libya', 'Democratic Republic of the Congo', 'Sudan', 'Mali', 'Syrian Arab Republic', "Democratic People's Republic of Korea", 'Pakistan', 'Central African Republic', 'Haiti', 'Tunisia', 'Saudi Arabia'];

function generateUn(dir: string, count: number): void {
  const rng = new Rng(5203);
  const names = new Names(rng);
  const counters = new Map<string, number>();
  const reference = (prefix: string) => {
    const n = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, n);
    return `${prefix}.${String(n).padStart(3, '0')}`;
  };
  let dataId = 6_900_000;
  const individuals: string[] = [];
  const entities: string[] = [];
  for (let i = 0; i < count; i++) {
    const [listName, prefix] = rng.pick(UN_LISTS);
    const country = rng.pick(UN_COUNTRIES);
    const person = rng.chance(0.73);
    const tag = person ? 'INDIVIDUAL' : 'ENTITY';
    const x: string[] = [`    <${tag}>`, `      <DATAID>${++dataId}</DATAID>`, '      <VERSIONNUM>1</VERSIONNUM>'];
    const aliasNames: [string, string][] = [];
    let script: string | undefined;
    if (person) {
      const p = names.person(rng.chance(0.7) ? 'arabic' : names.origin());
      const parts = [...p.given, p.family].map((w) => w.toUpperCase());
      ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME'].forEach((t, k) => {
        if (parts[k]) x.push(`      <${t}>${xmlEscape(k === 3 ? parts.slice(3).join(' ') : parts[k]!)}</${t}>`);
      });
      script = p.script;
      for (let a = 0, n = rng.few(6); a < n; a++) aliasNames.push([a === 0 && rng.chance(0.3) ? `Abu ${p.given[0]}` : [...p.given.map((w) => names.spelling(w)), names.spelling(p.family)].join(' '), rng.pick(['Good', 'Good', 'Low', 'a.k.a.'])]);
      x.push(`      <UN_LIST_TYPE>${listName}</UN_LIST_TYPE>`, `      <REFERENCE_NUMBER>${reference(`${prefix}i`)}</REFERENCE_NUMBER>`, `      <LISTED_ON>${2001 + rng.int(24)}-${p2(1 + rng.int(12))}-${p2(1 + rng.int(28))}</LISTED_ON>`);
      if (script && rng.chance(0.6)) x.push(`      <NAME_ORIGINAL_SCRIPT>${xmlEscape(script)}</NAME_ORIGINAL_SCRIPT>`);
      x.push(`      <COMMENTS1>${xmlEscape(lorem(rng, 20 + rng.int(100)))}.</COMMENTS1>`);
      if (rng.chance(0.5)) x.push('      <TITLE>', `        <VALUE>${rng.pick(['Mullah', 'Maulavi', 'Haji', 'General', 'Colonel'])}</VALUE>`, '      </TITLE>');
      if (rng.chance(0.6)) x.push('      <DESIGNATION>', `        <VALUE>${xmlEscape(lorem(rng, 4 + rng.int(10)))}</VALUE>`, '      </DESIGNATION>');
      for (let c = 0, n = rng.chance(0.85) ? 1 + rng.few(2) : 0; c < n; c++) x.push('      <NATIONALITY>', `        <VALUE>${xmlEscape(c === 0 ? country : rng.pick(UN_COUNTRIES))}</VALUE>`, '      </NATIONALITY>');
      x.push('      <LIST_TYPE>', '        <VALUE>UN List</VALUE>', '      </LIST_TYPE>', '      <LAST_DAY_UPDATED>', `        <VALUE>${2015 + rng.int(10)}-${p2(1 + rng.int(12))}-${p2(1 + rng.int(28))}</VALUE>`, '      </LAST_DAY_UPDATED>');
      if (aliasNames.length === 0) x.push('      <INDIVIDUAL_ALIAS>', '        <QUALITY/>', '        <ALIAS_NAME/>', '      </INDIVIDUAL_ALIAS>');
      for (const [a, quality] of aliasNames) x.push('      <INDIVIDUAL_ALIAS>', `        <QUALITY>${quality}</QUALITY>`, `        <ALIAS_NAME>${xmlEscape(a)}</ALIAS_NAME>`, '      </INDIVIDUAL_ALIAS>');
      x.push(rng.chance(0.5) ? `      <INDIVIDUAL_ADDRESS>\n        <CITY>${rng.pick(['Sanaa', 'Mosul', 'Kandahar', 'Mogadishu', 'Tripoli', 'Goma', 'Gao'])}</CITY>\n        <COUNTRY>${xmlEscape(country)}</COUNTRY>\n      </INDIVIDUAL_ADDRESS>` : '      <INDIVIDUAL_ADDRESS/>');
      const { y, m, d } = p.birth;
      for (let b = 0, n = rng.chance(0.9) ? 1 + rng.few(3) : 0; b < n; b++) {
        const form = rng.int(5);
        const inner = [`          <TYPE_OF_DATE>EXACT</TYPE_OF_DATE>\n          <DATE>${y}-${p2(m)}-${p2(d)}</DATE>`, `          <TYPE_OF_DATE>EXACT</TYPE_OF_DATE>\n          <YEAR>${y + b}</YEAR>`, `          <TYPE_OF_DATE>APPROXIMATELY</TYPE_OF_DATE>\n          <YEAR>${y}</YEAR>`, `          <TYPE_OF_DATE>BETWEEN</TYPE_OF_DATE>\n          <FROM_YEAR>${y}</FROM_YEAR>\n          <TO_YEAR>${y + 2}</TO_YEAR>`, `          <TYPE_OF_DATE>APPROXIMATELY</TYPE_OF_DATE>\n          <DATE>${y}-${p2(m)}-${p2(d)}</DATE>`][form]!;
        x.push('      <INDIVIDUAL_DATE_OF_BIRTH>', inner.replace(/^ {2}/gm, ''), '      </INDIVIDUAL_DATE_OF_BIRTH>');
      }
      x.push('      <INDIVIDUAL_PLACE_OF_BIRTH>', `        <CITY>${xmlEscape(names.entity().words.split(' ')[1]!)}</CITY>`, `        <COUNTRY>${xmlEscape(country)}</COUNTRY>`, '      </INDIVIDUAL_PLACE_OF_BIRTH>');
      for (let n = 0, k = rng.few(3); n < k; n++) x.push('      <INDIVIDUAL_DOCUMENT>', `        <TYPE_OF_DOCUMENT>${rng.pick(['Passport', 'National Identification Number'])}</TYPE_OF_DOCUMENT>`, `        <NUMBER>${rng.pick(['A', 'B', 'N'])}${1000000 + rng.int(8999999)}</NUMBER>`, `        <ISSUING_COUNTRY>${xmlEscape(country)}</ISSUING_COUNTRY>`, `        <NOTE>${xmlEscape(lorem(rng, 3 + rng.int(8)))}</NOTE>`, '      </INDIVIDUAL_DOCUMENT>');
      if (x.at(-1) !== '      </INDIVIDUAL_DOCUMENT>') x.push('      <INDIVIDUAL_DOCUMENT/>');
    } else {
      const e = names.entity();
      x.push(`      <FIRST_NAME>${xmlEscape(`${e.words} ${e.form}`.toUpperCase())}</FIRST_NAME>`, `      <UN_LIST_TYPE>${listName}</UN_LIST_TYPE>`, `      <REFERENCE_NUMBER>${reference(`${prefix}e`)}</REFERENCE_NUMBER>`, `      <LISTED_ON>${2001 + rng.int(24)}-${p2(1 + rng.int(12))}-${p2(1 + rng.int(28))}</LISTED_ON>`, `      <COMMENTS1>${xmlEscape(lorem(rng, 20 + rng.int(120)))}.</COMMENTS1>`, '      <LIST_TYPE>', '        <VALUE>UN List</VALUE>', '      </LIST_TYPE>');
      for (let a = 0, n = rng.few(5); a < n; a++) aliasNames.push([a === 0 ? e.words.toUpperCase() : `${names.entity().words} ${e.form}`, rng.pick(['Good', 'Low', 'a.k.a.', 'f.k.a.'])]);
      if (aliasNames.length === 0) x.push('      <ENTITY_ALIAS>', '        <QUALITY/>', '        <ALIAS_NAME/>', '      </ENTITY_ALIAS>');
      for (const [a, quality] of aliasNames) x.push('      <ENTITY_ALIAS>', `        <QUALITY>${quality}</QUALITY>`, `        <ALIAS_NAME>${xmlEscape(a)}</ALIAS_NAME>`, '      </ENTITY_ALIAS>');
      for (let n = 0, k = 1 + rng.few(3); n < k; n++) x.push('      <ENTITY_ADDRESS>', `        <STREET>${xmlEscape(names.entity().words)} Street</STREET>`, `        <CITY>${rng.pick(['Pyongyang', 'Nampo', 'Baghdad', 'Idlib', 'Benghazi', 'Kinshasa'])}</CITY>`, `        <COUNTRY>${xmlEscape(n === 0 ? country : rng.pick(UN_COUNTRIES))}</COUNTRY>`, '      </ENTITY_ADDRESS>');
    }
    x.push('      <SORT_KEY/>', '      <SORT_KEY_LAST_MOD/>', `    </${tag}>`);
    (person ? individuals : entities).push(x.join('\n'));
  }
  const head = ['<?xml version="1.0" encoding="UTF-8"?>', '<CONSOLIDATED_LIST xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="https://scsanctions.un.org/resources/xsd/consolidated-list.xsd" dateGenerated="2026-01-15T10:00:00.000Z">'];
  writeFileSync(join(dir, 'consolidated.xml'), [...head, '  <INDIVIDUALS>', ...individuals, '  </INDIVIDUALS>', '  <ENTITIES>', ...entities, '  </ENTITIES>', '</CONSOLIDATED_LIST>', ''].join('\n'));
}

// ---------------------------------------------------------------------------------------------------------------
// The UK Sanctions List's CSV: `Report Date: …`, the sample's 58-column header, one row per name and per address

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

function generateUk(dir: string, count: number): void {
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

// ---------------------------------------------------------------------------------------------------------------
// Measuring, one format a process

const FORMATS = [
  { key: 'ofac', label: "OFAC's SDN (SDN.CSV + ALT + ADD)", count: 18_000, generate: generateOfac },
  { key: 'eu', label: "EU's FSF XML", count: 5_600, generate: generateEu },
  { key: 'un', label: "UN's consolidated XML", count: 1_000, generate: generateUn },
  { key: 'uk', label: 'UK Sanctions List CSV', count: 5_000, generate: generateUk },
] as const;
type FormatKey = (typeof FORMATS)[number]['key'];

interface Measured {
  key: FormatKey;
  format: LoadedList['format'];
  files: { name: string; bytes: number; rows?: number }[];
  entries: number;
  names: number;
  byType: Record<string, number>;
  parseMs: number[];
  parseMedianMs: number;
  rssBeforeMB: number;
  peakRssParseMB: number;
  heapRetainedByEntriesMB: number;
  indexBuildMs: number;
  peakRssIndexMB: number;
  heapRetainedByIndexMB: number;
  screening: { queries: number; totalMs: number; p50Ms: number; p99Ms: number; maxMs: number; queriesHit: number; listedQueriesHit: number; listedQueries: number };
}

const MB = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
const heapUsed = () => {
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
};
const maxRss = () => process.resourceUsage().maxRSS * 1024;

/** 1,000 names to screen: most made up by the same generator (so sharing many words with the list), a fifth listed ones, half of those misspelt. */
function queries(entries: readonly ListEntry[], seed: number): { subject: ScreeningSubject; listed: string | undefined }[] {
  const rng = new Rng(seed);
  const names = new Names(rng);
  return Array.from({ length: QUERIES }, () => {
    const r = rng.next();
    if (r < 0.2) {
      const entry = rng.pick(entries);
      const name = rng.chance(0.5) || entry.aliases.length === 0 ? entry.name : rng.pick(entry.aliases).name;
      const written = rng.chance(0.5) ? name.replace(/\p{L}{5,}/u, (w) => names.spelling(w)) : name;
      const kind = entry.type === 'individual' ? 'person' : 'entity';
      return { subject: { kind, names: [written] }, listed: entry.entryNumber };
    }
    if (r < 0.35) {
      const e = names.entity();
      return { subject: { kind: 'entity', names: [`${e.words} ${e.form}`] }, listed: undefined };
    }
    const p = names.person();
    return { subject: { kind: 'person', names: [[...p.given, p.family].join(' ')], familyName: p.family, birthDate: `${p.birth.y}-${p2(p.birth.m)}-${p2(p.birth.d)}` }, listed: undefined };
  });
}

function measure(key: FormatKey, dir: string): Measured {
  const source = { label: key.toUpperCase(), path: dir, kind: 'folder' as const };
  const heap0 = heapUsed();
  const rssBefore = process.memoryUsage().rss;
  const parseMs: number[] = [];
  let t = performance.now();
  let list = loadListSync(source);
  parseMs.push(performance.now() - t);
  const peakRssParse = maxRss();
  const heapEntries = heapUsed() - heap0;
  for (let i = 0; i < 2; i++) {
    t = performance.now();
    list = loadListSync(source);
    parseMs.push(performance.now() - t);
  }
  heapUsed();
  const heap1 = heapUsed();
  t = performance.now();
  const index = new ScreeningIndex(list.entries);
  const indexBuildMs = performance.now() - t;
  const peakRssIndex = maxRss();
  const heapIndex = heapUsed() - heap1;

  const qs = queries(list.entries, 5299);
  const times: number[] = [];
  let queriesHit = 0;
  let listedQueries = 0;
  let listedQueriesHit = 0;
  const started = performance.now();
  for (const q of qs) {
    const t0 = performance.now();
    const hits = index.screen(q.subject);
    times.push(performance.now() - t0);
    if (hits.length > 0) queriesHit++;
    if (q.listed !== undefined) {
      listedQueries++;
      if (hits.some((h) => h.entryNumber === q.listed)) listedQueriesHit++;
    }
  }
  const totalMs = performance.now() - started;
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
  const r = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
  const byType: Record<string, number> = {};
  for (const e of list.entries) byType[e.type] = (byType[e.type] ?? 0) + 1;
  return {
    key,
    format: list.format,
    files: list.files.map((f) => ({ name: f.slice(dir.length + 1), bytes: statSync(f).size })),
    entries: list.entries.length,
    names: list.entries.reduce((n, e) => n + 1 + e.aliases.length, 0),
    byType,
    parseMs: parseMs.map((m) => r(m)),
    parseMedianMs: r([...parseMs].sort((a, b) => a - b)[1]!),
    rssBeforeMB: MB(rssBefore),
    peakRssParseMB: MB(peakRssParse),
    heapRetainedByEntriesMB: MB(heapEntries),
    indexBuildMs: r(indexBuildMs),
    peakRssIndexMB: MB(peakRssIndex),
    heapRetainedByIndexMB: MB(heapIndex),
    screening: { queries: qs.length, totalMs: r(totalMs), p50Ms: r(at(0.5), 3), p99Ms: r(at(0.99), 3), maxMs: r(times.at(-1)!, 3), queriesHit, listedQueries, listedQueriesHit },
  };
}

function runChild(key: FormatKey, dir: string): Promise<Measured> {
  return new Promise((resolvePromise, reject) => {
    // The same loader flags tsx gave this process, and gc() to read the heap an object graph keeps.
    const child = fork(import.meta.filename, ['--measure', key, dir], { execArgv: [...process.execArgv, '--expose-gc'] });
    let result: Measured | undefined;
    child.on('message', (m) => (result = m as Measured));
    child.on('error', reject);
    child.on('exit', (code) => (result && code === 0 ? resolvePromise(result) : reject(new Error(`${key}: the measuring process exited with ${code}`))));
  });
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'list-readers-'));
  const load = { start: loadavg().map((l) => Math.round(l * 100) / 100) };
  const results: (Measured & { label: string; generateMs: number })[] = [];
  try {
    for (const f of FORMATS) {
      const dir = join(root, f.key);
      mkdirSync(dir);
      const t = performance.now();
      f.generate(dir, Math.round(f.count * SCALE));
      const generateMs = Math.round(performance.now() - t);
      const measured = await runChild(f.key, dir);
      results.push({ label: f.label, generateMs, ...measured });
      const m = measured;
      console.log(`${f.label}: ${m.files.map((x) => `${x.name} ${MB(x.bytes)} MB`).join(', ')}; ${m.entries} entries, ${m.names} names; parse ${m.parseMs.join(' / ')} ms; peak RSS ${m.peakRssParseMB} MB (from ${m.rssBeforeMB}), heap kept ${m.heapRetainedByEntriesMB} MB; index ${m.indexBuildMs} ms, +${m.heapRetainedByIndexMB} MB heap, peak RSS ${m.peakRssIndexMB} MB; ${m.screening.queries} screenings ${m.screening.totalMs} ms (p99 ${m.screening.p99Ms} ms), listed found ${m.screening.listedQueriesHit}/${m.screening.listedQueries} (load ${loadavg()[0]!.toFixed(2)})`);
    }
  } finally {
    if (process.env.LIST_READERS_KEEP === '1') console.log(`files kept in ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
  const out = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: availableParallelism(),
    scale: SCALE,
    loadAverage: { ...load, end: loadavg().map((l) => Math.round(l * 100) / 100) },
    formats: results,
  };
  const dir = join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'list-readers-latest.json'), JSON.stringify(out, null, 2) + '\n');
  console.log(`load average ${out.loadAverage.start.join(' ')} at the start, ${out.loadAverage.end.join(' ')} at the end; bench/results/list-readers-latest.json`);
}

const at = process.argv.indexOf('--measure');
if (at >= 0) {
  const result = measure(process.argv[at + 1] as FormatKey, process.argv[at + 2]!);
  process.send!(result, () => process.exit(0));
} else {
  await main();
}
