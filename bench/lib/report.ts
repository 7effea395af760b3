/** The combined table (one block per database) and bench/results/latest.json. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { CreateExtras } from '../scenarios/create-individual-account.js';
import { BACKEND_LABEL, type BackendKind } from './backend.js';
import { ROOT } from './children.js';
import { cpuChecks, cpuVsBare, cpuVsBareAll, type BareEquivalentFigures, type EquivalentScenario } from './cpu-goals.js';
import { QUIET_PCT, splitOf, type CpuFigures } from './cpu.js';
import { DURATION_SECONDS, ROUNDS, ROUND_SECONDS, WARMUP_SECONDS, createRoundSeconds, type Measured } from './load.js';

const CREATE_INDIVIDUAL_LABEL = 'create-individual-account';

/** Rows in table order. */
export const SCENARIOS = ['whoami', 'get-associated-person-details', 'create-individual-account', 'bare'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

/** Issue 20's goals (docs/benchmarks.md#goals). */
export const GOALS = {
  /** whoami vs the bare signature-verifying server, per database. */
  whoami: { minRatioVsBare: 0.85, maxP99Ms: 25 },
  /**
   * The server's RSS (every process it runs), per database: idle, the peak under the whoami load (person details
   * alternate with it) and under account creation. Issue 55's, on Node 24 (issue 20's were 200 and 250 on PGlite).
   */
  rss: { pglite: { maxIdleMb: 350, maxUnderLoadMb: 450, maxCreationMb: 600 }, postgres: { maxIdleMb: 250 } } as Record<BackendKind, { maxIdleMb?: number; maxUnderLoadMb?: number; maxCreationMb?: number }>,
  /** get-associated-person-details >= this x the same run's whoami req/s. */
  personDetailsVsWhoami: { pglite: 0.4, postgres: 0.6 } as Record<BackendKind, number>,
  /** create-individual-account with its 1 MiB document, on PostgreSQL. */
  uploadsOnPostgres: { minBodyMBps: 60, maxP99Ms: 300, maxRssMb: 400 },
};

/** What every run measures, plus what only create-individual-account measures, and the bare equivalent's CPU. */
export type ScenarioResult = Measured & Partial<CreateExtras> & BareEquivalentFigures;

export interface BackendRun {
  backend: BackendKind;
  idleRssMb: number | undefined;
  /** Each scenario's row: its alternating rounds combined (combineRounds). */
  scenarios: Partial<Record<ScenarioName, ScenarioResult>>;
  /** The compared scenarios' figures of each alternating round (bare, whoami, person details, with bare equivalents). */
  rounds?: Partial<Record<ScenarioName, ScenarioResult>>[];
  /** create-individual-account's rounds, alternating with its bare equivalent. */
  createRounds?: Partial<Record<ScenarioName, ScenarioResult>>[];
}

/** The middle value (the mean of the two middle ones for an even count). */
export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** A ratio over alternating rounds: the median of the per-round ratios, and their spread. */
export interface RoundRatio {
  median: number;
  min: number;
  max: number;
  values: number[];
}

function roundRatio(run: BackendRun, top: ScenarioName, bottom: ScenarioName): RoundRatio | undefined {
  const values = (run.rounds ?? []).flatMap((r) => (r[top] && r[bottom] && r[bottom].reqPerSec > 0 ? [r[top].reqPerSec / r[bottom].reqPerSec] : []));
  return values.length === 0 ? undefined : { median: median(values), min: Math.min(...values), max: Math.max(...values), values };
}

/** Rounds' CPU figures, each averaged over the rounds that have it; the first busiest other process named. */
export function meanCpuFigures(rounds: CpuFigures[]): CpuFigures {
  const mean = (name: Exclude<keyof CpuFigures, 'otherBusiest'>) => {
    const values = rounds.map((m) => m[name]).filter((v): v is number => v !== undefined);
    return values.length === 0 ? {} : { [name]: values.reduce((a, b) => a + b, 0) / values.length };
  };
  const busiest = rounds.find((m) => m.otherBusiest)?.otherBusiest;
  return { ...mean('serverCpuPct'), ...mean('loadGeneratorCpuPct'), ...mean('postgresCpuPct'), ...mean('otherCpuPct'), ...mean('groupCpuPct'), ...(busiest ? { otherBusiest: busiest } : {}) };
}

/**
 * A compared scenario's row from its rounds: req/s and latencies are the medians of the rounds', counts are summed,
 * CPU figures averaged, RSS the peak.
 */
export function combineRounds(rounds: ScenarioResult[], maxRssMb: number | undefined): ScenarioResult {
  const mid = (pick: (m: ScenarioResult) => number | undefined) => {
    const values = rounds.map(pick).filter((v): v is number => v !== undefined);
    return values.length === 0 ? undefined : median(values);
  };
  const sum = (pick: (m: ScenarioResult) => number) => rounds.reduce((a, m) => a + pick(m), 0);
  const statusCodes: Record<string, number> = {};
  for (const m of rounds) for (const [code, n] of Object.entries(m.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  const optional = (name: keyof ScenarioResult, value: number | undefined) => (value === undefined ? {} : { [name]: value });
  return {
    connections: rounds[0]!.connections,
    reqPerSec: mid((m) => m.reqPerSec)!,
    latencyP50Ms: mid((m) => m.latencyP50Ms)!,
    latencyP99Ms: mid((m) => m.latencyP99Ms)!,
    requests: sum((m) => m.requests),
    non2xx: sum((m) => m.non2xx),
    errors: sum((m) => m.errors),
    timeouts: sum((m) => m.timeouts),
    statusCodes,
    ...meanCpuFigures(rounds),
    ...optional('cpuMsPerRequest', mid((m) => m.cpuMsPerRequest)),
    ...optional('bareEquivalentCpuMsPerRequest', mid((m) => m.bareEquivalentCpuMsPerRequest)),
    ...(rounds.every((m) => m.cpuMsPerRequestByThread) ? { cpuMsPerRequestByThread: splitOf((part) => mid((m) => m.cpuMsPerRequestByThread![part])!) } : {}),
    ...optional('maxRssMb', maxRssMb),
    ...(rounds.every((m) => m.bareEquivalent) ? { bareEquivalent: combineRounds(rounds.map((m) => m.bareEquivalent!), undefined) } : {}),
  } as ScenarioResult;
}

/** One goal checked against a run: printed in the goals table and kept in the report (bench, bench:webhooks). */
export interface GoalCheck {
  backend: BackendKind;
  what: string;
  value: number | undefined;
  goal: string;
  pass: boolean | undefined;
  note?: string;
}

const ratio = (a: Measured | undefined, b: Measured | undefined) => (a && b && b.reqPerSec > 0 ? a.reqPerSec / b.reqPerSec : undefined);

/**
 * The ratios the goals name. Between compared scenarios: the median of the per-round ratios (spread in
 * `roundRatiosOf`); create-individual-account runs on its own, so against the combined whoami row.
 */
export function ratiosOf(run: BackendRun) {
  const s = run.scenarios;
  return {
    whoamiVsBare: roundRatio(run, 'whoami', 'bare')?.median ?? ratio(s.whoami, s.bare),
    personDetailsVsWhoami: roundRatio(run, 'get-associated-person-details', 'whoami')?.median ?? ratio(s['get-associated-person-details'], s.whoami),
    createIndividualVsWhoami: ratio(s['create-individual-account'], s.whoami),
  };
}

export function roundRatiosOf(run: BackendRun) {
  return {
    whoamiVsBare: roundRatio(run, 'whoami', 'bare'),
    personDetailsVsWhoami: roundRatio(run, 'get-associated-person-details', 'whoami'),
  };
}

const spread = (r: RoundRatio | undefined) => (r ? `median of ${r.values.length} rounds, ${r.min.toFixed(2)}-${r.max.toFixed(2)}` : undefined);

const optionalNote = (note: string | undefined) => (note ? { note } : {});

function checksOf(run: BackendRun): GoalCheck[] {
  const r = ratiosOf(run);
  const whoami = run.scenarios.whoami;
  const g = GOALS.whoami;
  const checks: GoalCheck[] = [];
  const at = (value: number | undefined, test: (v: number) => boolean) => (value === undefined ? undefined : test(value));
  if (whoami) {
    checks.push(
      {
        backend: run.backend,
        what: 'whoami / bare req/s',
        value: r.whoamiVsBare,
        goal: `>= ${g.minRatioVsBare}`,
        pass: at(r.whoamiVsBare, (v) => v >= g.minRatioVsBare),
        ...optionalNote(spread(roundRatiosOf(run).whoamiVsBare)),
      },
      { backend: run.backend, what: 'whoami p99 ms', value: whoami.latencyP99Ms, goal: `<= ${g.maxP99Ms}`, pass: whoami.latencyP99Ms <= g.maxP99Ms },
    );
  }
  const rss = GOALS.rss[run.backend];
  if (rss.maxIdleMb !== undefined) {
    checks.push({ backend: run.backend, what: 'server RSS MB, idle', value: run.idleRssMb, goal: `<= ${rss.maxIdleMb}`, pass: at(run.idleRssMb, (v) => v <= rss.maxIdleMb!) });
  }
  if (whoami && rss.maxUnderLoadMb !== undefined) {
    checks.push({ backend: run.backend, what: 'server RSS MB, whoami load', value: whoami.maxRssMb, goal: `<= ${rss.maxUnderLoadMb}`, pass: at(whoami.maxRssMb, (v) => v <= rss.maxUnderLoadMb!) });
  }
  const creation = run.scenarios['create-individual-account'];
  if (creation && rss.maxCreationMb !== undefined) {
    checks.push({ backend: run.backend, what: 'server RSS MB, account creation', value: creation.maxRssMb, goal: `<= ${rss.maxCreationMb}`, pass: at(creation.maxRssMb, (v) => v <= rss.maxCreationMb!) });
  }
  if (run.scenarios['get-associated-person-details'] && whoami) {
    const min = GOALS.personDetailsVsWhoami[run.backend];
    checks.push({
      backend: run.backend,
      what: 'get-associated-person-details / whoami req/s',
      value: r.personDetailsVsWhoami,
      goal: `>= ${min}`,
      pass: at(r.personDetailsVsWhoami, (v) => v >= min),
      ...optionalNote(spread(roundRatiosOf(run).personDetailsVsWhoami)),
    });
  }
  const upload = run.scenarios['create-individual-account'];
  if (run.backend === 'postgres' && upload) {
    const u = GOALS.uploadsOnPostgres;
    checks.push(
      { backend: run.backend, what: 'create-individual-account body MB/s', value: upload.requestBodyMBps, goal: `>= ${u.minBodyMBps}`, pass: at(upload.requestBodyMBps, (v) => v >= u.minBodyMBps) },
      { backend: run.backend, what: 'create-individual-account p99 ms', value: upload.latencyP99Ms, goal: `<= ${u.maxP99Ms}`, pass: upload.latencyP99Ms <= u.maxP99Ms },
      { backend: run.backend, what: 'create-individual-account max RSS MB', value: upload.maxRssMb, goal: `<= ${u.maxRssMb}`, pass: at(upload.maxRssMb, (v) => v <= u.maxRssMb) },
    );
  }
  return [...checks, ...cpuChecks(run.backend, allRounds(run))];
}

/** Every alternating round of a run, the GETs' and create-individual-account's. */
const allRounds = (run: BackendRun) => [...(run.rounds ?? []), ...(run.createRounds ?? [])];

const fixed = (v: number | undefined, digits: number) => (v === undefined ? '-' : v.toFixed(digits));
/** Two decimals, or two significant digits for small ratios (create-individual-account is ~1/100 of whoami). */
const ratioText = (v: number | undefined) => (v === undefined ? '-' : v >= 0.1 ? v.toFixed(2) : v.toPrecision(2));
const mark = (pass: boolean | undefined) => (pass === undefined ? 'n/a' : pass ? 'PASS' : 'MISS');

interface Row {
  database: string;
  scenario: ScenarioName;
  m: ScenarioResult;
  vsWhoami: number | undefined;
  cpuVsBare: number | undefined;
}

/** Table columns: title, width (negative: left-aligned), cell. */
const COLUMNS: [string, number, (r: Row) => string][] = [
  ['database', -11, (r) => r.database],
  ['scenario', -30, (r) => r.scenario],
  ['conns', 5, (r) => String(r.m.connections)],
  ['req/s', 7, (r) => r.m.reqPerSec.toFixed(r.m.reqPerSec < 100 ? 1 : 0)],
  ['p50 ms', 7, (r) => String(r.m.latencyP50Ms)],
  ['p99 ms', 7, (r) => String(r.m.latencyP99Ms)],
  ['vs whoami', 9, (r) => ratioText(r.vsWhoami)],
  ['max RSS MB', 10, (r) => fixed(r.m.maxRssMb, 1)],
  ['srv CPU%', 8, (r) => fixed(r.m.serverCpuPct, 0)],
  ['CPU ms/req', 10, (r) => fixed(r.m.cpuMsPerRequest, 3)],
  ['bare ms/req', 11, (r) => fixed(r.m.bareEquivalentCpuMsPerRequest, 3)],
  ['CPU/bare', 8, (r) => fixed(r.cpuVsBare, 2)],
  ['pg CPU%', 7, (r) => fixed(r.m.postgresCpuPct, 0)],
  ['body MB/s', 9, (r) => fixed(r.m.requestBodyMBps, 1)],
  ['non-2xx', 7, (r) => String(r.m.non2xx + r.m.errors + r.m.timeouts)],
];

const line = (cells: string[]) => cells.map((c, i) => (COLUMNS[i]![1] < 0 ? c.padEnd(-COLUMNS[i]![1]) : c.padStart(COLUMNS[i]![1]))).join(' ');

function rowsOf(run: BackendRun): Row[] {
  const r = ratiosOf(run);
  const vsWhoami: Partial<Record<ScenarioName, number>> = {
    'get-associated-person-details': r.personDetailsVsWhoami,
    'create-individual-account': r.createIndividualVsWhoami,
  };
  return SCENARIOS.flatMap((scenario) => {
    const m = run.scenarios[scenario];
    const cpuVsBareEquivalent = scenario === 'bare' ? undefined : cpuVsBare(allRounds(run), scenario as EquivalentScenario)?.median;
    return m ? [{ database: BACKEND_LABEL[run.backend], scenario, m, vsWhoami: vsWhoami[scenario], cpuVsBare: cpuVsBareEquivalent }] : [];
  });
}

export function printTable(runs: BackendRun[], notes: string[]): void {
  const rows = runs.flatMap(rowsOf);
  const lines = [
    '',
    `bare, whoami, person details and their bare equivalents: ${WARMUP_SECONDS} s warm-up each, then ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s; ${CREATE_INDIVIDUAL_LABEL} and its bare equivalent: ${ROUNDS} alternating rounds of ${createRoundSeconds()} s (BENCH_DURATION ${DURATION_SECONDS} s in all); rows: medians of the rounds; ratios: median of the per-round ratios; ${availableParallelism()} CPUs, node ${process.version}; load generator on the same machine`,
    'bare ms/req: the bare equivalent\'s CPU ms per request (bench/bare-equivalent-server.ts); CPU/bare: CPU ms/req over it',
    line(COLUMNS.map(([title]) => title)),
    ...rows.map((r) => line(COLUMNS.map(([, , cell]) => cell(r)))),
  ];
  for (const { database, scenario, m } of rows) {
    if ((m.otherCpuPct ?? 0) > QUIET_PCT) {
      lines.push(`warning: during ${database} ${scenario}, processes outside the bench used ${m.otherCpuPct!.toFixed(0)}% CPU (busiest: ${m.otherBusiest}): figures skewed`);
    }
  }
  lines.push('', 'goals');
  for (const c of runs.flatMap(checksOf)) {
    const value = c.value === undefined ? 'n/a' : Number.isInteger(c.value) ? String(c.value) : c.value.toFixed(c.what.includes('RSS') ? 1 : 2);
    lines.push(`${BACKEND_LABEL[c.backend].padEnd(11)} ${c.what.padEnd(45)} ${value.padStart(7)}   goal ${c.goal.padEnd(7)} ${mark(c.pass)}${c.note ? `  (${c.note})` : ''}`);
  }
  if (!runs.some((r) => r.backend === 'postgres')) {
    lines.push(`${'PostgreSQL'.padEnd(11)} ${'get-associated-person-details / whoami req/s'.padEnd(45)} ${'n/a'.padStart(7)}   not run (no PostgreSQL in this run)`);
  }
  lines.push(...notes);
  console.log(lines.join('\n'));
}

export function writeReport(runs: BackendRun[], all2xx: boolean, settings: Record<string, unknown>): void {
  const report = {
    at: new Date().toISOString(),
    node: process.version,
    cpus: availableParallelism(),
    warmupSeconds: WARMUP_SECONDS,
    durationSeconds: DURATION_SECONDS,
    ...settings,
    goals: GOALS,
    roundSeconds: ROUND_SECONDS,
    rounds: ROUNDS,
    runs: runs.map((run) => ({
      ...run,
      ratios: ratiosOf(run),
      ratioRounds: roundRatiosOf(run),
      cpuVsBareEquivalent: cpuVsBareAll(allRounds(run)),
      checks: checksOf(run).map(({ backend: _b, ...c }) => c),
    })),
    all2xx,
  };
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/results/latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.error('wrote bench/results/latest.json');
}
