import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CLASSES } from '../../bench/lib/screening-quality/cases.js';
import { evaluateSplit, generateSplit } from '../../bench/lib/screening-quality/evaluate.js';
import { QUALITY_GUARD } from '../../bench/lib/screening-quality/floors.js';
import { nameWords, splitPools } from '../../bench/lib/screening-quality/splits.js';

/**
 * The screening-quality evaluation (npm run bench:screening-quality, docs/benchmarks.md#screening-quality) as a
 * regression guard: at a fixed size, every class of both splits within the bounds of floors.ts.
 */
describe('screening quality: the labelled set', () => {
  it('dev and held share no name word, and each split is the same every run', () => {
    const { dev, held } = splitPools();
    const devWords = nameWords(dev);
    const shared = [...nameWords(held)].filter((w) => devWords.has(w));
    assert.deepEqual(shared, []);
    const names = (split: 'dev' | 'held') => generateSplit(split, 180).sets.flatMap((s) => s.cases.map((c) => `${c.kind} ${c.subject.names[0]} ${c.entryNumber ?? ''}`));
    assert.deepEqual(names('dev'), names('dev'));
    assert.notDeepEqual(names('dev'), names('held'));
  });

  it('every class has cases in both splits, true pairs or negatives as it should', () => {
    for (const split of ['dev', 'held'] as const) {
      const { sets } = generateSplit(split, QUALITY_GUARD.size);
      assert.deepEqual(
        sets.map((s) => s.cls),
        [...CLASSES],
      );
      for (const set of sets) {
        const bounds = QUALITY_GUARD.classes[set.cls];
        assert.ok(set.cases.length >= QUALITY_GUARD.size / CLASSES.length - 1, `${split} ${set.cls}: ${set.cases.length} cases`);
        if (bounds.recallMin !== undefined) assert.ok(set.cases.some((c) => c.shouldMatch), `${split} ${set.cls} has true pairs`);
        if (bounds.fpMax !== undefined) assert.ok(set.cases.some((c) => !c.shouldMatch), `${split} ${set.cls} has negatives`);
      }
    }
  });
});

describe('screening quality: the guard (floors.ts)', () => {
  for (const split of ['dev', 'held'] as const) {
    it(`${split}: each class's recall at least its floor, its false positives at most its ceiling`, () => {
      const result = evaluateSplit(split, QUALITY_GUARD.size);
      const failures: string[] = [];
      for (const c of result.classes) {
        const { recallMin, fpMax } = QUALITY_GUARD.classes[c.cls];
        if (recallMin !== undefined && (c.recall ?? 0) < recallMin) failures.push(`${c.cls}: recall ${c.recall} < ${recallMin} (${c.found}/${c.pairs})`);
        if (fpMax !== undefined && (c.fpRate ?? 0) > fpMax) failures.push(`${c.cls}: false positives ${c.fpRate} > ${fpMax} (${c.falsePositives}/${c.negatives})`);
      }
      if (result.overall.recall < QUALITY_GUARD.overall.recallMin) failures.push(`overall recall ${result.overall.recall} < ${QUALITY_GUARD.overall.recallMin}`);
      if (result.overall.fpRate > QUALITY_GUARD.overall.fpMax) failures.push(`overall false positives ${result.overall.fpRate} > ${QUALITY_GUARD.overall.fpMax}`);
      assert.deepEqual(failures, [], `${split} split under the floors of bench/lib/screening-quality/floors.ts`);
    });
  }
});
