import { birthDateRelation } from './birth-dates.js';
import type { LegalForm } from './legal-forms.js';
import { keysOf, soundClass } from './keys.js';
import { CONTRADICTING_WORD, scoreNames, type QueryName } from './name-score.js';
import { segmented } from './segment.js';
import type { Spelling } from './spellings.js';
import { consonants, leftOut, nameReadings, type Reading } from './text.js';
import type { AgreedField, HitExplanation, ListEntry, ListedName, ScreeningHit, ScreeningSubject } from './types.js';

/**
 * The matcher (docs/screening.md#matching-and-the-score). Every spelling (text.ts) of every listed name and alias is
 * one variant, indexed by the keys of its tokens (keys.ts: the same keys decide which words the score may pair); a
 * screening scores only the variants whose keys can pair enough of the subject's words (candidates()), never the whole
 * list, and keeps the best of the subject's spellings.
 */

export const DEFAULT_THRESHOLD = 0.88;

/**
 * The matcher's version: raised whenever a change makes the same name score otherwise, so that every customer is
 * screened again by the new matcher at the next start (src/domain/cases/rescreen.ts). 2: issue 52's.
 */
export const MATCHER_VERSION = 2;

export const BIRTH_DATE_AGREES = 0.05;
/** A birth date one slip away from a listed one (a year off, day and month swapped): less than a conflict. */
export const BIRTH_DATE_NEAR = -0.02;
export const BIRTH_DATE_CONFLICTS = -0.2;
export const COUNTRY_AGREES = 0.03;
export const COUNTRY_CONFLICTS = -0.05;

type Kind = 'person' | 'entity';

interface Variant {
  entry: number;
  name: ListedName;
  /** How it was read: an entry of no type is read both ways, each compared with subjects of its kind. */
  kind: Kind;
  tokens: string[];
  skeletons: string[];
  sounds: string[];
  family: boolean[];
  forms?: LegalForm[];
  /** Tokens that are not initials. */
  words: number;
}


function kindsOf(entry: ListEntry): Kind[] {
  return entry.type === 'individual' ? ['person'] : entry.type === 'unknown' ? ['person', 'entity'] : ['entity'];
}

/** The tokens of a family name, as the matcher reads it. */
function familyTokens(text: string | undefined): ReadonlySet<string> {
  if (!text || !text.trim()) return new Set();
  return new Set(nameReadings(text, 'person').readings.flatMap((r) => r.tokens));
}

/** A listed person's family name: given apart by the list, or written before a comma (OFAC: `SIDOROV, Ivan Petrovich`). */
function listedFamilyName(name: ListedName, entry: ListEntry, own: boolean): string | undefined {
  if (name.familyName) return name.familyName;
  if (own && entry.familyName) return entry.familyName;
  const comma = name.name.indexOf(',');
  return comma > 0 ? name.name.slice(0, comma) : undefined;
}

export class ScreeningIndex {
  private readonly variants: Variant[] = [];
  private readonly postings = new Map<string, number[]>();
  /** Every listed word of three letters or more, to cut a subject's word written as several (segment.ts). */
  private readonly vocabulary = new Set<string>();
  /** Per variant: the last query token that reached it, and how many query tokens did (reset after each screening). */
  private seenBy: Int32Array;
  /**
   * Whether one word of one name facing an unpaired word of the other (CONTRADICTING_WORD) takes any name below the
   * threshold, birth date and country agreeing: then a candidate must pair every whole word of one of the two names.
   */
  private readonly noContradiction: boolean;
  private counts: Uint16Array;
  /** Per variant: its whole words and its initials (what candidates() needs of it, kept apart for speed). */
  private wordsOf: Uint8Array;
  private initialsOf: Uint8Array;

  /** `indexNow` false: an empty index that build() fills a slice at a time. */
  constructor(
    readonly entries: readonly ListEntry[],
    readonly threshold: number = DEFAULT_THRESHOLD,
    indexNow = true,
  ) {
    this.noContradiction = threshold > 1 - CONTRADICTING_WORD + BIRTH_DATE_AGREES + COUNTRY_AGREES;
    this.seenBy = new Int32Array(0);
    this.counts = new Uint16Array(0);
    this.wordsOf = new Uint8Array(0);
    this.initialsOf = new Uint8Array(0);
    if (!indexNow) return;
    entries.forEach((entry, i) => this.addEntry(entry, i));
    this.finish();
  }

