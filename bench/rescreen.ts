/**
 * `npm run bench:rescreen` (docs/benchmarks.md#re-screening-through-the-database): the background re-screening of
 * every customer through the database, as the rescreen worker runs it (issue 36's goal: 100,000 customers against a
 * 20,000-entry list in at most 60 s on 2 cores). bench/screening.ts measures the engine alone; this measures the
 * loop of `rescreenBatch` (src/domain/cases/rescreen.ts) the worker runs, RESCREEN_BENCH_BATCH (200) customers per
 * transaction: the keyset read of the customers, the screening, the hits recorded (screening_hits, case activity) and
 * the cases opened on active customers (review_cases, activity, a review_case.opened event).
 *
 * Data: bench/screening.ts's generators, same seed: RESCREEN_BENCH_ENTRIES (20,000) entries in OFAC's shape, given to
 * ScreeningLists as one loaded list (no files), and RESCREEN_BENCH_CUSTOMERS (100,000) customers with ~3 % planted
 * from the list. Per database (BENCH_BACKENDS=pglite|postgres|both; PGlite in a fresh data dir on disk as the server
 * runs it, PostgreSQL a fresh database on BENCH_DATABASE_URL's server, postgres://postgres@127.0.0.1:5432/test by
 * default): one integrator, then the customers inserted with SQL, a few thousand rows a statement: the generated
 * people as `users` (user_info with firstName, lastName, birthDate, nationality, residentialAddress and the other
 * usual fields), the generated companies (about 10 %) as `entities`; every other customer `active`, the rest
 * `under_review`. Then, timed:
 *
 * - first: the loop until `done`, from no progress: every customer screened, every hit new (raised), a case opened
 *   for each active customer with a hit;
 * - steady: the progress row removed and the loop run again with the same lists: every customer screened again,
 *   nothing new raised or opened (what every later list version costs when its changes hit nobody).
 *
 * For each: wall time, customers/s, hits raised, cases opened, one batch's p50/p99/max, this process's CPU
 * (process.cpuUsage: the loop and, for PGlite, its database thread), and from /proc the PostgreSQL backends' CPU of
 * the bench database, the whole machine's and other processes'. Prints one table, writes
 * bench/results/rescreen-latest.json; exits 1 when a run misses 60 s or the counts disagree with the tables.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, selectRows, type Database } from '../src/db/database.js';
import { RemotePglite } from '../src/db/pglite-thread/remote.js';
import { rescreenBatch } from '../src/domain/cases/rescreen.js';
import { ScreeningLists } from '../src/domain/screening/lists.js';
import type { LoadedList } from '../src/domain/screening/load.js';
import { provisionDatabase } from '../test/harness/backends.js';
import { BACKEND_LABEL, requiredBackends, type BackendKind } from './lib/backend.js';
import { watchCpu, type CpuFigures } from './lib/cpu.js';
import { runBench } from './lib/entry.js';
import { positiveInt } from './lib/env.js';
import { seed } from './lib/rescreen-seed.js';
import { generate, type BenchCustomer } from './screening.js';

const ENTRIES = positiveInt('RESCREEN_BENCH_ENTRIES', 20_000);
const CUSTOMERS = positiveInt('RESCREEN_BENCH_CUSTOMERS', 100_000);
/** The worker's RESCREEN_BATCH. */
const BATCH = positiveInt('RESCREEN_BENCH_BATCH', 200);
const GOAL_SECONDS = 60;

interface Run {
  seconds: number;
  customersPerSecond: number;
  screened: number;
  raised: number;
  opened: number;
  batches: number;
  batchMs: { p50: number; p99: number; max: number };
  /** This process (the loop, and for PGlite its database thread), % of one core over the run. */
  processCpuPct: number;
  processCpuSeconds: number;
  postgresCpuPct?: number | undefined;
  machineCpuPct?: number | undefined;
  otherCpuPct?: number | undefined;
  otherBusiest?: string | undefined;
  /** Statements sent during the run, all and per customer screened, and by verb and table (count, total ms waited). */
  statements: number;
  statementsPerCustomer: number;
  statementsByKind: Record<string, { count: number; ms: number }>;
}

interface BackendResult {
  database: string;
  seedSeconds: number;
  users: number;
  entities: number;
  first: Run;
  steady: Run;
  /** Counted in the tables after the runs: they must agree with the loop's totals. */
  tables: { screeningHits: number; casesOpened: number; events: number };
}

/**
 * Statements sent to the database, by verb and table, counted at the drivers (pg's Client.query, with begin and
 * commit; the PGlite thread's query, its begin and commit being messages of their own): how many per customer, and
 * the wall time each kind waited for its answer (on a loaded machine that includes waiting for a core).
 */
