import { scoreNames } from './name-score.js';
import { segmented } from './segment.js';
import type { Spelling } from './spellings.js';
import { consonants, leftOut, nameReadings } from './text.js';
import type { AgreedField, ListEntry, ListedBirthDate, ListedName, ScreeningHit, ScreeningSubject } from './types.js';

/**
 * The matcher (docs/screening.md#matching-and-the-score). Every spelling (text.ts) of every listed name and alias is
 * one variant, indexed by the keys of its tokens (the token, its consonants, its first four letters); a screening
 * scores only the variants that share keys with enough of the subject's tokens, never the whole list, and keeps the
 * best of the subject's spellings.
 */

export const DEFAULT_THRESHOLD = 0.88;

export const BIRTH_DATE_AGREES = 0.05;
export const BIRTH_DATE_CONFLICTS = -0.2;
export const COUNTRY_AGREES = 0.03;
export const COUNTRY_CONFLICTS = -0.05;

interface Variant {
  entry: number;
  name: ListedName;
  tokens: string[];
  skeletons: string[];
  /** Tokens that are not initials. */
  words: number;
}

interface PreparedName {
  tokens: string[];
  skeletons: string[];
  arabic: boolean;
  groups?: number[];
  exact?: boolean;
}

function isPersonEntry(entry: ListEntry): boolean | undefined {
  return entry.type === 'individual' ? true : entry.type === 'unknown' ? undefined : false;
}

function keysOf(token: string, skeleton: string): string[] {
  if (token.length < 2) return [];
  const keys = [`=${token}`];
  if (skeleton.length >= 2) keys.push(`~${skeleton}`);
  if (token.length >= 5) keys.push(`^${token.slice(0, 4)}`);
  return keys;
}

export class ScreeningIndex {
  private readonly variants: Variant[] = [];
  private readonly postings = new Map<string, number[]>();
  /** Every listed word of three letters or more, to cut a subject's word written as several (segment.ts). */
  private readonly vocabulary = new Set<string>();
  /** Per variant: the last query token that reached it, and how many query tokens did (reset after each screening). */
  private seenBy: Int32Array;
  private counts: Uint16Array;

  constructor(
    readonly entries: readonly ListEntry[],
    readonly threshold: number = DEFAULT_THRESHOLD,
  ) {
    entries.forEach((entry, i) => {
      const kind = entry.type === 'individual' ? 'person' : entry.type === 'unknown' ? 'person' : 'entity';
      const names: ListedName[] = [{ name: entry.name }, ...entry.aliases];
      const seen = new Set<string>();
      for (const name of names) {
        for (const { tokens } of nameReadings(name.name, kind, 'listed').readings) {
          const key = tokens.join(' ');
          if (seen.has(key)) continue;
          seen.add(key);
          this.add({ entry: i, name, tokens, skeletons: tokens.map(consonants), words: tokens.filter((t) => t.length > 1).length });
        }
      }
    });
    this.seenBy = new Int32Array(this.variants.length).fill(-1);
    this.counts = new Uint16Array(this.variants.length);
  }

  private add(variant: Variant): void {
    const id = this.variants.length;
    this.variants.push(variant);
    for (const k of new Set(variant.tokens.flatMap((t, j) => keysOf(t, variant.skeletons[j]!)))) {
      const list = this.postings.get(k);
      if (list) list.push(id);
      else this.postings.set(k, [id]);
    }
    for (const t of variant.tokens) if (t.length >= 3) this.vocabulary.add(t);
  }

  get size(): number {
    return this.entries.length;
  }

