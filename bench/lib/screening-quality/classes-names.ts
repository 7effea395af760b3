/** The classes about people's names: typo, transliteration, cjk, variants, near_names. */
import { hepburn } from './cjk.js';
import { type ClassSet, type LabelledCase, person, personEntry, type QualityClass } from './cases.js';
import { RUSSIAN_SYSTEMS, romanizeRussianWord } from './cyrillic.js';
import type { Written } from './dictionaries.js';
import { romanizeGreekWord } from './greek.js';
import { arabicPerson, chinesePerson, commaName, greekPerson, hebrewPerson, japanesePerson, koreanPerson, latinPerson, type Person, plainName, russianPerson, thaiPerson } from './people.js';
import type { Rng } from './random.js';
import type { SplitPools } from './splits.js';

/** Collects a class's entries and cases, numbering entries `<class>-<n>`. */
export class Builder {
  readonly set: ClassSet;
  constructor(readonly cls: QualityClass) {
    this.set = { cls, entries: [], cases: [] };
  }

  /** Lists `name` (with aliases and dates as given) and pairs `subject` with it. */
  add(kind: string, listed: Parameters<typeof personEntry>[1], options: Parameters<typeof personEntry>[2], subject: LabelledCase['subject'], shouldMatch: boolean): void {
    const entryNumber = `${this.cls}-${this.set.entries.length + 1}`;
    this.set.entries.push(personEntry(entryNumber, listed, options));
    this.set.cases.push({ cls: this.cls, kind, subject, entryNumber, shouldMatch, listed });
  }
}

const listedForm = (rng: Rng, p: Person) => (rng.chance(0.6) ? commaName(p) : plainName(p));

// ---------------------------------------------------------------------------------------------------------------- typo

const VOWELS = 'aeiou';
const CONSONANTS = 'bcdfghklmnprstvz';
type TypoOp = 'sub' | 'del' | 'ins' | 'swap';
type TypoPos = 'start' | 'inside' | 'end';

function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** One typo in a word (letters only, length 4 or more), at the start (its first two letters), inside or at its end. */
export function typoWord(rng: Rng, word: string, op: TypoOp, pos: TypoPos): string {
  const w = word.toLowerCase();
  const n = w.length;
  const i = pos === 'start' ? rng.int(2) : pos === 'end' ? n - 1 : rng.between(2, Math.max(2, n - 2));
  const other = (c: string) => {
    const from = VOWELS.includes(c) ? VOWELS : CONSONANTS;
    let r = rng.pick([...from]);
    while (r === c) r = rng.pick([...from]);
    return r;
  };
  let out: string;
  if (op === 'sub') out = w.slice(0, i) + other(w[i]!) + w.slice(i + 1);
  else if (op === 'del') out = w.slice(0, i) + w.slice(i + 1);
  else if (op === 'ins') {
    const at = pos === 'end' ? n : i;
    out = w.slice(0, at) + rng.pick([...VOWELS, ...CONSONANTS]) + w.slice(at);
  } else {
    let j = pos === 'end' ? n - 2 : Math.min(i, n - 2);
    if (w[j] === w[j + 1]) j = j > 0 ? j - 1 : j + 1;
    out = w.slice(0, j) + w[j + 1] + w[j] + w.slice(j + 2);
  }
  return out === w ? typoWord(rng, word, 'sub', pos) : capitalised(out);
}

export function typoClass(rng: Rng, pools: SplitPools, n: number): ClassSet {
  const b = new Builder('typo');
  const ops: TypoOp[] = ['sub', 'del', 'ins', 'swap'];
  for (let k = 0; b.set.cases.length < n && k < n * 20; k++) {
    const words = 2 + rng.int(3);
    const r = rng.next();
    const p: Person =
      r < 0.45 ? latinPerson(rng, pools, words - 2) : r < 0.75 ? russianPerson(rng, pools, words >= 3) : arabicPerson(rng, pools, Math.max(0, words - 2));
    const subjectWords = [p.given, ...p.middle, p.family];
    // A word of four letters or more, the family name's last part when hyphenated (al-Harbi).
    const candidates = subjectWords.map((w, i) => ({ w: w.split('-').at(-1)!, i })).filter(({ w }) => /^\p{L}{4,}$/u.test(w));
    if (candidates.length === 0) continue;
    const { w, i } = rng.pick(candidates);
    const op = ops[k % 4]!;
    const pos: TypoPos = rng.chance(0.4) ? 'start' : rng.chance(0.6) ? 'inside' : 'end';
    const changed = typoWord(rng, w, op, pos);
    subjectWords[i] = subjectWords[i]!.replace(w, changed);
    b.add(`${op}@${pos}`, listedForm(rng, p), {}, person(subjectWords.join(' ')), true);
  }
  return b.set;
}