const statements = new Map<string, { count: number; ms: number }>();
function statementKind(text: unknown): string {
  const q = typeof text === 'string' ? text : ((text as { text?: string } | undefined)?.text ?? '');
  const verb = /^\s*(\w+)/.exec(q)?.[1]?.toLowerCase() ?? '?';
  const table = /\b(?:from|into|update)\s+"?(\w+)"?/i.exec(q)?.[1];
  return table ? `${verb} ${table}` : verb;
}
for (const proto of [pg.Client.prototype, RemotePglite.prototype] as { query: (...args: unknown[]) => unknown }[]) {
  const query = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const kind = statementKind(args[0]);
    const counted = statements.get(kind) ?? { count: 0, ms: 0 };
    statements.set(kind, counted);
    counted.count++;
    const t0 = performance.now();
    const result = query.apply(this, args);
    if (result instanceof Promise) void result.then(() => (counted.ms += performance.now() - t0)).catch(() => {});
    return result;
  };
}

/** Under --cpu-prof: when each run starts and ends, on the profiles' clock (µs), to cut them by phase. */
const mark = (what: string) => {
  if (process.execArgv.some((a) => a.startsWith('--cpu-prof'))) console.error(`  mark ${what} ${process.hrtime.bigint() / 1000n}`);
};

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/** The worker's loop (startRescreenWorker's runAll), each batch timed. */
async function loop(database: Database, lists: ScreeningLists, databaseName: string | undefined): Promise<Run> {
  const times: number[] = [];
  const total = { screened: 0, raised: 0, opened: 0 };
  const cpu = watchCpu({ serverPid: process.pid, pids: [], ...(databaseName ? { database: databaseName } : {}) });
  const cpuBefore = process.cpuUsage();
  statements.clear();
  mark('loop start');
  const started = performance.now();
  for (;;) {
    const t0 = performance.now();
    const outcome = await rescreenBatch(database, lists, BATCH, new Date());
    times.push(performance.now() - t0);
    total.screened += outcome.screened;
    total.raised += outcome.raised;
    total.opened += outcome.opened;
    if (outcome.done) break;
    if (times.length % 50 === 0) process.stderr.write(`  ${total.screened} screened, ${round((performance.now() - started) / 1000, 1)} s\n`);
  }
  const seconds = (performance.now() - started) / 1000;
  mark('loop end');
  const used = process.cpuUsage(cpuBefore);
  const figures: CpuFigures = cpu.stop();
  const sorted = [...times].sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  const processCpuSeconds = (used.user + used.system) / 1e6;
  const statementCount = [...statements.values()].reduce((a, b) => a + b.count, 0);
  return {
    seconds: round(seconds),
    customersPerSecond: Math.round(total.screened / seconds),
    ...total,
    batches: times.length,
    batchMs: { p50: round(q(0.5), 1), p99: round(q(0.99), 1), max: round(sorted.at(-1)!, 1) },
    processCpuPct: Math.round((100 * processCpuSeconds) / seconds),
    processCpuSeconds: round(processCpuSeconds, 1),
    postgresCpuPct: figures.postgresCpuPct === undefined ? undefined : Math.round(figures.postgresCpuPct),
    machineCpuPct: figures.machineCpuPct === undefined ? undefined : Math.round(figures.machineCpuPct),
    otherCpuPct: figures.otherCpuPct === undefined ? undefined : Math.round(figures.otherCpuPct),
    otherBusiest: figures.otherBusiest,
    statements: statementCount,
    statementsPerCustomer: round(statementCount / Math.max(1, total.screened), 3),
    statementsByKind: Object.fromEntries([...statements].sort((a, b) => b[1].ms - a[1].ms).map(([k, v]) => [k, { count: v.count, ms: Math.round(v.ms) }])),
  };
}

const cleanups: (() => Promise<void>)[] = [];

async function runBackend(kind: BackendKind, postgresUrl: string, customers: BenchCustomer[], lists: ScreeningLists): Promise<BackendResult> {
  console.error(`\n== database: ${BACKEND_LABEL[kind]} ==`);
  let database: Database;
  let databaseName: string | undefined;
  let drop = async () => {};
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-rescreen-'));
    drop = async () => rmSync(dataDir, { recursive: true, force: true });
    database = await openDatabase({ kind: 'pglite', dataDir });
  } else {
    const provisioned = await provisionDatabase('postgres', postgresUrl);
    drop = provisioned.drop;
    if (provisioned.target.kind !== 'postgres') throw new Error('expected a PostgreSQL target');
    databaseName = new URL(provisioned.target.url).pathname.slice(1);
    database = await openDatabase(provisioned.target);
  }
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await database.close().catch(() => {});
    await drop().catch((err: Error) => console.error(`could not remove the bench database: ${err.message}`));
  };
  cleanups.push(close);
  try {
    const seedStart = performance.now();
    const seeded = await seed(database, customers);
    const seedSeconds = round((performance.now() - seedStart) / 1000, 1);
    console.error(`  seeded ${seeded.users} users and ${seeded.entities} entities in ${seedSeconds} s; first run`);
    const first = await loop(database, lists, databaseName);
    console.error(`  first run: ${first.seconds} s; steady run (same lists, progress reset)`);
    await database.db.execute(sql`delete from system_settings where name = 'screening_rescreen'`);
    const steady = await loop(database, lists, databaseName);
    const [counts] = await selectRows<{ hits: number; cases: number; events: number }>(
      database.db,
      sql`select (select count(*)::int from screening_hits) as hits, (select count(*)::int from review_cases where opened_at is not null) as cases,
        (select count(*)::int from events where type = 'review_case.opened') as events`,
    );
    return { database: BACKEND_LABEL[kind], seedSeconds, ...seeded, first, steady, tables: { screeningHits: counts!.hits, casesOpened: counts!.cases, events: counts!.events } };
  } finally {
    await close();
  }
}

