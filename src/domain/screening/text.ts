import anyAscii from 'any-ascii';
import { extractLegalForms, type LegalForm } from './legal-forms.js';
import { lookalikeForms } from './lookalikes.js';
import { romanizedSpellings } from './romanize.js';
import { CASE_BREAK, spellings, type Spelling } from './spellings.js';

/**
 * Names as the matcher compares them: Latin letters and digits, lower case, one token per word. Letters of other
 * scripts slipped into a Latin word are read as the Latin letters they look like (lookalikes.ts); other scripts are
 * transliterated (any-ascii), after the fixes it lacks for names (below); accents, punctuation and apostrophes go.
 */
export interface NameTokens {
  tokens: string[];
  /** Written in Arabic script: vowels are mostly not written, so tokens are also compared by their consonants. */
  arabic: boolean;
}

/** One spelling of a name as the matcher compares it: its words, and a company's legal forms taken out of them. */
export interface Reading extends Spelling {
  forms?: LegalForm[];
}

/** Every spelling of a name (spellings.ts), the name as written first, each once. */
export interface NameReadings {
  readings: Reading[];
  arabic: boolean;
}

const PLAIN = /^[A-Za-z]{2,}(?: [A-Za-z]{2,})*$/;
/** Scripts that write consonants and leave most vowels out (abjads): compared by consonants too, as Arabic is. */
const ABJAD = /[\p{Script=Arabic}\p{Script=Hebrew}]/u;
const HEBREW = /\p{Script=Hebrew}/u;
const THAI = /\p{Script=Thai}/u;
/**
 * Hebrew letters as names spell them in Latin where any-ascii reads them otherwise: ש is sh, ב b, כ k, פ p, and ו, a
 * vowel (o, u) more often than v in names, w (which consonants() leaves out, as it does y for י).
 */
const HEBREW_LETTERS: Record<string, string> = { '\u05E9': 'sh', '\u05D1': 'b', '\u05DB': 'k', '\u05DA': 'k', '\u05E4': 'p', '\u05E3': 'f', '\u05D5': 'w' };
const GREEK = /\p{Script=Greek}/u;
// The article al- written joined to its word (المنصوري): Latin spellings write it apart (al-Mansouri) or not at all.
const ARABIC_ARTICLE = /(^|[\s\u00A0])[\u0627\u0671]\u0644(?=\p{Script=Arabic}{2})/gu;
// Vowel marks and the tatweel (stretching) character.
const ARABIC_MARKS = /[\u064B-\u065F\u0670\u0640]/gu;

/**
 * Articles and particles that spellings of the same name write or leave out: the Arabic article, and the Arabic
 * `son of` (bin, ibn, bint; ben too, but not as a first word, where it is a given name).
 */
const PARTICLES = new Set(['al', 'el', 'bin', 'ibn', 'bint', 'binti']);
const PARTICLES_NOT_FIRST = new Set(['ben']);
/** Words of a company's name that say nothing of it. */
const COMPANY_STOP_WORDS = new Set(['the', 'of', 'and']);
/**
 * Legal forms as single words, for cutting (segment.ts) and for a form split by a space (L td). Which forms a name
 * has, and their codes across languages, is legal-forms.ts's.
 */