// ------------------------------------------------------------------------------------------------- transliteration

/** Another spelling of each word where there is one (at least one word differs when any can). */
function otherSpellings(rng: Rng, parts: Written[]): string[] {
  const out = parts.map((w) => (w.length > 2 && rng.chance(0.6) ? rng.pick(w.slice(2)) : w[1]!));
  if (out.every((o, i) => o === parts[i]![1])) {
    const i = parts.findIndex((w) => w.length > 2);
    if (i >= 0) out[i] = rng.pick(parts[i]!.slice(2));
  }
  return out;
}

/** Whether two Latin names are written alike but for case and punctuation (no spelling to compare then). */
const alike = (a: string, b: string) => a.toLowerCase().replace(/[^\p{L}]+/gu, ' ').trim() === b.toLowerCase().replace(/[^\p{L}]+/gu, ' ').trim();

export function transliterationClass(rng: Rng, pools: SplitPools, n: number): ClassSet {
  const b = new Builder('transliteration');
  const kinds = ['ru:cyrillic', 'ru:latin', 'ru:latin', 'ar:arabic', 'ar:latin', 'el:greek', 'el:latin', 'he:hebrew', 'he:latin', 'th:thai', 'th:latin'];
  for (let k = 0; b.set.cases.length < n && k < n * 20; k++) {
    const kind = kinds[k % kinds.length]!;
    if (kind.startsWith('ru:')) {
      const p = russianPerson(rng, pools, rng.chance(0.6));
      if (kind === 'ru:cyrillic') b.add(kind, listedForm(rng, p), {}, person(p.native!), true);
      else {
        const system = rng.pick(RUSSIAN_SYSTEMS);
        const words = [p.cyr.given, p.cyr.patronymic, p.cyr.family].filter((w): w is string => !!w).map((w) => romanizeRussianWord(w, system));
        if (alike(words.join(' '), plainName(p))) continue;
        b.add(`ru:${system}`, listedForm(rng, p), {}, person(words.join(' ')), true);
      }
    } else if (kind.startsWith('ar:')) {
      const p = arabicPerson(rng, pools, rng.int(2));
      const subject = kind === 'ar:arabic' ? p.native! : otherSpellings(rng, p.parts).join(' ');
      if (alike(subject, plainName(p))) continue;
      b.add(kind, listedForm(rng, p), {}, person(subject), true);
    } else if (kind.startsWith('el:')) {
      const p = greekPerson(rng, pools, kind === 'el:greek' && rng.chance(0.5) ? 'phonetic' : 'elot');
      const phonetic = p.greek.map((w) => romanizeGreekWord(w, 'phonetic')).join(' ');
      if (kind === 'el:latin' && alike(phonetic, plainName(p))) continue;
      b.add(kind, listedForm(rng, p), {}, person(kind === 'el:greek' ? p.native! : phonetic), true);
    } else {
      const p = kind.startsWith('he:') ? hebrewPerson(rng, pools) : thaiPerson(rng, pools);
      const subject = kind.endsWith(':latin') ? otherSpellings(rng, p.parts).join(' ') : p.native!;
      if (alike(subject, plainName(p))) continue;
      b.add(kind, listedForm(rng, p), {}, person(subject), true);
    }
  }
  return b.set;
}

// ------------------------------------------------------------------------------------------------------------- cjk

