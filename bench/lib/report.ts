/** The combined table (one block per database) and bench/results/latest.json. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { CreateExtras } from '../scenarios/create-individual-account.js';
import { BACKEND_LABEL, type BackendKind } from './backend.js';
import { ROOT } from './children.js';
import { QUIET_PCT } from './cpu.js';
import { DURATION_SECONDS, WARMUP_SECONDS, type Measured } from './load.js';

/** Rows in table order. */
export const SCENARIOS = ['whoami', 'get-associated-person-details', 'create-individual-account', 'bare'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export const GOALS = {
  /** whoami vs the bare signature-verifying server, per database. */
  whoami: { minRatioVsBare: 0.75, maxP99Ms: 25, maxRssMb: 200 },
  /** From the issue: get-associated-person-details on PostgreSQL >= 0.6 x the same run's whoami req/s. */
  personDetailsOnPostgres: { minRatioVsWhoami: 0.6 },
};

/** What every run measures, plus what only create-individual-account measures. */
export type ScenarioResult = Measured & Partial<CreateExtras>;

export interface BackendRun {
  backend: BackendKind;
  idleRssMb: number | undefined;
  scenarios: Partial<Record<ScenarioName, ScenarioResult>>;
}

interface Check {
  backend: BackendKind;
  what: string;
  value: number | undefined;
  goal: string;
  pass: boolean | undefined;
  note?: string;
}

const ratio = (a: Measured | undefined, b: Measured | undefined) => (a && b && b.reqPerSec > 0 ? a.reqPerSec / b.reqPerSec : undefined);

export function ratiosOf(run: BackendRun) {
  const s = run.scenarios;
  return {
    whoamiVsBare: ratio(s.whoami, s.bare),
    personDetailsVsWhoami: ratio(s['get-associated-person-details'], s.whoami),
    createIndividualVsWhoami: ratio(s['create-individual-account'], s.whoami),
  };
}

function checksOf(run: BackendRun): Check[] {
  const r = ratiosOf(run);
  const whoami = run.scenarios.whoami;
  const g = GOALS.whoami;
  const checks: Check[] = [];
  const at = (value: number | undefined, test: (v: number) => boolean) => (value === undefined ? undefined : test(value));
  if (whoami) {
    checks.push(
      { backend: run.backend, what: 'whoami / bare req/s', value: r.whoamiVsBare, goal: `>= ${g.minRatioVsBare}`, pass: at(r.whoamiVsBare, (v) => v >= g.minRatioVsBare) },
      { backend: run.backend, what: 'whoami p99 ms', value: whoami.latencyP99Ms, goal: `<= ${g.maxP99Ms}`, pass: whoami.latencyP99Ms <= g.maxP99Ms },
      {
        backend: run.backend,
        what: 'whoami max RSS MB',
        value: whoami.maxRssMb,
        goal: `<= ${g.maxRssMb}`,
        pass: at(whoami.maxRssMb, (v) => v <= g.maxRssMb),
        note: `idle ${run.idleRssMb?.toFixed(1) ?? 'n/a'}`,
      },
    );
  }
  if (run.backend === 'postgres') {
    const min = GOALS.personDetailsOnPostgres.minRatioVsWhoami;
    checks.push({
      backend: run.backend,
      what: 'get-associated-person-details / whoami req/s',
      value: r.personDetailsVsWhoami,
      goal: `>= ${min}`,
      pass: at(r.personDetailsVsWhoami, (v) => v >= min),
    });
  }
  return checks;
}

const fixed = (v: number | undefined, digits: number) => (v === undefined ? '-' : v.toFixed(digits));
/** Two decimals, or two significant digits for small ratios (create-individual-account is ~1/100 of whoami). */
const ratioText = (v: number | undefined) => (v === undefined ? '-' : v >= 0.1 ? v.toFixed(2) : v.toPrecision(2));
const mark = (pass: boolean | undefined) => (pass === undefined ? 'n/a' : pass ? 'PASS' : 'MISS');

interface Row {
  database: string;
  scenario: ScenarioName;
  m: ScenarioResult;
  vsWhoami: number | undefined;
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
    return m ? [{ database: BACKEND_LABEL[run.backend], scenario, m, vsWhoami: vsWhoami[scenario] }] : [];
  });
}

export function printTable(runs: BackendRun[], notes: string[]): void {
  const rows = runs.flatMap(rowsOf);
  const lines = [
    '',
    `${WARMUP_SECONDS} s warm-up + ${DURATION_SECONDS} s measured per row, ${availableParallelism()} CPUs, node ${process.version}; load generator on the same machine`,
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
    runs: runs.map((run) => ({ ...run, ratios: ratiosOf(run), checks: checksOf(run).map(({ backend: _b, ...c }) => c) })),
    all2xx,
  };
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/results/latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.error('wrote bench/results/latest.json');
}
