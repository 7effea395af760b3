/**
 * The evaluation: a split's classes generated from its pools and seed, each screened against a list of its entries
 * and distractors (all the classes' entries for people on no list), counted per class and per kind.
 */
import { ScreeningIndex } from '../../../src/domain/screening/engine.js';
import type { ListEntry, ScreeningHit } from '../../../src/domain/screening/types.js';
import { CLASSES, type ClassSet, type LabelledCase, type QualityClass } from './cases.js';
import { cjkClass, nearNamesClass, transliterationClass, typoClass, variantsClass } from './classes-names.js';
import { aliasesClass, datesClass, distractors, legalFormClass, noMatchClass } from './classes-other.js';
import { Rng } from './random.js';
import { type SplitName, splitPools } from './splits.js';

/** Each split's seed: different streams as well as different names. */
export const SEEDS: Record<SplitName, number> = { dev: 52_001, held: 52_913 };

export interface Tally {
  /** Should-match cases, and how many found their entry. */
  pairs: number;
  found: number;
  /** Should-not-match cases, and how many hit the entry they are paired with (no_match: any entry). */
  negatives: number;
  falsePositives: number;
}

export interface ClassResult extends Tally {
  cls: QualityClass;
  /** found / pairs, falsePositives / negatives (null when there are none). */
  recall: number | null;
  fpRate: number | null;
  entriesListed: number;
  /** Should-match cases that also hit another entry than theirs. */
  otherHits: number;
  kinds: Record<string, Tally>;
  /** Dev only: a few misses and false positives per kind, for whoever tunes the matcher. */
  examples?: { kind: string; subject: string; listed?: string; expected: boolean; hits: string[] }[];
}

export interface SplitResult {
  split: SplitName;
  seed: number;
  cases: number;
  classes: ClassResult[];
  /** Over every labelled pair of every class but no_match. */
  overall: { pairs: number; found: number; recall: number; negatives: number; falsePositives: number; fpRate: number };
  /** Share of people on no list with any hit. */
  noMatchHitRate: number;
  seconds: number;
}

const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 10_000) / 10_000);

/**
 * Every class's cases and entries for a split, `size` cases in all (about size / 9 a class), and the list people on
 * no list are screened against (every class's entries and as many distractors).
 */
export function generateSplit(split: SplitName, size: number): { sets: ClassSet[]; noMatchList: ListEntry[] } {
  const pools = splitPools()[split];
  const rng = new Rng(SEEDS[split]);
  const n = Math.max(9, Math.round(size / CLASSES.length));
  const named = [typoClass, transliterationClass, cjkClass, legalFormClass, variantsClass, nearNamesClass, datesClass, aliasesClass].map((make) => make(rng, pools, n));
  const listed = named.flatMap((s) => s.entries);
  const noMatchList = [...listed, ...distractors(new Rng(SEEDS[split] + 1), pools, Math.max(300, listed.length), 'D')];
  return { sets: [...named, noMatchClass(rng, pools, n, noMatchList)], noMatchList };
}

function describeHits(hits: ScreeningHit[]): string[] {
  return hits.slice(0, 3).map((h) => `${h.entryNumber} ${h.matchedAlias?.name ?? h.listedName} (${h.score})`);
}

export function evaluateSplit(split: SplitName, size: number, options: { examples?: number } = {}): SplitResult {
  const started = performance.now();
  const { sets, noMatchList } = generateSplit(split, size);
  const rng = new Rng(SEEDS[split] + 2);
  const pools = splitPools()[split];
  const classes = sets.map((set): ClassResult => {
    const entries: ListEntry[] = set.cls === 'no_match' ? noMatchList : [...set.entries, ...distractors(rng, pools, Math.max(300, 2 * set.entries.length), `D-${set.cls}`, set.cls === 'legal_form' ? 0.6 : 0.15)];
    const index = new ScreeningIndex(entries);
    const result: ClassResult = { cls: set.cls, pairs: 0, found: 0, negatives: 0, falsePositives: 0, recall: null, fpRate: null, entriesListed: entries.length, otherHits: 0, kinds: {} };
    const shown = new Map<string, number>();
    for (const c of set.cases) {
      const hits = index.screen(c.subject);
      const hitsOwn = c.entryNumber === undefined ? hits.length > 0 : hits.some((h) => h.entryNumber === c.entryNumber);
      const kind = (result.kinds[c.kind] ??= { pairs: 0, found: 0, negatives: 0, falsePositives: 0 });
      const wrong = c.shouldMatch ? !hitsOwn : hitsOwn;
      if (c.shouldMatch) {
        result.pairs++;
        kind.pairs++;
        if (hitsOwn) {
          result.found++;
          kind.found++;
        }
        if (hits.some((h) => h.entryNumber !== c.entryNumber)) result.otherHits++;
      } else {
        result.negatives++;
        kind.negatives++;
        if (hitsOwn) {
          result.falsePositives++;
          kind.falsePositives++;
        }
      }
      if (wrong && options.examples && (shown.get(c.kind) ?? 0) < options.examples) {
        shown.set(c.kind, (shown.get(c.kind) ?? 0) + 1);
        (result.examples ??= []).push(example(c, hits));
      }
    }
    result.recall = ratio(result.found, result.pairs);
    result.fpRate = ratio(result.falsePositives, result.negatives);
    return result;
  });
  const labelled = classes.filter((c) => c.cls !== 'no_match');
  const sum = (f: (c: ClassResult) => number) => labelled.reduce((n, c) => n + f(c), 0);
  const pairs = sum((c) => c.pairs);
  const found = sum((c) => c.found);
  const negatives = sum((c) => c.negatives);
  const falsePositives = sum((c) => c.falsePositives);
  const noMatch = classes.find((c) => c.cls === 'no_match')!;
  return {
    split,
    seed: SEEDS[split],
    cases: sets.reduce((n, s) => n + s.cases.length, 0),
    classes,
    overall: { pairs, found, recall: ratio(found, pairs) ?? 0, negatives, falsePositives, fpRate: ratio(falsePositives, negatives) ?? 0 },
    noMatchHitRate: noMatch.fpRate ?? 0,
    seconds: Math.round((performance.now() - started) / 10) / 100,
  };
}

function example(c: LabelledCase, hits: ScreeningHit[]): NonNullable<ClassResult['examples']>[number] {
  return { kind: c.kind, subject: c.subject.names[0]! + (c.subject.birthDate ? ` (${c.subject.birthDate})` : ''), ...(c.listed ? { listed: c.listed } : {}), expected: c.shouldMatch, hits: describeHits(hits) };
}