const LEGAL_FORMS = new Set([
  'ltd', 'limited', 'llc', 'inc', 'incorporated', 'co', 'company', 'corp', 'corporation', 'plc', 'gmbh', 'ag', 'sa', 'sas', 'sarl', 'srl', 'spa', 'bv', 'nv',
  'jsc', 'ojsc', 'pjsc', 'cjsc', 'ooo', 'zao', 'oao', 'pao', 'fze', 'fzco', 'fzc', 'lp', 'llp',
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
  const { readings, arabic } = nameReadings(name, kind);
  return { tokens: readings[0]?.tokens ?? [], arabic };
}

/**
 * A listed name is read as written, a subject's also with its words wholly in another script's lookalikes read as
 * Latin (the lists' own Cyrillic is genuine) and its words cut where a capital follows a small letter (groups).
 */
export function nameReadings(name: string, kind: 'person' | 'entity' = 'person', side: 'subject' | 'listed' = 'subject'): NameReadings {
  // Most names: words of two Latin letters or more between single spaces, no capital after a small letter.
  if (PLAIN.test(name) && !/[a-z][A-Z][a-z]/.test(name)) {
    const tokens = name.toLowerCase().split(' ');
    if (!tokens.some((t) => (t.length <= 2 && leftOut(t, kind)) || t.startsWith('abd'))) return { readings: [withoutParticles({ tokens }, kind)], arabic: false };
  }
  const forms = lookalikeForms(name.normalize('NFC'));
  const arabic = ABJAD.test(forms.text);
  const readings: Reading[] = [];
  const seen = new Set<string>();
  const texts = (forms.whole === undefined || side === 'listed' ? [forms.text] : [forms.text, forms.whole]).flatMap((text) => romanizedSpellings(text) ?? [text]);
  for (const text of texts) {
    for (const spelling of spellings(asciiText(text, arabic))) {
      if (side === 'listed' && spelling.groups) continue;
      const fragment = !spelling.groups && spelling.tokens.some((t) => t.length <= 2 && leftOut(t, kind));
      const writings = fragment ? [spelling, withFragmentsJoined(spelling, kind)] : [spelling];
      // Abd joined to the name after it, also read apart (Abdelrahman as Abd Rahman, as Abd al-Rahman is read).
      const apart = kind === 'person' ? withAbdApart(spelling) : spelling;
      for (const written of apart === spelling ? writings : [...writings, apart]) {
        const reading = withoutParticles(written, kind);
        const key = `${reading.tokens.join(' ')}|${reading.forms?.map((f) => f.code).join(' ') ?? ''}`;
        if (reading.tokens.length === 0 || seen.has(key)) continue;
        seen.add(key);
        readings.push(reading);
      }
    }
  }
  return { readings, arabic };
}

/** Lower-case ASCII, capitals that followed a small letter marked (CASE_BREAK), apostrophes gone. */
function asciiText(name: string, arabic: boolean): string {
  let text = name;
  if (arabic) text = text.replace(ARABIC_MARKS, '').replace(ARABIC_ARTICLE, '$1');
  if (HEBREW.test(text)) text = text.replace(/[\u0591-\u05C7]/gu, '').replace(/[\u05E9\u05D1\u05DB\u05DA\u05E4\u05E3\u05D5]/gu, (c) => HEBREW_LETTERS[c]!);
  // Thai: a letter marked silent (the thanthakhat) is not read, and a vowel written before its consonant is said after it.
  if (THAI.test(text)) text = text.replace(/[\u0E01-\u0E2E][\u0E38\u0E39]?\u0E4C/gu, '').replace(/([\u0E40-\u0E44])([\u0E01-\u0E2E])/gu, '$2$1');
  if (GREEK.test(text)) text = greekToLatinSpelling(text);
  // A capital after a small letter, each starting two letters or more (IvanSidorov, McDonald; not GmbH).
  text = text.replace(/(?<=\p{L}\p{Ll})(?=\p{Lu}\p{Ll})/gu, CASE_BREAK);
  // Plain ASCII (most names) needs neither transliteration nor decomposition.
  const ascii = /^[\x00-\x7F]*$/.test(text);
  return (
    (ascii ? text : anyAscii(text).normalize('NFKD'))
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      // Apostrophes join (O'Brien, the ayn of 'Umar); every other mark separates words.
      .replace(/['`\u2018\u2019\u02BC\u02BB]/g, '')
  );
}

/** Whether matching leaves a word out: particles, and a company's legal forms and words that say nothing. */
export function leftOut(word: string, kind: 'person' | 'entity'): boolean {
  return PARTICLES.has(word) || (kind === 'entity' && (LEGAL_FORMS.has(word) || COMPANY_STOP_WORDS.has(word)));
}

/**
 * A word cut by a space so that its first piece is a particle or legal form (El ena, SA NCTIONED), written whole:
 * the piece joined to the word after it.
 */
function withFragmentsJoined({ tokens }: Spelling, kind: 'person' | 'entity'): Spelling {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const next = tokens[i + 1];
    if (next !== undefined && tokens[i]!.length <= 2 && leftOut(tokens[i]!, kind) && !leftOut(next, kind)) {
      out.push(tokens[i]! + next);
      i++;
    } else out.push(tokens[i]!);
  }
  return { tokens: out };
}

/**
 * Abd (servant of) written joined to the name after it, with or without the article (Abdul Malik, Abdelrahman,
 * Abdussattar: the article's l taken by the next letter): two words, abd and the name, as Abd al-Sattar is read.
 */
const ABD = /^abd[aeiou](?:l|(sh|th|dh|[tdrszn])(?=\1))(.{3,})$|^abd[aeiou](?:l|sh|th|dh|[tdrszn])$/;

function withAbdApart(spelling: Spelling): Spelling {
  const matches = spelling.tokens.map((t) => (t.startsWith('abd') && t.length > 4 ? ABD.exec(t) : null));
  if (!matches.some(Boolean)) return spelling;
  const tokens: string[] = [];
  const groups: number[] = [];
  spelling.tokens.forEach((t, i) => {
    const m = matches[i];
    const parts = m ? (m[2] ? ['abd', m[2]] : ['abd']) : [t];
    tokens.push(...parts);
    groups.push(...parts.map(() => spelling.groups?.[i] ?? -1));
  });
  return spelling.groups ? { tokens, groups } : { tokens };
}

/**
 * Particles go, and a company's words that say nothing; a company's legal forms are taken out as codes
 * (legal-forms.ts; also a single-word form cut by a space: L td). Nothing goes when nothing else would be left.
 */
function withoutParticles(spelling: Spelling, kind: 'person' | 'entity'): Reading {
  const { tokens: all } = spelling;
  const keep = all.map((t, i) => !(PARTICLES.has(t) || (i > 0 && PARTICLES_NOT_FIRST.has(t)) || (kind === 'entity' && COMPANY_STOP_WORDS.has(t))));
  let forms: LegalForm[] = [];
  if (kind === 'entity') {
    const given = all.map((_, i) => i).filter((i) => keep[i]);
    const found = extractLegalForms(given.map((i) => all[i]!));
    forms = found.forms;
    const left = new Set(found.kept.map((k) => given[k]));
    for (const i of given) if (!left.has(i)) keep[i] = false;
    // A one-word form cut by a space (L td), which the table does not spell.
    for (let i = 0; i + 1 < all.length; i++) if (keep[i] && keep[i + 1] && all[i]!.length > 1 && LEGAL_FORMS.has(all[i]! + all[i + 1]!)) keep[i] = keep[i + 1] = false;
  }
  if (!keep.includes(true)) return spelling;
  if (!keep.includes(false)) return forms.length > 0 ? { ...spelling, forms } : spelling;
  const tokens = spelling.tokens.filter((_, i) => keep[i]);
  const reading: Reading = spelling.groups ? { tokens, groups: spelling.groups.filter((_, i) => keep[i]) } : { tokens };
  if (spelling.exact) reading.exact = true;
  if (forms.length > 0) reading.forms = forms;
  return reading;
}

/**
 * A token's consonants, for names whose vowels are not written (Arabic script) and for finding candidates whose
 * spelling differs: v and w are one letter, ph is f, kh and ch h, ck and q k, ts and tz z, doubled letters count once, and
 * vowels (with y and w, which are long vowels in Arabic transliteration) are dropped after the first letter.
 * Mohammed, Muhammad and محمد are all "mhmd"; Sidorov and Sidorow "sdr".
 */
export function consonants(token: string): string {
  // kh and ch are one sound in transliterations (Mikhail, Michail; Chatzidakis, Hatzidakis; خ), written h here; and
  // German writes Russian names with sch, tsch and z where English writes sh, ch and ts (Schewzow, Shevtsov), and
  // Greek γι is gi or y (Giorgos, Yorgos). (Not j for y: Arabic's ج is j, and its Latin spellings write it so.)
  const t = token
    .replace(/t?sch/g, (m) => (m === 'tsch' ? 'ch' : 'sh'))
    .replace(/ph/g, 'f')
    .replace(/tch/g, 'ch')
    .replace(/ck/g, 'k')
    .replace(/[kc]h/g, 'h')
    .replace(/t[sz]/g, 'z')
    .replace(/^gi(?=[aeou])/, 'y')
    .replace(/q/g, 'k')
    .replace(/v/g, 'w');
  let out = /[aeiou]/.test(t[0] ?? '') ? '' : (t[0] ?? '');
  for (let i = 1; i < t.length; i++) {
    const c = t[i]!;
    if (/[aeiouyw]/.test(c)) continue;
    if (out[out.length - 1] === c) continue;
    out += c;
  }
  return out;
}
