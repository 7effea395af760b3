import anyAscii from 'any-ascii';

/**
 * Names as the matcher compares them: Latin letters and digits, lower case, one token per word. Other scripts are
 * transliterated (any-ascii), after the fixes it lacks for names (below); accents, punctuation and apostrophes go.
 */
export interface NameTokens {
  tokens: string[];
  /** Written in Arabic script: vowels are mostly not written, so tokens are also compared by their consonants. */
  arabic: boolean;
}

const ARABIC = /\p{Script=Arabic}/u;
const GREEK = /\p{Script=Greek}/u;
// The article al- written joined to its word (المنصوري): Latin spellings write it apart (al-Mansouri) or not at all.
const ARABIC_ARTICLE = /(^|[\s\u00A0])[\u0627\u0671]\u0644(?=\p{Script=Arabic}{2})/gu;
// Vowel marks and the tatweel (stretching) character.
const ARABIC_MARKS = /[\u064B-\u065F\u0670\u0640]/gu;

/** Articles and particles that spellings of the same name write or leave out. */
const PARTICLES = new Set(['al', 'el']);
/** Legal forms: "Rosa Trading LLC" and "Rosa Trading Company" are the same name. */
const LEGAL_FORMS = new Set([
  'ltd', 'limited', 'llc', 'inc', 'incorporated', 'co', 'company', 'corp', 'corporation', 'plc', 'gmbh', 'ag', 'sa', 'sas', 'sarl', 'srl', 'spa', 'bv', 'nv',
  'jsc', 'ojsc', 'pjsc', 'cjsc', 'ooo', 'zao', 'oao', 'pao', 'fze', 'fzco', 'fzc', 'lp', 'llp', 'the', 'of', 'and',
]);

/**
 * Greek the way Greek names are spelt in Latin (ELOT 743 for these): any-ascii writes ου as "oy" (Papadopoylos for
 * Papadopoulos) and μπ / ντ at a word's start as "mp" / "nt" (Mpakogiannis for Bakoyannis).
 */
function greekToLatinSpelling(text: string): string {
  return text
    .replace(/ο[υύ]/giu, (m) => (m[0] === 'Ο' ? 'Ou' : 'ou'))
    .replace(/(^|\s)μπ/gu, '$1b')
    .replace(/(^|\s)Μπ/gu, '$1B')
    .replace(/(^|\s)ντ/gu, '$1d')
    .replace(/(^|\s)Ντ/gu, '$1D');
}

export function nameTokens(name: string, kind: 'person' | 'entity' = 'person'): NameTokens {
  let text = name.normalize('NFC');
  const arabic = ARABIC.test(text);
  if (arabic) text = text.replace(ARABIC_MARKS, '').replace(ARABIC_ARTICLE, '$1');
  if (GREEK.test(text)) text = greekToLatinSpelling(text);
  // Plain ASCII (most names) needs neither transliteration nor decomposition.
  const ascii = /^[\x00-\x7F]*$/.test(text);
  const tokens = (ascii ? text : anyAscii(text).normalize('NFKD'))
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    // Apostrophes join (O'Brien, the ayn of 'Umar); every other mark separates words.
    .replace(/['`\u2018\u2019\u02BC\u02BB]/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const dropped = tokens.filter((t) => !PARTICLES.has(t) && !(kind === 'entity' && LEGAL_FORMS.has(t)));
  return { tokens: dropped.length > 0 ? dropped : tokens, arabic };
}

/**
 * A token's consonants, for names whose vowels are not written (Arabic script) and for finding candidates whose
 * spelling differs: v and w are one letter, ph is f, tch is ch, ck and q are k, doubled letters count once, and
 * vowels (with y and w, which are long vowels in Arabic transliteration) are dropped after the first letter.
 * Mohammed, Muhammad and محمد are all "mhmd"; Sidorov and Sidorow "sdr".
 */
export function consonants(token: string): string {
  const t = token.replace(/ph/g, 'f').replace(/tch/g, 'ch').replace(/ck/g, 'k').replace(/q/g, 'k').replace(/v/g, 'w');
  let out = /[aeiou]/.test(t[0] ?? '') ? '' : (t[0] ?? '');
  for (let i = 1; i < t.length; i++) {
    const c = t[i]!;
    if (/[aeiouyw]/.test(c)) continue;
    if (out[out.length - 1] === c) continue;
    out += c;
  }
  return out;
}
