#!/usr/bin/env node
// Runs every test/**/*.test.ts with Node's test runner (Node 20 has no glob for --test) under tsx.
// Extra arguments narrow the run: `npm test -- credentials` runs files whose path contains "credentials".
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const filters = process.argv.slice(2);
const files = readdirSync('test', { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => `test/${f}`)
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? String(Math.max(2, availableParallelism()));
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
