/**
 * npm run bench:screening-quality: a labelled evaluation of name screening, per class (issue 52; docs/benchmarks.md
 * #screening-quality). Each class's cases (a subject, the listed entry it is paired with, whether it should match) are
 * screened with ScreeningIndex against a list of the class's entries and distractors; a true pair is found when its
 * entry is among the hits, a false positive is a should-not-match subject hitting its paired entry (people on no list:
 * any hit). Two splits with disjoint name pools and their own seeds: dev (to look at while tuning, with examples of
 * misses) and held (the honest figure). SCREENING_QUALITY_SIZE cases a split (default 2,000, a few seconds). Writes
 * bench/results/screening-quality-latest.json. It only reports: the floors of bench/lib/screening-quality/floors.ts
 * are held by test/bench/screening-quality.test.ts at their own fixed size.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { evaluateSplit } from './lib/screening-quality/evaluate.js';
import { classTable, kindTable } from './lib/screening-quality/report.js';

const SIZE = Number(process.env.SCREENING_QUALITY_SIZE ?? 2000);
if (!Number.isInteger(SIZE) || SIZE < 9) throw new Error('SCREENING_QUALITY_SIZE: an integer of 9 or more (cases a split)');

const started = performance.now();
const dev = evaluateSplit('dev', SIZE, { examples: 3 });
const held = evaluateSplit('held', SIZE);
const seconds = Math.round((performance.now() - started) / 10) / 100;

console.log(`screening quality: ${dev.cases} dev and ${held.cases} held cases, threshold 0.88, ${seconds} s\n`);
console.log(classTable([dev, held]));
console.log(`\npeople on no list with any hit: dev ${(dev.noMatchHitRate * 100).toFixed(1)}%, held ${(held.noMatchHitRate * 100).toFixed(1)}%`);
console.log('\nby kind (dev):');
console.log(kindTable(dev));
console.log('\nby kind (held):');
console.log(kindTable(held));

const result = {
  date: new Date().toISOString().slice(0, 10),
  node: process.version,
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: availableParallelism(),
  size: SIZE,
  threshold: 0.88,
  seconds,
  splits: { dev, held },
};
const dir = join(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'screening-quality-latest.json'), JSON.stringify(result, null, 2) + '\n');
