/**
 * `npm run bench:scale` (docs/scale.md): the API's reads and the retention purge at 10,000 to a million events, on
 * PostgreSQL only.
 *
 * On a fresh database of the server at BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test; dropped
 * at the end) it starts the built server (dist/src/main.js) as `npm run bench` does, makes the templates through
 * the API, then for each step: loads up to the step's events in SQL (bench/lib/scale-load.ts), VACUUM ANALYZE,
 * times every read (bench/lib/scale-reads.ts) with REQUESTS sequential requests, and runs one retention pass
 * beside a writer (bench/lib/scale-retention.ts). Prints one table, writes bench/results/scale-latest.json; exits
 * non-zero when a request failed (a p99 over the goal is reported, not fatal).
 *
 * Env: BENCH_SCALE_EVENTS (the largest step, default 1,000,000; every other table is proportional),
 * BENCH_SCALE_STEPS (comma-separated event counts, default 1 %, 10 % and 100 % of it), BENCH_SCALE_REQUESTS (per
 * read, default 200), BENCH_QUIET_WAIT (seconds to wait for other processes to go quiet before the reads, default 30).
 *
 * The server runs with APP_ENV=sandbox (the template subscription points at loopback), WEBHOOK_WORKER=0 (nothing
 * is delivered: the loaded history must stay as loaded) and EVENT_RETENTION_DAYS=3650 (its own maintenance round
 * must not purge the backlog the bench times).
 */
import pg from 'pg';
import { openDatabase, type Database } from '../src/db/database.js';
import { createOperator } from '../src/domain/operators/operators.js';
import { DEFAULT_POSTGRES_URL, postgresAnswers, startBackend, stopAllBackends, type Backend } from './lib/backend.js';
import { buildServer, stopAllChildren } from './lib/children.js';
import { waitForQuiet, watchCpu } from './lib/cpu.js';
import { runBench } from './lib/entry.js';
import { scaleSteps } from './lib/scale-config.js';
import { NOTHING_LOADED, countRows, loadStep, prepareScale, type Loaded } from './lib/scale-load.js';
import { measureRead, readSpecs, reviewCursor, type ReadFigures } from './lib/scale-reads.js';
import { printScaleTable, writeScaleReport, type StepResult } from './lib/scale-report.js';
import { retentionPass } from './lib/scale-retention.js';
import { createTemplates } from './lib/scale-templates.js';

const QUIET_WAIT_SECONDS = Number(process.env.BENCH_QUIET_WAIT ?? 30);
/** Whatever hangs, the run ends after this. */
const BUDGET_MS = 90 * 60_000;

const int = (n: number) => n.toLocaleString('en-US');

let cleanups: (() => Promise<unknown>)[] = [];
let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const step of cleanups.reverse()) await step().catch((err: Error) => console.error(`cleanup: ${err.message}`));
    cleanups = [];
    await stopAllBackends();
    await stopAllChildren();
  })();
  return cleaning;
}

/** The connection string of the bench's own database on the server at `adminUrl`. */
function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function runStep(backend: Backend, client: pg.Client, database: Database, context: { templates: Awaited<ReturnType<typeof createTemplates>>; operatorToken: string }, loaded: Loaded, events: number): Promise<{ result: StepResult; loaded: Loaded }> {
  const { templates, operatorToken } = context;
  console.error(`\n== ${int(events)} events: loading`);
  const load = await loadStep(client, templates, loaded, events);
  const rows = await countRows(client);
  console.error(`   loaded in ${Object.entries(load.seconds).map(([phase, s]) => `${phase} ${s.toFixed(1)} s`).join(', ')}; ${int(rows.events)} events`);

  const specs = await readSpecs(client, templates, await reviewCursor(backend.baseUrl, operatorToken));
  const own = { serverPid: backend.api.proc.pid!, pids: [backend.api.proc.pid!], database: backend.databaseName! };
  if (QUIET_WAIT_SECONDS > 0) await waitForQuiet(own, QUIET_WAIT_SECONDS);
  const cpu = watchCpu(own);
  const reads: Record<string, ReadFigures> = {};
  for (const spec of specs) {
    reads[spec.name] = await measureRead({ baseUrl: backend.baseUrl, key: backend.key, operatorToken }, spec);
    console.error(`   ${spec.name}: p50 ${reads[spec.name]!.p50Ms} ms, p99 ${reads[spec.name]!.p99Ms} ms`);
  }
  const { otherCpuPct } = cpu.stop();

  console.error('   retention pass');
  const retention = await retentionPass(database.db, client, backend, String(events));
  console.error(`   deleted ${int(retention.events)} events in ${retention.batches} batches (longest ${retention.longestBatchMs} ms), ${retention.seconds} s`);
  return { result: { events: rows.events, rows, loadSeconds: load.seconds, reads, ...(otherCpuPct !== undefined ? { otherCpuPct } : {}), retention }, loaded: load.loaded };
}

async function main(): Promise<number> {
  const adminUrl = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
  if (!(await postgresAnswers(adminUrl))) throw new Error(`no PostgreSQL server accepts connections at ${adminUrl.replace(/\/\/[^@/]*@/, '//…@')} (set BENCH_DATABASE_URL)`);
  const steps = scaleSteps();
  setTimeout(() => {
    console.error(`bench:scale: exceeded ${BUDGET_MS / 60_000} minutes; aborting`);
    void cleanup().finally(() => process.exit(1));
  }, BUDGET_MS).unref();

  await buildServer();
  const backend = await startBackend('postgres', adminUrl, { APP_ENV: 'sandbox', WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_WORKER: '0', EVENT_RETENTION_DAYS: '3650' });
  cleanups.push(() => backend.stop());
  const url = databaseUrl(adminUrl, backend.databaseName!);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  cleanups.push(() => client.end());
  const database = await openDatabase({ kind: 'postgres', url });
  cleanups.push(() => database.close());
  const server = (await client.query<{ v: string }>(`select current_setting('server_version') as v`)).rows[0]!.v;

  const templates = await createTemplates(backend, client);
  const { token: operatorToken } = await createOperator(database, 'scale bench', new Date());
  await prepareScale(client, templates);

  const results: StepResult[] = [];
  let loaded = NOTHING_LOADED;
  for (const events of steps) {
    const step = await runStep(backend, client, database, { templates, operatorToken }, loaded, events);
    results.push(step.result);
    loaded = step.loaded;
  }
  if (backend.api.tail()) console.error(`\n${backend.api.name} output (tail):\n${backend.api.tail()}`);
  printScaleTable(results, `PostgreSQL ${server}`);
  writeScaleReport(results, `PostgreSQL ${server}`);
  return 0;
}

await runBench('bench:scale', main, cleanup);
