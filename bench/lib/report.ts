/** The combined table (one block per database) and bench/results/latest.json. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { CreateExtras } from '../scenarios/create-individual-account.js';
import { BACKEND_LABEL, type BackendKind } from './backend.js';
import { ROOT } from './children.js';
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

/** More than this (% of one core) used by processes outside the bench during a measured run is reported. */
const OTHER_CPU_WARN_PCT = 10;

const fixed = (v: number | undefined, digits: number) => (v === undefined ? '-' : v.toFixed(digits));
const ratioText = (v: number | undefined) => (v === undefined ? '-' : v.toFixed(v < 0.1 ? 3 : 2));
const mark = (pass: boolean | undefined) => (pass === undefined ? 'n/a' : pass ? 'PASS' : 'MISS');

export function printTable(runs: BackendRun[], notes: string[]): void {
  const header = `${'database'.padEnd(11)} ${'scenario'.padEnd(30)} ${'conns'.padStart(5)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'vs whoami'.padStart(9)} ${'max RSS MB'.padStart(10)} ${'srv CPU%'.padStart(8)} ${'pg CPU%'.padStart(7)} ${'body MB/s'.padStart(9)} ${'non-2xx'.padStart(7)}`;
  const lines = [
    '',
    `${WARMUP_SECONDS} s warm-up + ${DURATION_SECONDS} s measured per row, ${availableParallelism()} CPUs, node ${process.version}; load generator on the same machine`,
    header,
  ];
  const warnings: string[] = [];
  for (const run of runs) {
    const r = ratiosOf(run);
    const vsWhoami: Partial<Record<ScenarioName, number | undefined>> = {
      'get-associated-person-details': r.personDetailsVsWhoami,
      'create-individual-account': r.createIndividualVsWhoami,
    };
    for (const name of SCENARIOS) {
      const m = run.scenarios[name];
      if (!m) continue;
      if ((m.otherCpuPct ?? 0) > OTHER_CPU_WARN_PCT) {
        warnings.push(`warning: during ${BACKEND_LABEL[run.backend]} ${name}, processes outside the bench used ${m.otherCpuPct!.toFixed(0)}% CPU (busiest: ${m.otherBusiest}): figures skewed`);
      }
      lines.push(
        `${BACKEND_LABEL[run.backend].padEnd(11)} ${name.padEnd(30)} ${String(m.connections).padStart(5)} ${(m.reqPerSec < 100 ? m.reqPerSec.toFixed(1) : m.reqPerSec.toFixed(0)).padStart(7)} ${String(m.latencyP50Ms).padStart(7)} ${String(m.latencyP99Ms).padStart(7)} ${ratioText(vsWhoami[name]).padStart(9)} ${fixed(m.maxRssMb, 1).padStart(10)} ${fixed(m.serverCpuPct, 0).padStart(8)} ${fixed(m.postgresCpuPct, 0).padStart(7)} ${fixed(m.requestBodyMBps, 1).padStart(9)} ${String(m.non2xx + m.errors + m.timeouts).padStart(7)}`,
      );
    }
  }
  lines.push(...warnings, '', 'goals');
  for (const c of runs.flatMap(checksOf)) {
    const value = c.value === undefined ? 'n/a' : Number.isInteger(c.value) ? String(c.value) : c.value.toFixed(c.what.includes('RSS') ? 1 : 2);
    lines.push(`${BACKEND_LABEL[c.backend].padEnd(11)} ${c.what.padEnd(45)} ${value.padStart(7)}   goal ${c.goal.padEnd(7)} ${mark(c.pass)}${c.note ? `  (${c.note})` : ''}`);
  }
  if (!runs.some((r) => r.backend === 'postgres')) lines.push(`${'PostgreSQL'.padEnd(11)} ${'get-associated-person-details / whoami req/s'.padEnd(45)} ${'n/a'.padStart(7)}   not run on PostgreSQL`);
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