export function cjkClass(rng: Rng, pools: SplitPools, n: number): ClassSet {
  const b = new Builder('cjk');
  for (let k = 0; b.set.cases.length < n && k < n * 20; k++) {
    const r = rng.next();
    if (r < 0.35) {
      const p = chinesePerson(rng, pools);
      b.add('zh:han', listedForm(rng, p), {}, person(p.native!), true);
    } else if (r < 0.45) {
      const p = chinesePerson(rng, pools);
      const spaced = [p.family, ...p.syllables.map((s) => capitalised(s))].join(' ');
      b.add('zh:pinyin-apart', listedForm(rng, p), {}, person(spaced), true);
    } else if (r < 0.75) {
      const p = koreanPerson(rng, pools, rng.chance(0.5) ? 'nk' : 'sk');
      b.add('ko:hangul', listedForm(rng, p), {}, person(p.native!), true);
    } else if (r < 0.93) {
      const p = japanesePerson(rng, pools);
      b.add('ja:katakana', listedForm(rng, p), {}, person(p.native!), true);
    } else {
      const p = japanesePerson(rng, pools);
      const [family, given] = p.kana;
      if (!family.includes('U') && !given.includes('U')) continue;
      const long = rng.chance(0.5) ? 'write' : 'h';
      b.add('ja:long-vowel', listedForm(rng, p), {}, person(`${hepburn(given, long)} ${hepburn(family, long)}`), true);
    }
  }
  return b.set;
}

// ----------------------------------------------------------------------------------------------------------- variants

/** Divine names of Abd compounds (Abd al-Rahman: servant of the Merciful), split by position between the splits. */
const ABD_NAMES = ['Rahman', 'Aziz', 'Karim', 'Rahim', 'Latif', 'Hamid', 'Majid', 'Qadir', 'Wahab', 'Salam', 'Razzaq', 'Hakim', 'Jabbar', 'Ghani', 'Malik', 'Nasir', 'Halim', 'Rauf', 'Sattar', 'Basit'];
const SUN_LETTERS = /^(t|th|d|dh|r|z|s|sh|n|l)/i;

function abdForms(name: string): string[] {
  const lower = name.toLowerCase();
  const forms = [`Abd al-${name}`, `Abdul ${name}`, `Abdul${lower}`, `Abdel ${name}`, `Abd el-${name}`, `Abdel${lower}`, `Abd-al-${name}`];
  const sun = SUN_LETTERS.exec(lower)?.[1];
  if (sun) forms.push(`Abd a${sun}-${name}`, `Abdu${sun} ${name}`, `Abdu${sun}${lower}`);
  return forms;
}

export function variantsClass(rng: Rng, pools: SplitPools, n: number): ClassSet {
  const b = new Builder('variants');
  const abd = ABD_NAMES.filter((_, i) => i % 2 === (pools.split === 'dev' ? 0 : 1));
  const kinds = ['ko:syllable', 'ar:bin', 'ar:given-spelling', 'ar:abd', 'chain:dropped', 'chain:added', 'ru:patronymic-dropped', 'ru:patronymic-added'];
  for (let k = 0; b.set.cases.length < n && k < n * 20; k++) {
    const kind = kinds[k % kinds.length]!;
    if (kind === 'ko:syllable') {
      const p = koreanPerson(rng, pools, 'nk');
      const spell = (s: string[]) => rng.pick(s.slice(1));
      const [a, c] = p.syllables.map(spell) as [string, string];
      const given = rng.pick([`${a} ${c}`, `${a}-${c.toLowerCase()}`, `${a}${c.toLowerCase()}`]);
      const subject = `${spell(p.familyCell)} ${given}`;
      if (subject === plainName(p)) continue;
      b.add(kind, listedForm(rng, p), {}, person(subject), true);
    } else if (kind === 'ar:bin') {
      const p = arabicPerson(rng, pools, 1);
      const link = ['bin', 'ibn', 'ben', 'Bin', ''];
      const listedLink = rng.pick(link);
      let subjectLink = rng.pick(link);
      while (subjectLink.toLowerCase() === listedLink.toLowerCase()) subjectLink = rng.pick(link);
      const name = (l: string) => [p.given, l, p.middle[0], p.family].filter(Boolean).join(' ');
      b.add(kind, name(listedLink), {}, person(name(subjectLink)), true);
    } else if (kind === 'ar:given-spelling') {
      const p = arabicPerson(rng, pools, rng.int(2));
      const given = p.parts[0]!;
      if (given.length < 3) continue;
      const words = [rng.pick(given.slice(2)), ...p.middle, p.family];
      b.add(kind, listedForm(rng, p), {}, person(words.join(' ')), true);
    } else if (kind === 'ar:abd') {
      const p = arabicPerson(rng, pools, rng.int(2));
      const forms = abdForms(rng.pick(abd));
      const [listedAbd, subjectAbd] = rng.sample(forms, 2) as [string, string];
      const name = (a: string) => [a, ...p.middle, p.family].join(' ');
      b.add(kind, rng.chance(0.5) ? name(listedAbd) : `${p.family.toUpperCase()}, ${[listedAbd, ...p.middle].join(' ')}`, {}, person(name(subjectAbd)), true);
    } else if (kind.startsWith('chain:')) {
      const p = arabicPerson(rng, pools, 2);
      const full = plainName(p);
      const short = rng.pick([`${p.given} ${p.family}`, `${p.given} ${p.middle[0]} ${p.family}`, `${p.given} bin ${p.middle[0]} ${p.family}`]);
      if (kind === 'chain:dropped') b.add(kind, rng.chance(0.5) ? full : commaName(p), {}, person(short), true);
      else b.add(kind, short, {}, person(full), true);
    } else {
      const p = russianPerson(rng, pools, true);
      const without = `${p.given} ${p.family}`;
      if (kind === 'ru:patronymic-dropped') b.add(kind, listedForm(rng, p), {}, person(without), true);
      else b.add(kind, rng.chance(0.5) ? `${p.family.toUpperCase()}, ${p.given}` : without, {}, person(plainName(p)), true);
    }
  }
  return b.set;
}

