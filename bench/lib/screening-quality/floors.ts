/**
 * The CI guard's bounds on the screening-quality evaluation (test/bench/screening-quality.test.ts), in one place:
 * each split (dev and held) at `size` cases must find at least `recallMin` of a class's true pairs and hit at most
 * `fpMax` of its should-not-match cases. Set on 2026-12-02 a few points under what issue 52's matcher measured at this size
 * (docs/benchmarks.md#screening-quality): raise them as the matcher improves, never lower them to let a change
 * through without saying why in its commit.
 */
import type { QualityClass } from './cases.js';

export interface ClassBounds {
  /** Least share of true pairs found (absent: the class has none). */
  recallMin?: number;
  /** Greatest share of negatives hitting their paired entry (no_match: any entry). */
  fpMax?: number;
}

export const QUALITY_GUARD: { size: number; classes: Record<QualityClass, ClassBounds>; overall: Required<ClassBounds> } = {
  /** Cases a split (100 a class): about a second a split on one core. */
  size: 900,
  // Raised 2026-12-02 after issue 52's matcher (figures at this size, dev / held; before it in parentheses).
  classes: {
    // 100 / 100 % (93 / 87)
    typo: { recallMin: 0.95 },
    // 85 / 77 % (53 / 63): Thai script and German spellings of Russian names still missed most
    transliteration: { recallMin: 0.72 },
    // 97 / 98 % (59 / 57)
    cjk: { recallMin: 0.92 },
    // 100 / 100 %, 0 / 0 % of contradicting forms hit (48 / 54 %, 64 / 56 % hit)
    legal_form: { recallMin: 0.95, fpMax: 0.05 },
    // 91 / 94 % (61 / 65): Korean syllables written apart still missed
    variants: { recallMin: 0.86 },
    // 1 / 1 % hit (23 / 16)
    near_names: { fpMax: 0.06 },
    // 100 / 100 % (19 / 19); far dates 0 / 0 %
    dates: { recallMin: 0.95, fpMax: 0.04 },
    // 100 / 100 %, 0 / 0 % of other entries' names
    aliases: { recallMin: 0.96, fpMax: 0.04 },
    // 2 / 2 % of people on no list hit something (1 / 1)
    no_match: { fpMax: 0.06 },
  },
  // every labelled pair but no_match: recall 95.5 / 94.8 %, false positives 0.5 / 0.5 % (62.1 / 63.8, 21.9 / 17.0)
  overall: { recallMin: 0.91, fpMax: 0.04 },
};
