/** Fictional names for bench/list-readers.ts's lists, from a seeded PRNG (bench/lib/mulberry32.ts). */
import type { Rng } from './screening-quality/random.js';

const cap = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

export type Origin = 'slavic' | 'arabic' | 'korean' | 'latin';

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

export interface Person {
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

export function cyrillic(name: string): string {
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

export class Names {
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

export const ENTITY_WORDS = ['Trading', 'Global', 'Energy', 'Maritime', 'Capital', 'Petro', 'Logistics', 'Industrial', 'Export', 'Holding', 'Star', 'Ocean', 'Red', 'Blue', 'Golden', 'Eastern', 'United', 'Fortune', 'Silk', 'Falcon', 'Northern', 'Technologies', 'Shipping', 'Engineering', 'Investment', 'Defence', 'Aero', 'Resources', 'Mining', 'Bank'];
export const LEGAL = ['LLC', 'Ltd', 'Company Limited', 'FZE', 'JSC', 'OOO', 'S.A.', 'GmbH', 'Co.', 'PJSC', 'AO', 'Corporation', 'Inc.'];
