/** People drawn from a split's pools, each with the Latin words a list would publish and, where it has one, its script. */
import { hepburn, katakana, pinyinGiven } from './cjk.js';
import { feminineFamily, romanizeRussianWord } from './cyrillic.js';
import type { Written } from './dictionaries.js';
import { romanizeGreekWord } from './greek.js';
import type { Rng } from './random.js';
import { type SplitPools, wordsOf } from './splits.js';

export type Origin = 'latin' | 'russian' | 'arabic' | 'greek' | 'hebrew' | 'thai' | 'chinese' | 'korean' | 'japanese';

export interface Person {
  origin: Origin;
  given: string;
  /** Patronymic, father's and grandfather's names, a middle name: between given and family in Latin order. */
  middle: string[];
  family: string;
  /** Chinese and Korean names are written family first, in Latin too. */
  familyFirst: boolean;
  /** Every Latin spelling of the given and of the family name, lower case: a coincidence check for people on no list. */
  keys: [given: Set<string>, family: Set<string>];
  /** The whole name in its own script, in that script's order (Иванов Сергей Викторович is also written given first). */
  native?: string;
}

const keySet = (texts: string[]) => new Set(texts.flatMap((t) => [wordsOf(t).join('')]));

/** Latin order: given, middle names, family (family first for Chinese and Korean). */
export function plainName(p: Person): string {
  return p.familyFirst ? [p.family, p.given, ...p.middle].join(' ') : [p.given, ...p.middle, p.family].join(' ');
}

/** A list's way: FAMILY, Given Middle. */
export function commaName(p: Person): string {
  return `${p.family.toUpperCase()}, ${[p.given, ...p.middle].join(' ')}`;
}

export function latinPerson(rng: Rng, pools: SplitPools, middle = 0): Person {
  const lang = rng.pick(pools.latin);
  const given = rng.pick(lang.given);
  const family = rng.pick(lang.family);
  const middles = rng.sample(lang.given.filter((g) => g !== given), middle);
  return { origin: 'latin', given, middle: middles, family, familyFirst: false, keys: [keySet([given]), keySet([family])] };
}

/** A Russian man or woman; `patronymic` their father's name as a patronymic (Sergey Viktorovich Ivanov). */
export function russianPerson(rng: Rng, pools: SplitPools, patronymic: boolean, father?: [string, string]): Person & { cyr: { given: string; patronymic?: string; family: string } } {
  const [given] = rng.pick(pools.russianGiven);
  const dad = father ?? rng.pick(pools.russianGiven.filter(([g]) => g !== given));
  const family = rng.pick(pools.russianFamily);
  const cyr = { given, ...(patronymic ? { patronymic: dad[1] } : {}), family };
  const bgn = (w: string) => romanizeRussianWord(w, 'bgn');
  return {
    origin: 'russian',
    given: bgn(given),
    middle: cyr.patronymic ? [bgn(cyr.patronymic)] : [],
    family: bgn(family),
    familyFirst: false,
    keys: [keySet([bgn(given), romanizeRussianWord(given, 'icao'), romanizeRussianWord(given, 'wire')]), keySet([bgn(family), bgn(feminineFamily(family))])],
    native: rng.chance(0.5) ? [given, cyr.patronymic, family].filter(Boolean).join(' ') : [family, given, cyr.patronymic].filter(Boolean).join(' '),
    cyr,
  };
}

/** A name of Arabic script: given, `ancestors` names of father (and grandfather), family; Latin by the first spelling. */
export function arabicPerson(rng: Rng, pools: SplitPools, ancestors: number): Person & { parts: Written[] } {
  const given = rng.pick(pools.arabicGiven);
  const chain = rng.sample(pools.arabicGiven.filter((g) => g !== given), ancestors);
  const family = rng.pick(pools.arabicFamily);
  const parts = [given, ...chain, family];
  return {
    origin: 'arabic',
    given: given[1]!,
    middle: chain.map((c) => c[1]!),
    family: family[1]!,
    familyFirst: false,
    keys: [keySet(given.slice(1)), keySet(family.slice(1))],
    native: parts.map((w) => w[0]).join(' '),
    parts,
  };
}

function writtenPerson(origin: 'hebrew' | 'thai', given: Written, family: Written): Person & { parts: Written[] } {
  return { origin, given: given[1]!, middle: [], family: family[1]!, familyFirst: false, keys: [keySet(given.slice(1)), keySet(family.slice(1))], native: `${given[0]} ${family[0]}`, parts: [given, family] };
}