  /**
   * The same index, built a slice of entries at a time with the event loop let run between slices: a reload of a large
   * list (the EU's 16,000 names take about a second to index) must not hold every request meanwhile.
   */
  static async build(entries: readonly ListEntry[], threshold: number = DEFAULT_THRESHOLD, slice = 500): Promise<ScreeningIndex> {
    const index = new ScreeningIndex(entries, threshold, false);
    for (let i = 0; i < entries.length; i++) {
      index.addEntry(entries[i]!, i);
      if ((i + 1) % slice === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    index.finish();
    return index;
  }

  private addEntry(entry: ListEntry, i: number): void {
    const names: ListedName[] = [{ name: entry.name }, ...entry.aliases];
    for (const kind of kindsOf(entry)) {
      const seen = new Set<string>();
      names.forEach((name, n) => {
        const family = kind === 'person' ? familyTokens(listedFamilyName(name, entry, n === 0)) : new Set<string>();
        for (const { tokens, forms } of nameReadings(name.name, kind, 'listed').readings) {
          const key = `${tokens.join(' ')}|${forms?.map((f) => f.code).join(' ') ?? ''}`;
          if (seen.has(key)) continue;
          seen.add(key);
          this.add({ entry: i, name, kind, tokens, skeletons: tokens.map(consonants), sounds: tokens.map(soundClass), family: tokens.map((t) => family.has(t)), ...(forms && forms.length > 0 ? { forms } : {}), words: tokens.filter((t) => t.length > 1).length });
        }
      });
    }
  }

  private finish(): void {
    this.seenBy = new Int32Array(this.variants.length).fill(-1);
    this.counts = new Uint16Array(this.variants.length);
    this.wordsOf = Uint8Array.from(this.variants, (v) => Math.min(255, v.words));
    this.initialsOf = Uint8Array.from(this.variants, (v) => Math.min(255, v.tokens.length - v.words));
  }

  private add(variant: Variant): void {
    const id = this.variants.length;
    this.variants.push(variant);
    // Also two adjacent words as one, which a subject may write together (Abdulrahman for Abdul Rahman).
    const joined = variant.tokens.slice(1).map((t, j) => `+${variant.tokens[j]}${t}`);
    for (const k of new Set([...variant.tokens.flatMap((t, j) => keysOf(t, variant.skeletons[j]!, variant.sounds[j]!)), ...joined])) {
      const list = this.postings.get(k);
      if (list) list.push(id);
      else this.postings.set(k, [id]);
    }
    for (const t of variant.tokens) if (t.length >= 3) this.vocabulary.add(t);
  }

  get size(): number {
    return this.entries.length;
  }

  /**
   * The entries the subject matches at or above the threshold, best first, one hit per entry. `exhaustive` scores
   * every variant instead of the indexed candidates: the brute force the index is tested against.
   */
  screen(subject: ScreeningSubject, exhaustive = false): ScreeningHit[] {
    const best = new Map<number, { hit: ScreeningHit; query: QueryName; variant: Variant }>();
    const countries = new Set(subject.countries?.filter((c): c is string => typeof c === 'string' && c !== ''));
    const family = subject.kind === 'person' ? familyTokens(subject.familyName ?? undefined) : new Set<string>();
    for (const text of subject.names) {
      if (!text || !text.trim()) continue;
      const { readings, arabic } = nameReadings(text, subject.kind);
      for (const reading of this.withCuts(readings, subject.kind)) {
        const query: QueryName = { ...reading, skeletons: reading.tokens.map(consonants), sounds: reading.tokens.map(soundClass), arabic, family: reading.tokens.map((t) => family.has(t)) };
        for (const id of exhaustive ? this.variants.keys() : this.candidates(query)) {
          const variant = this.variants[id]!;
          if (variant.kind !== subject.kind) continue;
          const entry = this.entries[variant.entry]!;
          const nameScore = scoreNames(query, variant);
          if (nameScore + BIRTH_DATE_AGREES + COUNTRY_AGREES < this.threshold) continue;
          const hit = judge(entry, variant.name, text, nameScore, subject.birthDate ?? null, countries);
          if (hit.score < this.threshold) continue;
          const previous = best.get(variant.entry)?.hit;
          if (!previous || better(hit, previous)) best.set(variant.entry, { hit, query, variant });
        }
      }
    }
    return [...best.values()]
      .map(({ hit, query, variant }) => {
        const explanation: HitExplanation = { pairs: [], onlySubject: [], onlyListed: [], adjustments: [] };
        scoreNames(query, variant, explanation);
        explanation.adjustments.push(...hit.explanation.adjustments);
        return { ...hit, explanation };
      })
      .sort((a, b) => b.score - a.score || a.list.localeCompare(b.list) || a.entryNumber.localeCompare(b.entryNumber));
  }

  /** Counts query token `q` once for each variant `key` reaches (`touched`: the variants reached so far). */
  private reach(key: string, q: number, touched: number[], count = 1): void {
    const list = this.postings.get(key);
    if (!list) return;
    for (const id of list) {
      if (this.seenBy[id] === q) continue;
      if (this.seenBy[id] === -1) touched.push(id);
      this.seenBy[id] = q;
      this.counts[id]! += count;
    }
  }

  /** The subject's spellings, and each again with its words that are several listed words written together cut. */
  private withCuts(readings: Reading[], kind: Kind): Reading[] {
    const left = (word: string) => leftOut(word, kind);
    const cuts = readings.map((r) => segmented(r, this.vocabulary, left)).filter((r): r is Spelling => r !== undefined);
    return cuts.length === 0 ? readings : [...readings, ...cuts];
  }

  /**
   * Variants whose words share keys with enough of the query's. A query word reaching a variant by any of its keys
   * counts 1; one that is two listed words written together (`+`), or two adjacent query words that are one listed
   * word, count 2: so the count bounds from above how many whole words of either name can pair (keys.ts: no others
   * pair). When one contradicting word takes any name below the threshold, a name must pair every whole word of one
   * side: the count must reach the fewer of the query's whole words (less the variant's initials, which may pair them)
   * and the variant's (less the query's initials). Otherwise one word is enough.
   */
  private candidates(query: QueryName): number[] {
    const touched: number[] = [];
    const { tokens } = query;
    const words = tokens.filter((t) => t.length > 1).length;
    for (let q = 0; q < tokens.length; q++) {
      // First, before its other keys count it once.
      if (tokens[q]!.length >= 2) this.reach(`+${tokens[q]}`, q, touched, 2);
      for (const key of keysOf(tokens[q]!, query.skeletons[q]!, query.sounds[q]!)) this.reach(key, q, touched);
    }
    if (!query.groups) {
      for (let q = 0; q + 1 < tokens.length; q++) {
        this.reach(`=${tokens[q]}${tokens[q + 1]}`, tokens.length + q, touched, 2);
        // In an abjad, two words joined by their consonants (نصر الله and Nasrallah), as scoreNames joins them.
        if (query.arabic) this.reach(`~${consonants(tokens[q]! + tokens[q + 1]!)}`, tokens.length + q, touched, 2);
      }
    }
    const initials = tokens.length - words;
    const out: number[] = [];
    for (const id of touched) {
      const needed = this.noContradiction ? Math.max(1, Math.min(words - this.initialsOf[id]!, this.wordsOf[id]! - initials)) : 1;
      if (this.counts[id]! >= needed) out.push(id);
      this.seenBy[id] = -1;
      this.counts[id] = 0;
    }
    return out;
  }
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** The better of two hits on one entry: the higher score, then the higher name score (when birth date and country
 * lift both to 1), then the entry's own name over an alias. */
function better(hit: ScreeningHit, previous: ScreeningHit): boolean {
  if (hit.score !== previous.score) return hit.score > previous.score;
  if (hit.nameScore !== previous.nameScore) return hit.nameScore > previous.nameScore;
  return !hit.matchedAlias && !!previous.matchedAlias;
}

function judge(entry: ListEntry, name: ListedName, matchedName: string, nameScore: number, birthDate: string | null, countries: ReadonlySet<string>): ScreeningHit {
  const agreed: AgreedField[] = ['name'];
  const conflicting: ('birthDate' | 'country')[] = [];
  const adjustments: HitExplanation['adjustments'] = [];
  let score = nameScore;
  if (birthDate && entry.birthDates.length > 0) {
    const relation = birthDateRelation(entry.birthDates, birthDate);
    const listed = entry.birthDates.map((d) => d.text).join(', ');
    if (relation === 'agrees') {
      agreed.push('birthDate');
      score += BIRTH_DATE_AGREES;
      adjustments.push({ kind: 'birth_date', effect: BIRTH_DATE_AGREES, detail: `${birthDate} agrees with ${listed}` });
    } else {
      conflicting.push('birthDate');
      const effect = relation === 'near' ? BIRTH_DATE_NEAR : BIRTH_DATE_CONFLICTS;
      score += effect;
      adjustments.push({ kind: 'birth_date', effect, detail: `${birthDate} ${relation === 'near' ? 'is near' : 'differs from'} ${listed}` });
    }
  }
  if (countries.size > 0 && entry.countries.length > 0) {
    const given = [...countries].join(', ');
    if (entry.countries.some((c) => countries.has(c))) {
      agreed.push('country');
      score += COUNTRY_AGREES;
      adjustments.push({ kind: 'country', effect: COUNTRY_AGREES, detail: `${given} agrees with ${entry.countries.join(', ')}` });
    } else {
      conflicting.push('country');
      score += COUNTRY_CONFLICTS;
      adjustments.push({ kind: 'country', effect: COUNTRY_CONFLICTS, detail: `${given} differs from ${entry.countries.join(', ')}` });
    }
  }
  return {
    list: entry.list,
    entryNumber: entry.entryNumber,
    entryType: entry.type,
    programs: entry.programs,
    listedName: entry.name,
    ...(name.aliasType !== undefined ? { matchedAlias: name } : {}),
    matchedName,
    score: round3(Math.max(0, Math.min(1, score))),
    nameScore: round3(nameScore),
    agreed,
    conflicting,
    listedBirthDates: entry.birthDates.map((d) => d.text),
    listedCountries: entry.countries,
    explanation: { pairs: [], onlySubject: [], onlyListed: [], adjustments },
  };
}