function table(results: BackendResult[]): string {
  const head = ['database', 'run', 'wall s', 'customers/s', 'raised', 'opened', 'statements / customer', 'batch p50/p99/max ms', 'this process CPU', 'postgres CPU', 'machine CPU', 'others'];
  const rows = results.flatMap((r) =>
    (['first', 'steady'] as const).map((which) => {
      const x = r[which];
      const pct = (n: number | undefined) => (n === undefined ? '–' : `${n} %`);
      return [r.database, which, String(x.seconds), String(x.customersPerSecond), String(x.raised), String(x.opened), String(x.statementsPerCustomer), `${x.batchMs.p50} / ${x.batchMs.p99} / ${x.batchMs.max}`, `${pct(x.processCpuPct)} (${x.processCpuSeconds} s)`, pct(x.postgresCpuPct), pct(x.machineCpuPct), pct(x.otherCpuPct)];
    }),
  );
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

async function main(): Promise<number> {
  const { kinds, postgresUrl } = await requiredBackends();
  const genStart = performance.now();
  const { entries, customers } = generate(ENTRIES, CUSTOMERS);
  const generateSeconds = round((performance.now() - genStart) / 1000, 1);
  const loaded: LoadedList = { source: { label: 'BENCH-SDN', path: '(generated)', kind: 'folder' }, version: 'bench-1', format: 'ofac-sdn', files: [], entries };
  const buildStart = performance.now();
  const lists = new ScreeningLists([loaded.source], undefined, [loaded]);
  const indexBuildSeconds = round((performance.now() - buildStart) / 1000, 1);
  console.error(`generated ${entries.length} entries and ${customers.length} customers in ${generateSeconds} s; index built in ${indexBuildSeconds} s`);
  const loadBefore = loadavg().map((n) => round(n, 1));
  const results: BackendResult[] = [];
  for (const kind of kinds) results.push(await runBackend(kind, postgresUrl, customers, lists));
  const problems: string[] = [];
  for (const r of results) {
    for (const which of ['first', 'steady'] as const) {
      if (r[which].screened !== CUSTOMERS) problems.push(`${r.database} ${which}: ${r[which].screened} screened of ${CUSTOMERS}`);
      if (r[which].seconds > GOAL_SECONDS) problems.push(`${r.database} ${which}: ${r[which].seconds} s, goal ${GOAL_SECONDS} s`);
    }
    if (r.steady.raised !== 0 || r.steady.opened !== 0) problems.push(`${r.database} steady: ${r.steady.raised} raised, ${r.steady.opened} opened (expected none)`);
    if (r.tables.screeningHits !== r.first.raised || r.tables.casesOpened !== r.first.opened || r.tables.events !== r.first.opened) {
      problems.push(`${r.database}: the tables hold ${JSON.stringify(r.tables)}, the loop counted ${r.first.raised} raised and ${r.first.opened} opened`);
    }
  }
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: availableParallelism(),
    loadAverageBefore: loadBefore,
    loadAverageAfter: loadavg().map((n) => round(n, 1)),
    entries: ENTRIES,
    variants: entries.reduce((n, e) => n + 1 + e.aliases.length, 0),
    customers: CUSTOMERS,
    batch: BATCH,
    indexBuildSeconds,
    results,
    goal: { secondsMax: GOAL_SECONDS },
    problems,
  };
  const dir = join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'rescreen-latest.json'), JSON.stringify(result, null, 2) + '\n');
  console.log(
    `\nre-screening ${CUSTOMERS.toLocaleString('en')} customers against ${ENTRIES.toLocaleString('en')} entries (${result.variants.toLocaleString('en')} names and aliases), ${BATCH} a transaction; ` +
      `${result.cores} cores (${result.cpu}), Node ${process.version}, load average ${loadBefore.join(' ')} before, ${result.loadAverageAfter.join(' ')} after\n`,
  );
  console.log(table(results));
  console.log(problems.length === 0 ? `\ngoal met (≤ ${GOAL_SECONDS} s) on every database` : `\nPROBLEMS:\n- ${problems.join('\n- ')}`);
  return problems.length === 0 ? 0 : 1;
}

await runBench('bench:rescreen', main, async () => {
  for (const cleanup of cleanups) await cleanup();
});