  /** The entries the subject matches at or above the threshold, best first, one hit per entry. */
  screen(subject: ScreeningSubject): ScreeningHit[] {
    const best = new Map<number, ScreeningHit>();
    const countries = new Set(subject.countries?.filter((c): c is string => typeof c === 'string' && c !== ''));
    for (const text of subject.names) {
      if (!text || !text.trim()) continue;
      const { readings, arabic } = nameReadings(text, subject.kind);
      for (const reading of this.withCuts(readings, subject.kind)) {
        const query: PreparedName = { ...reading, skeletons: reading.tokens.map(consonants), arabic };
        for (const id of this.candidates(query)) {
          const variant = this.variants[id]!;
          const entry = this.entries[variant.entry]!;
          const person = isPersonEntry(entry);
          if (person !== undefined && person !== (subject.kind === 'person')) continue;
          const nameScore = scoreNames(query, variant);
          if (nameScore + BIRTH_DATE_AGREES + COUNTRY_AGREES < this.threshold) continue;
          const hit = judge(entry, variant.name, text, nameScore, subject.birthDate ?? null, countries);
          if (hit.score < this.threshold) continue;
          const previous = best.get(variant.entry);
          if (!previous || hit.score > previous.score || (hit.score === previous.score && !hit.matchedAlias && previous.matchedAlias)) best.set(variant.entry, hit);
        }
      }
    }
    return [...best.values()].sort((a, b) => b.score - a.score || a.list.localeCompare(b.list) || a.entryNumber.localeCompare(b.entryNumber));
  }

  /** Counts query token `q` once for each variant `key` reaches (`touched`: the variants reached so far). */
  private reach(key: string, q: number, touched: number[]): void {
    const list = this.postings.get(key);
    if (!list) return;
    for (const id of list) {
      if (this.seenBy[id] === q) continue;
      if (this.seenBy[id] === -1) touched.push(id);
      this.seenBy[id] = q;
      this.counts[id]!++;
    }
  }

  /** The subject's spellings, and each again with its words that are several listed words written together cut. */
  private withCuts(readings: Spelling[], kind: 'person' | 'entity'): Spelling[] {
    const left = (word: string) => leftOut(word, kind);
    const cuts = readings.map((r) => segmented(r, this.vocabulary, left)).filter((r): r is Spelling => r !== undefined);
    return cuts.length === 0 ? readings : [...readings, ...cuts];
  }

  /**
   * Variants sharing keys with enough of the query's tokens: two of them when both sides have two words or more. Two
   * adjacent tokens written as one listed word (Si dorov, Abdul Rahman) count as one more token, as scoreNames
   * joins them.
   */
  private candidates(query: PreparedName): number[] {
    const touched: number[] = [];
    const { tokens } = query;
    const words = tokens.filter((t) => t.length > 1).length;
    for (let q = 0; q < tokens.length; q++) {
      for (const key of keysOf(tokens[q]!, query.skeletons[q]!)) this.reach(key, q, touched);
    }
    if (!query.groups) {
      for (let q = 0; q + 1 < tokens.length; q++) this.reach(`=${tokens[q]}${tokens[q + 1]}`, tokens.length + q, touched);
    }
    const out: number[] = [];
    for (const id of touched) {
      const needed = Math.max(1, Math.min(2, words, this.variants[id]!.words));
      if (this.counts[id]! >= needed) out.push(id);
      this.seenBy[id] = -1;
      this.counts[id] = 0;
    }
    return out;
  }
}

/** Whether a birth date (YYYY-MM-DD) is one the listed date allows. */
export function birthDateAgrees(listed: ListedBirthDate, birthDate: string): boolean {
  if (listed.day) return listed.day === birthDate;
  if (listed.month) return birthDate.startsWith(listed.month);
  const year = Number(birthDate.slice(0, 4));
  return year >= listed.fromYear && year <= listed.toYear;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

function judge(entry: ListEntry, name: ListedName, matchedName: string, nameScore: number, birthDate: string | null, countries: ReadonlySet<string>): ScreeningHit {
  const agreed: AgreedField[] = ['name'];
  const conflicting: ('birthDate' | 'country')[] = [];
  let score = nameScore;
  if (birthDate && entry.birthDates.length > 0) {
    if (entry.birthDates.some((d) => birthDateAgrees(d, birthDate))) {
      agreed.push('birthDate');
      score += BIRTH_DATE_AGREES;
    } else {
      conflicting.push('birthDate');
      score += BIRTH_DATE_CONFLICTS;
    }
  }
  if (countries.size > 0 && entry.countries.length > 0) {
    if (entry.countries.some((c) => countries.has(c))) {
      agreed.push('country');
      score += COUNTRY_AGREES;
    } else {
      conflicting.push('country');
      score += COUNTRY_CONFLICTS;
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
    explanation: { pairs: [], onlySubject: [], onlyListed: [], adjustments: [] },
  };
}
