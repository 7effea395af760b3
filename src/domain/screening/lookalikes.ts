import unhomoglyph from 'unhomoglyph';

/**
 * Letters of other scripts that look like Latin ones (Cyrillic Ѕ, Greek Ζ, Cherokee Ꮪ, Lisu ꓢ), read as the Latin
 * letters they look like, by the confusables of Unicode's UTS #39 (confusables.txt, as the `unhomoglyph` package
 * ships it). Transliteration reads a letter by its sound (Ѕ is "dz", Р is "r", Н is "n"), which is right for a word
 * written in Cyrillic and wrong for a Latin word with a Cyrillic letter slipped in: "Ivan Ѕidorov" must compare as
 * "Ivan Sidorov". So, per word (text between spaces):
 * - a word mixing scripts (Latin and Cyrillic, Greek and Cyrillic, ...) has each non-Latin letter replaced by the
 *   Latin letter it looks like, where UTS #39 gives one;
 * - a word in one other script is genuine text and left to the transliteration; when each of its letters looks like
 *   a Latin letter of its case (Cyrillic ВОВА, Greek ΑΚΗ, not Вова: в is a small capital) it may be either, and
 *   `whole` reads it as Latin too.
 */
export interface LookalikeForms {
  /** The name with the letters of mixed words read as the Latin letters they look like. */
  text: string;
  /** The same, with the words wholly in another script's lookalikes read as Latin too; absent when there are none. */
  whole?: string;
}

const LATIN = /\p{Script=Latin}/u;
const NEUTRAL = /[\p{Script=Common}\p{Script=Inherited}]/u;
/** Scripts told apart for mixing; any other counts as one more. */
const SCRIPTS = ['Cyrillic', 'Greek', 'Armenian', 'Georgian', 'Cherokee', 'Coptic', 'Lisu', 'Canadian_Aboriginal', 'Arabic', 'Hebrew'].map((name) => ({ name, re: new RegExp(`\\p{Script=${name}}`, 'u') }));
const NON_ASCII_LETTER = /[^\x00-\x7F]/;

function scriptOf(letter: string): string | undefined {
  if (LATIN.test(letter)) return 'Latin';
  if (NEUTRAL.test(letter)) return undefined;
  return SCRIPTS.find((s) => s.re.test(letter))?.name ?? 'other';
}

/** UTS #39's skeleton of one character, without marks: Ѐ is E, ԁ is d, Ы is "bl". */
function skeleton(c: string): string {
  return unhomoglyph(c.normalize('NFD')).normalize('NFD').replace(/\p{M}/gu, '');
}

const prototypes = [new Map<string, string | null>(), new Map<string, string | null>()];

/**
 * The Latin letters a letter of another script looks like, with its case, or null. Unless `strict`, a lower-case
 * letter that looks like a small capital (Cyrillic в, н, т) is read as that capital's letter. UTS #39 writes capital
 * I as its prototype l; a capital (or a caseless letter where a capital would stand) that looks like l is I here, as
 * its Latin twin is.
 */
function prototype(c: string, strict = false): string | null {
  const cache = prototypes[strict ? 1 : 0]!;
  let p = cache.get(c);
  if (p !== undefined) return p;
  p = null;
  const lower = c.toLowerCase();
  const upper = c.toUpperCase();
  for (const form of !strict && lower === c && upper !== c ? [c, upper] : [c]) {
    const s = skeleton(form);
    if (/^[A-Za-z]+$/.test(s)) {
      p = s === 'rn' ? 'm' : s;
      break;
    }
  }
  if (p !== null && c !== upper) p = p.toLowerCase();
  else if (p !== null && c !== lower) p = p === 'l' ? 'I' : p.toUpperCase();
  cache.set(c, p);
  return p;
}

const isUpper = (c: string | undefined) => c !== undefined && c !== c.toLowerCase();

function latinLetters(word: string, strict = false): string {
  const chars = [...word].map((c) => (/\p{L}/u.test(c) && scriptOf(c) !== 'Latin' && scriptOf(c) !== undefined ? (prototype(c, strict) ?? c) : c));
  const letters = chars.map((c, i) => (/\p{L}/u.test(c) ? i : -1)).filter((i) => i >= 0);
  // A caseless l-shaped letter (Arabic alif, Lisu ꓲ) starting a word, or among capitals, stands where I would.
  letters.forEach((i, k) => {
    const original = [...word][i]!;
    if (chars[i] !== 'l' || original === 'l' || original.toLowerCase() !== original.toUpperCase()) return;
    const next = chars[letters[k + 1] ?? -1];
    if (k === 0 || isUpper(next) || (next === undefined && isUpper(chars[letters[k - 1]!]))) chars[i] = 'I';
  });
  return chars.join('');
}

export function lookalikeForms(name: string): LookalikeForms {
  if (!NON_ASCII_LETTER.test(name)) return { text: name };
  let text = '';
  let whole = '';
  let anyWhole = false;
  for (const part of name.split(/(\s+)/)) {
    const scripts = new Set<string>();
    let allLookalike = true;
    for (const c of part) {
      if (!/\p{L}/u.test(c)) continue;
      const script = scriptOf(c);
      if (script !== undefined) scripts.add(script);
      if (script !== 'Latin' && prototype(c, true) === null) allLookalike = false;
    }
    if (scripts.size > 1) {
      const mapped = latinLetters(part);
      text += mapped;
      whole += mapped;
    } else if (scripts.size === 1 && !scripts.has('Latin') && allLookalike) {
      text += part;
      whole += latinLetters(part, true);
      anyWhole = true;
    } else {
      text += part;
      whole += part;
    }
  }
  return anyWhole ? { text, whole } : { text };
}