export const hebrewPerson = (rng: Rng, pools: SplitPools) => writtenPerson('hebrew', rng.pick(pools.hebrewGiven), rng.pick(pools.hebrewFamily));
export const thaiPerson = (rng: Rng, pools: SplitPools) => writtenPerson('thai', rng.pick(pools.thaiGiven), rng.pick(pools.thaiFamily));

export function greekPerson(rng: Rng, pools: SplitPools, system: 'elot' | 'phonetic' = 'elot'): Person & { greek: [string, string] } {
  const given = rng.pick(pools.greekGiven);
  const family = rng.pick(pools.greekFamily);
  const r = (w: string, s: 'elot' | 'phonetic') => romanizeGreekWord(w, s);
  return {
    origin: 'greek',
    given: r(given, system),
    middle: [],
    family: r(family, system),
    familyFirst: false,
    keys: [keySet([r(given, 'elot'), r(given, 'phonetic')]), keySet([r(family, 'elot'), r(family, 'phonetic')])],
    native: `${given} ${family}`,
    greek: [given, family],
  };
}

export function chinesePerson(rng: Rng, pools: SplitPools): Person & { syllables: string[] } {
  const [familyHan, familyPinyin] = rng.pick(pools.hanFamily);
  const given = rng.sample(pools.hanGiven, rng.chance(0.85) ? 2 : 1);
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  const syllables = given.map(([, p]) => p);
  return {
    origin: 'chinese',
    given: pinyinGiven(syllables),
    middle: [],
    family: cap(familyPinyin),
    familyFirst: true,
    keys: [keySet([pinyinGiven(syllables)]), keySet([familyPinyin])],
    native: familyHan + given.map(([h]) => h).join(''),
    syllables,
  };
}

/** Korean: `style` nk writes the given syllables apart (Kim Jong Un), sk joined by a hyphen (Park Geun-hye). */
export function koreanPerson(rng: Rng, pools: SplitPools, style: 'nk' | 'sk'): Person & { syllables: [string, ...string[]][]; familyCell: [string, ...string[]] } {
  const family = rng.pick(pools.hangulFamily);
  const syllables = rng.sample(pools.hangulGiven, 2);
  const spell = (s: [string, ...string[]]) => (style === 'nk' ? s[1]! : (s[2] ?? s[1]!));
  const given = style === 'nk' ? syllables.map(spell).join(' ') : syllables.map((s, i) => (i === 0 ? spell(s) : spell(s).toLowerCase())).join('-');
  return {
    origin: 'korean',
    given,
    middle: [],
    family: spell(family),
    familyFirst: true,
    keys: [keySet(syllables.flatMap((s) => s.slice(1))), keySet(family.slice(1))],
    native: family[0] + syllables.map((s) => s[0]).join(''),
    syllables,
    familyCell: family,
  };
}

export function japanesePerson(rng: Rng, pools: SplitPools): Person & { kana: [string, string] } {
  const family = rng.pick(pools.japaneseFamily);
  const given = rng.pick(pools.japaneseGiven);
  return {
    origin: 'japanese',
    given: hepburn(given),
    middle: [],
    family: hepburn(family),
    familyFirst: false,
    keys: [keySet([hepburn(given), hepburn(given, 'write'), hepburn(given, 'h')]), keySet([hepburn(family), hepburn(family, 'write'), hepburn(family, 'h')])],
    native: `${katakana(family)}${rng.chance(0.7) ? ' ' : '・'}${katakana(given)}`,
    kana: [family, given],
  };
}

/** Anyone, of any origin, in the proportions of a mixed list. */
export function anyPerson(rng: Rng, pools: SplitPools): Person {
  const r = rng.next();
  if (r < 0.4) return latinPerson(rng, pools, rng.chance(0.2) ? 1 : 0);
  if (r < 0.55) return russianPerson(rng, pools, rng.chance(0.6));
  if (r < 0.72) return arabicPerson(rng, pools, rng.int(3));
  if (r < 0.77) return greekPerson(rng, pools);
  if (r < 0.81) return hebrewPerson(rng, pools);
  if (r < 0.84) return thaiPerson(rng, pools);
  if (r < 0.91) return chinesePerson(rng, pools);
  if (r < 0.96) return koreanPerson(rng, pools, rng.chance(0.5) ? 'nk' : 'sk');
  return japanesePerson(rng, pools);
}
