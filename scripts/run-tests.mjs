#!/usr/bin/env node
// Runs every test/**/*.test.ts with Node's test runner (Node 20 has no glob for --test) under tsx.
// Extra arguments narrow the run: `npm test -- credentials` runs files whose path contains "credentials"; an argument
// starting with `--` goes to Node's test runner (`npm test -- webhooks --test-name-pattern=rotation`: one test).
// dist/ is built first when a source changed (scripts/build-if-stale.mjs): the server serves dist/admin-console,
// which the browser tests load, and the process tests spawn the compiled server, worker and admin CLI, which start
// a second faster than under tsx (INTEGRATOR_TEST_DIST; test/harness/process.ts).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { buildIfStale } from './build-if-stale.mjs';

const SLOW_FIRST = [/^test\/process\//, /^test\/e2e\//, /operations-fuzz|openapi\.test|quorum|vaults\.test/];
const rank = (file) => {
  const i = SLOW_FIRST.findIndex((re) => re.test(file));
  return i === -1 ? SLOW_FIRST.length : i;
};

const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const runnerOptions = process.argv.slice(2).filter((a) => a.startsWith('--'));
const files = readdirSync('test', { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => `test/${f}`)
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort()
  // The longest files start first (process and browser suites, the fuzz campaign, the OpenAPI sweep), so no long
  // file starts last and leaves the other workers idle at the end of the run.
  .sort((a, b) => rank(a) - rank(b));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// A tree that does not compile still runs its tests under tsx (the process tests too); CI type-checks first.
const built = await buildIfStale({ quiet: true });
if (!built) console.error('build failed: the process tests run from source under tsx');
// One more file than cores: most files spend much of their time waiting on a child process, a browser or a chain
// node, and the extra worker fills that time (measured on 2 cores: 952 s at 2, about 700 s at 3).
const concurrency = process.env.TEST_CONCURRENCY ?? String(Math.max(3, availableParallelism() + 1));
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/slowest-files-reporter.mjs',
    '--test-reporter-destination=stdout',
    ...runnerOptions,
    ...files,
  ],
  { stdio: 'inherit', env: { ...process.env, ...(built ? { INTEGRATOR_TEST_DIST: '1' } : {}) } },
);
process.exit(result.status ?? 1);