// --------------------------------------------------------------------------------------------------------- near_names

export function nearNamesClass(rng: Rng, pools: SplitPools, n: number): ClassSet {
  const b = new Builder('near_names');
  const kinds = ['ru:patronymic', 'ar:father', 'prefix_surname', 'other_surname', 'other_given'];
  for (let k = 0; b.set.cases.length < n && k < n * 20; k++) {
    const kind = kinds[k % kinds.length]!;
    if (kind === 'ru:patronymic') {
      const p = russianPerson(rng, pools, true);
      const other = rng.pick(pools.russianGiven.filter(([, pat]) => romanizeRussianWord(pat, 'bgn') !== p.middle[0]));
      b.add(kind, listedForm(rng, p), {}, person(`${p.given} ${romanizeRussianWord(other[1], 'bgn')} ${p.family}`), false);
    } else if (kind === 'ar:father') {
      const p = arabicPerson(rng, pools, 1 + rng.int(2));
      const father = rng.pick(pools.arabicGiven.filter((g) => g[1] !== p.given && !p.middle.includes(g[1]!)))[1]!;
      b.add(kind, listedForm(rng, p), {}, person([p.given, father, ...p.middle.slice(1), p.family].join(' ')), false);
    } else if (kind === 'prefix_surname') {
      const group = rng.pick(pools.prefixGroups);
      const [listed, other] = rng.sample(group, 2) as [string, string];
      const p = { ...latinPerson(rng, pools), family: listed };
      b.add(kind, listedForm(rng, p), {}, person(`${p.given} ${other}`), false);
    } else {
      const r = rng.next();
      const p = r < 0.5 ? latinPerson(rng, pools) : r < 0.75 ? russianPerson(rng, pools, false) : arabicPerson(rng, pools, 0);
      const q = p.origin === 'latin' ? latinPerson(rng, pools) : p.origin === 'russian' ? russianPerson(rng, pools, false) : arabicPerson(rng, pools, 0);
      if (kind === 'other_surname') {
        if ([...q.keys[1]].some((key) => p.keys[1].has(key))) continue;
        b.add(kind, listedForm(rng, p), {}, person(`${p.given} ${q.family}`), false);
      } else {
        if ([...q.keys[0]].some((key) => p.keys[0].has(key))) continue;
        b.add(kind, listedForm(rng, p), {}, person(`${q.given} ${p.family}`), false);
      }
    }
  }
  return b.set;
}

