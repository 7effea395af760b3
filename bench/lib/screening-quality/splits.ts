/**
 * The two splits' name pools: every pool is split by position (even items dev, odd held), then a held item any of
 * whose words (in any of its Latin spellings) dev also has is dropped, so the splits share no name word. Generic
 * words (company industry words, particles) are not names and are shared.
 */
import { ARABIC_FAMILY, ARABIC_GIVEN, HEBREW_FAMILY, HEBREW_GIVEN, THAI_FAMILY, THAI_GIVEN, type Written } from './dictionaries.js';
import { HAN_FAMILY, HAN_GIVEN, HANGUL_FAMILY, HANGUL_GIVEN, hepburn, JAPANESE_FAMILY, JAPANESE_GIVEN } from './cjk.js';
import { STEM_SYLLABLES } from './companies.js';
import { RUSSIAN_FAMILY, RUSSIAN_GIVEN, RUSSIAN_SYSTEMS, romanizeRussianWord } from './cyrillic.js';
import { GREEK_FAMILY, GREEK_GIVEN, romanizeGreekWord } from './greek.js';
import { LATIN_LANGUAGES, PREFIX_SURNAME_GROUPS, type LatinLanguage } from './latin-pools.js';

export type SplitName = 'dev' | 'held';

export interface SplitPools {
  split: SplitName;
  latin: LatinLanguage[];
  prefixGroups: string[][];
  russianGiven: [string, string][];
  russianFamily: string[];
  greekGiven: string[];
  greekFamily: string[];
  arabicGiven: Written[];
  arabicFamily: Written[];
  hebrewGiven: Written[];
  hebrewFamily: Written[];
  thaiGiven: Written[];
  thaiFamily: Written[];
  hanFamily: [string, string][];
  hanGiven: [string, string][];
  hangulFamily: [string, ...string[]][];
  hangulGiven: [string, ...string[]][];
  japaneseFamily: string[];
  japaneseGiven: string[];
  stemSyllables: string[];
}

/** Words that are not names: particles and the like, shared by both splits. */
const GENERIC = new Set(['al', 'el', 'es', 'bin', 'ibn', 'ben', 'abd', 'abu']);
/** Latin letters NFKD does not take apart. */
const FOLD: Record<string, string> = { ı: 'i', ł: 'l', Ł: 'L', ø: 'o', Ø: 'O', ß: 'ss', đ: 'd', Đ: 'D', æ: 'ae', œ: 'oe' };

export const wordsOf = (text: string): string[] =>
  text
    .replace(/[ıłŁøØßđĐæœ]/g, (c) => FOLD[c]!)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['\u2019]/g, '')
    .split(/[^a-z]+/)
    .filter((w) => w.length > 0 && !GENERIC.has(w));

const russianWords = (w: string) => ['bgn' as const, ...RUSSIAN_SYSTEMS].map((s) => romanizeRussianWord(w, s));
const WORDS = {
  latin: (s: string) => [s],
  written: (w: Written) => w.slice(1),
  russianGiven: ([g, p]: [string, string]) => [...russianWords(g), ...russianWords(p)],
  russian: russianWords,
  greek: (w: string) => [romanizeGreekWord(w, 'elot'), romanizeGreekWord(w, 'phonetic')],
  han: ([, p]: [string, string]) => [p],
  hangul: ([, ...latin]: [string, ...string[]]) => latin,
  japanese: (k: string) => [hepburn(k), hepburn(k, 'write'), hepburn(k, 'h')],
  syllable: (s: string) => [s],
};

function half<T>(items: readonly T[], parity: 0 | 1): T[] {
  return items.filter((_, i) => i % 2 === parity);
}

function build(parity: 0 | 1, keep: (texts: string[]) => boolean): Omit<SplitPools, 'split'> {
  const take = <T>(items: readonly T[], words: (item: T) => string[]) => half(items, parity).filter((item) => keep(words(item)));
  return {
    latin: LATIN_LANGUAGES.map((l) => ({ language: l.language, given: take(l.given, WORDS.latin), family: take(l.family, WORDS.latin) })),
    prefixGroups: take(PREFIX_SURNAME_GROUPS, (g) => g),
    russianGiven: take(RUSSIAN_GIVEN, WORDS.russianGiven),
    russianFamily: take(RUSSIAN_FAMILY, WORDS.russian),
    greekGiven: take(GREEK_GIVEN, WORDS.greek),
    greekFamily: take(GREEK_FAMILY, WORDS.greek),
    arabicGiven: take(ARABIC_GIVEN, WORDS.written),
    arabicFamily: take(ARABIC_FAMILY, WORDS.written),
    hebrewGiven: take(HEBREW_GIVEN, WORDS.written),
    hebrewFamily: take(HEBREW_FAMILY, WORDS.written),
    thaiGiven: take(THAI_GIVEN, WORDS.written),
    thaiFamily: take(THAI_FAMILY, WORDS.written),
    hanFamily: take(HAN_FAMILY, WORDS.han),
    hanGiven: take(HAN_GIVEN, WORDS.han),
    hangulFamily: take(HANGUL_FAMILY, WORDS.hangul),
    hangulGiven: take(HANGUL_GIVEN, WORDS.hangul),
    japaneseFamily: take(JAPANESE_FAMILY, WORDS.japanese),
    japaneseGiven: take(JAPANESE_GIVEN, WORDS.japanese),
    stemSyllables: take(STEM_SYLLABLES, WORDS.syllable),
  };
}

/** Every name word of a split's pools (Latin spellings, lower case), for the disjointness check. */
export function nameWords(pools: Omit<SplitPools, 'split'>): Set<string> {
  const out = new Set<string>();
  const add = (texts: string[]) => texts.forEach((t) => wordsOf(t).forEach((w) => out.add(w)));
  for (const l of pools.latin) [...l.given, ...l.family].forEach((s) => add([s]));
  pools.prefixGroups.forEach(add);
  pools.russianGiven.forEach((g) => add(WORDS.russianGiven(g)));
  pools.russianFamily.forEach((f) => add(WORDS.russian(f)));
  [...pools.greekGiven, ...pools.greekFamily].forEach((g) => add(WORDS.greek(g)));
  [...pools.arabicGiven, ...pools.arabicFamily, ...pools.hebrewGiven, ...pools.hebrewFamily, ...pools.thaiGiven, ...pools.thaiFamily].forEach((w) => add(WORDS.written(w)));
  [...pools.hanFamily, ...pools.hanGiven].forEach((h) => add(WORDS.han(h)));
  [...pools.hangulFamily, ...pools.hangulGiven].forEach((h) => add(WORDS.hangul(h)));
  [...pools.japaneseFamily, ...pools.japaneseGiven].forEach((k) => add(WORDS.japanese(k)));
  pools.stemSyllables.forEach((s) => add([s]));
  return out;
}

let cached: { dev: SplitPools; held: SplitPools } | undefined;

export function splitPools(): { dev: SplitPools; held: SplitPools } {
  if (cached) return cached;
  const devPools = build(0, () => true);
  const devWords = nameWords(devPools);
  // Han and Hangul syllables are short and shared by many names: a held syllable dev has is dropped like any word.
  const heldPools = build(1, (texts) => texts.every((t) => wordsOf(t).every((w) => !devWords.has(w))));
  cached = { dev: { split: 'dev', ...devPools }, held: { split: 'held', ...heldPools } };
  return cached;
}
