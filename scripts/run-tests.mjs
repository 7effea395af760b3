#!/usr/bin/env node
// Runs every test/**/*.test.ts with Node's test runner (Node 20 has no glob for --test), compiled.
// Extra arguments narrow the run: `npm test -- credentials` runs files whose path contains "credentials"; an argument
// starting with `--` goes to Node's test runner (`npm test -- webhooks --test-name-pattern=rotation`: one test).
// dist/ is built first when a source changed (scripts/build-if-stale.mjs): the server serves dist/admin-console,
// which the browser tests load, and the process tests spawn the compiled server, worker and admin CLI, which start
// a second faster than under tsx (INTEGRATOR_TEST_DIST; test/harness/process.ts). The tests themselves are compiled
// into dist/test (scripts/build-tests.mjs) and run as JavaScript against dist/src: under tsx each test process spent
// about a sixth of its CPU in tsx's hooks. INTEGRATOR_TEST_SOURCE=1, or a tree tsc cannot build, runs them from source.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';
import { buildTests } from './build-tests.mjs';

const SLOW_FIRST = [/^test\/process\//, /^test\/e2e\//, /operations-fuzz|openapi\.test|quorum|vaults\.test/];
const rank = (file) => {
  const i = SLOW_FIRST.findIndex((re) => re.test(file));
  return i === -1 ? SLOW_FIRST.length : i;
};

const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const runnerOptions = process.argv.slice(2).filter((a) => a.startsWith('--'));
// A run narrowed to some tests by name prints only the tests that ran (scripts/ran-only-reporter.mjs).
const byName = runnerOptions.some((a) => /^--test-(name-pattern|skip-pattern|only)\b/.test(a));
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
// Test files share a process, a few to a process: each process pays Node's start, the server's import and the first
// compile of its schemas once for its files instead of once per file (about 7 s of CPU each under tsx, which was most
// of the suite's time). The files of one process run one after the other, each with its own suites. Files under
// test/process/ run alone: they are long and mostly wait on the processes they spawn, so grouping them would only
// queue them. INTEGRATOR_TEST_ISOLATION=process runs every file alone, as `node --test` does.
// Twenty-four rather than twelve (2026-11-29, whole PGlite runs, 2 cores, within two hours): 327 and 364 s (558 and
// 628 s of CPU) against 434 s (746 s) at twelve for the same tree and 455 s (751 s) for the one before; 48 took
// 356 s (605 s), no better.
// Each process pays about 4.4 s of CPU for its first server. (A run the day before, on a slower machine, had shown
// no difference between 12 and 24: 695 s both.) Twelve had beaten eight: 595 and 614 s against 636 s.
const GROUP_SIZE = Number(process.env.INTEGRATOR_TEST_GROUP_SIZE ?? 24);
const alone = (file) => process.env.INTEGRATOR_TEST_ISOLATION === 'process' || /^test\/process\//.test(file);
const single = files.filter(alone).map((file) => [file]);
const rest = files.filter((file) => !alone(file));
const shared = [];
for (let i = 0; i < rest.length; i += GROUP_SIZE) shared.push(rest.slice(i, i + GROUP_SIZE));
// Alternately one of each: the process tests mostly wait, the groups mostly compute, so the workers keep both cores busy.
const groups = [];
for (let i = 0; i < Math.max(single.length, shared.length); i++) groups.push(...[single[i], shared[i]].filter((g) => g !== undefined));
// A tree that does not compile still runs its tests under tsx (the process tests too); CI type-checks first.
const built = await buildIfStale({ quiet: true });
if (!built) console.error('build failed: the tests run from source under tsx');
const compiled = built && process.env.INTEGRATOR_TEST_SOURCE !== '1';
if (compiled) await buildTests();
/** What the runner loads for a test file: its compiled copy, or the file itself under tsx. */
const target = (file) => (compiled ? join('dist', file.replace(/\.ts$/, '.js')) : file);
// Each process's entry file is written under a numbered name: `node --test` sorts the files it is given, and only
// these names keep the order above (the longest first). One named file runs as itself.
const groupDir = join(tmpdir(), 'integrator-api-tests', `groups-${process.pid}`);
mkdirSync(groupDir, { recursive: true });
// Where the slowest-files reporter lists failed tests, for telling a crashed process from a failed test (onlyCrashes).
const failuresFile = join(groupDir, 'failures.jsonl');
const entries =
  files.length === 1
    ? files.map(target)
    : groups.map((members, i) => {
        const first = members[0].replace(/^test\//, '').replace(/\.test\.ts$/, '').replaceAll('/', '-');
        const more = members.length > 1 ? `-and-${members.length - 1}-more` : '';
        const entry = join(groupDir, `${String(i).padStart(3, '0')}-${first}${more}.test.mjs`);
        // The spec reporter's failures name each test's own file and line, not this one.
        writeFileSync(entry, members.map((f) => `import ${JSON.stringify(pathToFileURL(resolve(target(f))).href)};\n`).join(''));
        return entry;
      });

// Every Node process of the run (test processes, the servers, workers and CLIs they start) resolves relative imports
// inside packages through this hook: about a second of CPU less per process (the hook says why).
const hook = pathToFileURL(resolve('scripts/relative-imports-hook.mjs')).href;
const nodeOptions = [process.env.NODE_OPTIONS, `--import=${hook}`].filter(Boolean).join(' ');

// One more file than cores: most files spend much of their time waiting on a child process, a browser or a chain
// node, and the extra worker fills that time (measured on 2 cores: 952 s at 2, about 700 s at 3).
const concurrency = process.env.TEST_CONCURRENCY ?? String(Math.max(3, availableParallelism() + 1));
const run = (paths) => {
  rmSync(failuresFile, { force: true });
  return spawnSync(
    process.execPath,
    [
      // Compiled tests need no loader, except on a Node without type stripping (20) for the two that import
      // web/admin's TypeScript directly. Source maps point a failure's stack at the .ts line.
      ...(compiled ? [...(process.features.typescript ? [] : ['--import', 'tsx']), '--enable-source-maps'] : ['--import', 'tsx']),
      '--test',
      `--test-concurrency=${concurrency}`,
      byName ? '--test-reporter=./scripts/ran-only-reporter.mjs' : '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=./scripts/slowest-files-reporter.mjs',
      '--test-reporter-destination=stdout',
      ...runnerOptions,
      ...paths,
    ],
    { stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: nodeOptions, INTEGRATOR_TEST_FAILURES: failuresFile, ...(built ? { INTEGRATOR_TEST_DIST: '1' } : {}) } },
  ).status ?? 1;
};

let status = run(entries);
const crashed = status === 0 ? [] : onlyCrashes(entries);
if (crashed.length > 0) {
  // Not a failed test but a process killed by a native crash: Node 24's V8 now and then aborts a process that opens
  // and closes many PGlite engines (nodejs/node#64500, `Check failed: jit_page...`; docs/architecture.md#tests). Its
  // files run once more, loudly, and decide the result. A second crash, or any failed test anywhere, fails the run.
  console.error(`\n${crashed.length} test process(es) died of a native crash, not of a failed test; running them once more:\n${crashed.map((e) => `  ${e}${files.length > 1 ? `: ${groups[entries.indexOf(e)].join(', ')}` : ''}`).join('\n')}\n`);
  status = run(crashed);
}
rmSync(groupDir, { recursive: true, force: true });
process.exit(status);

/**
 * The entries whose process a signal of a native crash ended, when nothing else failed: every failed test belongs
 * to one of them (a test of a group is reported under its own file, which maps to its group's entry).
 */
function onlyCrashes(paths) {
  const NATIVE_CRASH = new Set(['SIGABRT', 'SIGTRAP', 'SIGILL', 'SIGSEGV', 'SIGBUS']);
  let failed;
  try {
    failed = readFileSync(failuresFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
  } catch {
    return [];
  }
  const entryOf = new Map();
  paths.forEach((entry, i) => {
    entryOf.set(resolve(entry), entry);
    // Failures name a test's source file (source maps), or its compiled copy where none maps it.
    if (files.length > 1) for (const member of groups[i]) for (const file of [member, target(member)]) entryOf.set(resolve(file), entry);
  });
  const crashedEntries = new Set(failed.filter((f) => NATIVE_CRASH.has(f.signal) && entryOf.has(f.file)).map((f) => entryOf.get(f.file)));
  const explained = failed.every((f) => crashedEntries.has(entryOf.get(f.file)));
  return explained ? [...crashedEntries] : [];
}
