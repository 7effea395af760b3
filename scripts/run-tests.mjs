#!/usr/bin/env node
// Runs every test/**/*.test.ts with Node's test runner (Node 20 has no glob for --test) under tsx.
// Extra arguments narrow the run: `npm test -- credentials` runs files whose path contains "credentials".
// The admin console (web/admin) is built first when its build is missing or older than its sources: the server
// serves dist/admin-console and the browser tests load it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';

const CONSOLE_OUT = 'dist/admin-console';

function newestSource() {
  const files = ['package-lock.json', ...readdirSync('web/admin', { recursive: true }).map((f) => join('web/admin', String(f)))];
  return Math.max(...files.map((f) => statSync(f).mtimeMs));
}

/**
 * Builds into a fresh folder and swaps it in, so a test server starting meanwhile (another `npm test` in the
 * same tree) sees the old build or the new one, never a half-written one.
 */
async function buildConsole() {
  const index = join(CONSOLE_OUT, 'index.html');
  if (existsSync(index) && statSync(index).mtimeMs >= newestSource()) return;
  const { build } = await import('vite');
  const staging = resolve(`dist/.admin-console-${process.pid}`);
  await build({ configFile: 'web/admin/vite.config.ts', logLevel: 'warn', build: { outDir: staging, emptyOutDir: true } });
  rmSync(CONSOLE_OUT, { recursive: true, force: true });
  try {
    renameSync(staging, CONSOLE_OUT);
  } catch (err) {
    // Another run swapped its identical build in first: keep that one.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(index)) throw err;
  }
}

const SLOW_FIRST = [/^test\/process\//, /^test\/e2e\//, /operations-fuzz|openapi\.test|quorum|vaults\.test/];
const rank = (file) => {
  const i = SLOW_FIRST.findIndex((re) => re.test(file));
  return i === -1 ? SLOW_FIRST.length : i;
};

const filters = process.argv.slice(2);
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
await buildConsole();
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
    ...files,
  ],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
