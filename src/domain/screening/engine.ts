import { jaroWinkler } from './similarity.js';
import { consonants, nameTokens } from './text.js';
import type { AgreedField, ListEntry, ListedBirthDate, ListedName, ScreeningHit, ScreeningSubject } from './types.js';

/**
 * The matcher (docs/screening.md#matching-and-the-score). Every listed name and alias is one variant, indexed by the
 * keys of its tokens (the token, its consonants, its first four letters); a screening scores only the variants
 * that share keys with enough of the subject's tokens, never the whole list.
 */

export const DEFAULT_THRESHOLD = 0.88;

/** What an initial (`I.`) is worth against a name it begins. */
const INITIAL = 0.9;
/** Below this a pair of tokens does not count as the same word. */
const TOKEN_FLOOR = 0.75;
/**
 * Each token one side has and the other has not, when both have at least two: Ivan Sidorov is 0.9 against Ivan
 * Petrovich Sidorov (a hit at the default threshold, more so with the birth date), Ivan Petrov 0.87 (not one).
 */
const EXTRA_TOKEN = 0.1;
/** Each extra token when one side is a single word (`Ivan` is not `Ivan Trading`). */
const EXTRA_TOKEN_SINGLE = 0.15;
/** A consonant match (Arabic script, where vowels are not written) is worth a little less than the same letters. */
const CONSONANT_MATCH = 0.95;
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
  text: string;
  tokens: string[];
  skeletons: string[];
  arabic: boolean;
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
        const { tokens } = nameTokens(name.name, kind);
        const key = tokens.join(' ');
        if (tokens.length === 0 || seen.has(key)) continue;
        seen.add(key);
        const skeletons = tokens.map(consonants);
        const id = this.variants.length;
        this.variants.push({ entry: i, name, tokens, skeletons, words: tokens.filter((t) => t.length > 1).length });
        for (const k of new Set(tokens.flatMap((t, j) => keysOf(t, skeletons[j]!)))) {
          const list = this.postings.get(k);
          if (list) list.push(id);
          else this.postings.set(k, [id]);
        }
      }
    });
    this.seenBy = new Int32Array(this.variants.length).fill(-1);
    this.counts = new Uint16Array(this.variants.length);
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
      const { tokens, arabic } = nameTokens(text, subject.kind);
      if (tokens.length === 0) continue;
      const query: PreparedName = { text, tokens, skeletons: tokens.map(consonants), arabic };
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
    return [...best.values()].sort((a, b) => b.score - a.score || a.list.localeCompare(b.list) || a.entryNumber.localeCompare(b.entryNumber));
  }

  /** Variants sharing keys with enough of the query's tokens: two of them when both sides have two words or more. */
  private candidates(query: PreparedName): number[] {
    const touched: number[] = [];
    const words = query.tokens.filter((t) => t.length > 1).length;
    query.tokens.forEach((token, q) => {
      for (const key of keysOf(token, query.skeletons[q]!)) {
        const list = this.postings.get(key);
        if (!list) continue;
        for (const id of list) {
          if (this.seenBy[id] === q) continue;
          if (this.seenBy[id] === -1) touched.push(id);
          this.seenBy[id] = q;
          this.counts[id]!++;
        }
      }
    });
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

/** How alike two tokens are, 0 to 1: equal, an initial and a word it begins, Jaro-Winkler, or their consonants. */
export function tokenSimilarity(a: string, b: string, arabic = false, skeletonA = '', skeletonB = ''): number {
  if (a === b) return a.length === 1 ? INITIAL : 1;
  if (a.length === 1 || b.length === 1) return (a.length === 1 ? b.startsWith(a) : a.startsWith(b)) ? INITIAL : 0;
  let sim = jaroWinkler(a, b);
  if (arabic && skeletonA.length > 0 && skeletonB.length > 0) sim = Math.max(sim, CONSONANT_MATCH * jaroWinkler(skeletonA, skeletonB));
  return sim >= TOKEN_FLOOR ? sim : 0;
}

/**
 * Adjacent tokens of `a` written as one in `b` (Abdul Rahman and Abdulrahman; عبد الله and Abdallah by consonants)
 * are joined, so that both count as one word.
 */
function joinAdjacent(a: { tokens: string[]; skeletons: string[] }, b: { tokens: string[]; skeletons: string[] }, arabic: boolean): { tokens: string[]; skeletons: string[] } {
  if (a.tokens.length < 2) return a;
  const words = new Set(b.tokens);
  const skeletons = arabic ? new Set(b.skeletons.filter((s) => s.length >= 3)) : new Set<string>();
  const tokens: string[] = [];
  const skels: string[] = [];
  for (let i = 0; i < a.tokens.length; i++) {
    const next = a.tokens[i + 1];
    if (next !== undefined && a.tokens[i]!.length > 1 && next.length > 1) {
      const joined = a.tokens[i]! + next;
      const joinedSkeleton = consonants(joined);
      if (words.has(joined) || skeletons.has(joinedSkeleton)) {
        tokens.push(joined);
        skels.push(joinedSkeleton);
        i++;
        continue;
      }
    }
    tokens.push(a.tokens[i]!);
    skels.push(a.skeletons[i]!);
  }
  return { tokens, skeletons: skels };
}

/**
 * How alike two names are, 0 to 1, whatever their word order: each word of the shorter name is paired with its most
 * similar word of the other (greedily, best pairs first), the similarities averaged over the shorter name, less
 * EXTRA_TOKEN for each word only the longer one has. At least one pair must be two whole words (not initials).
 */
export function scoreNames(query: { tokens: string[]; skeletons: string[]; arabic: boolean }, listed: { tokens: string[]; skeletons: string[] }): number {
  const arabic = query.arabic;
  const q = joinAdjacent(query, listed, arabic);
  const l = joinAdjacent(listed, q, arabic);
  const pairs: { sim: number; i: number; j: number }[] = [];
  for (let i = 0; i < q.tokens.length; i++) {
    for (let j = 0; j < l.tokens.length; j++) {
      const sim = tokenSimilarity(q.tokens[i]!, l.tokens[j]!, arabic, q.skeletons[i], l.skeletons[j]);
      if (sim > 0) pairs.push({ sim, i, j });
    }
  }
  pairs.sort((x, y) => y.sim - x.sim || x.i - y.i || x.j - y.j);
  const usedQ = new Set<number>();
  const usedL = new Set<number>();
  let total = 0;
  let whole = false;
  for (const { sim, i, j } of pairs) {
    if (usedQ.has(i) || usedL.has(j)) continue;
    usedQ.add(i);
    usedL.add(j);
    total += sim;
    if (q.tokens[i]!.length > 1 && l.tokens[j]!.length > 1 && sim >= 0.85) whole = true;
  }
  if (!whole) return 0;
  const shorter = Math.min(q.tokens.length, l.tokens.length);
  const longer = Math.max(q.tokens.length, l.tokens.length);
  const score = total / shorter - (longer - shorter) * (shorter === 1 ? EXTRA_TOKEN_SINGLE : EXTRA_TOKEN);
  return Math.max(0, Math.min(1, score));
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
  };
}
