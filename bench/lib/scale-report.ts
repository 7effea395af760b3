/** The scale bench's table (one column per step) and bench/results/scale-latest.json. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './children.js';
import { QUIET_PCT } from './cpu.js';
import { REQUESTS, WARMUP_REQUESTS } from './scale-config.js';
import { COUNTED_TABLES, type TableCounts } from './scale-load.js';
import type { ReadFigures } from './scale-reads.js';
import type { RetentionFigures } from './scale-retention.js';

/** Issue 20: every read's p99 at a million events. */
export const READ_P99_GOAL_MS = 20;

export interface StepResult {
  /** The step's size: events in the table when the reads ran. */
  events: number;
  rows: TableCounts;
  loadSeconds: Record<string, number>;
  reads: Record<string, ReadFigures>;
  /** CPU of processes outside the bench while the reads ran (100 = one core). */
  otherCpuPct?: number;
  retention: RetentionFigures;
}

const LABEL = 42;
const CELL = 18;
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n < 10 ? n.toFixed(1) : n.toFixed(0));
const line = (label: string, cells: string[]) => `${label.padEnd(LABEL)}${cells.map((c) => c.padStart(CELL)).join('')}`;

/** Reads whose p99 missed the goal at the largest step. */
export function goalMisses(steps: StepResult[]): string[] {
  const last = steps.at(-1);
  return last ? Object.entries(last.reads).flatMap(([name, f]) => (f.p99Ms > READ_P99_GOAL_MS ? [`${name} (${ms(f.p99Ms)} ms)`] : [])) : [];
}

export function printScaleTable(steps: StepResult[], server: string): void {
  const cells = (pick: (s: StepResult) => string) => steps.map(pick);
  const lines = [
    '',
    `scale: ${server}; ${availableParallelism()} CPUs, node ${process.version}; ${REQUESTS} sequential requests per read after ${WARMUP_REQUESTS} warm-up, client on the same machine`,
    line('rows when the reads ran', cells((s) => `${int(s.events)} events`)),
    ...COUNTED_TABLES.map((t) => line(`  ${t}`, cells((s) => int(s.rows[t])))),
    line('load seconds (this step)', cells((s) => Object.values(s.loadSeconds).reduce((a, b) => a + b, 0).toFixed(1))),
    '',
    line('read p50 / p99 ms', cells(() => '')),
    ...Object.keys(steps[0]?.reads ?? {}).map((name) => line(`  ${name}`, cells((s) => (s.reads[name] ? `${ms(s.reads[name].p50Ms)} / ${ms(s.reads[name].p99Ms)}` : '-')))),
    '',
    line('retention pass (30 days)', cells(() => '')),
    line('  events deleted', cells((s) => int(s.retention.events))),
    line('  deliveries / attempts deleted', cells((s) => `${int(s.retention.deliveries)} / ${int(s.retention.attempts)}`)),
    line('  event batches', cells((s) => int(s.retention.batches))),
    line('  batch p50 / longest ms', cells((s) => `${s.retention.batchP50Ms} / ${s.retention.longestBatchMs}`)),
    line('  whole pass s', cells((s) => s.retention.seconds.toFixed(1))),
    line('  writer alone p50 / p99 / max ms', cells((s) => `${ms(s.retention.writerAlone.p50Ms)} / ${ms(s.retention.writerAlone.p99Ms)} / ${ms(s.retention.writerAlone.maxMs)}`)),
    line('  writer during pass p50 / p99 / max', cells((s) => `${ms(s.retention.writerDuringPurge.p50Ms)} / ${ms(s.retention.writerDuringPurge.p99Ms)} / ${ms(s.retention.writerDuringPurge.maxMs)}`)),
    line('  writes during pass', cells((s) => int(s.retention.writerDuringPurge.requests))),
    line('  lock waits seen / looks', cells((s) => `${s.retention.lockWaits.waiting} / ${int(s.retention.lockWaits.samples)}`)),
    '',
  ];
  const misses = goalMisses(steps);
  lines.push(`goal: every read p99 <= ${READ_P99_GOAL_MS} ms at ${int(steps.at(-1)?.events ?? 0)} events: ${misses.length === 0 ? 'PASS' : `MISS: ${misses.join(', ')}`}`);
  for (const s of steps) {
    if ((s.otherCpuPct ?? 0) > QUIET_PCT) lines.push(`warning: at ${int(s.events)} events, processes outside the bench used ${s.otherCpuPct!.toFixed(0)}% CPU during the reads: figures skewed`);
  }
  console.log(lines.join('\n'));
}

export function writeScaleReport(steps: StepResult[], server: string): void {
  const report = {
    at: new Date().toISOString(),
    node: process.version,
    cpus: availableParallelism(),
    server,
    requestsPerRead: REQUESTS,
    warmupRequests: WARMUP_REQUESTS,
    goal: { readP99Ms: READ_P99_GOAL_MS, misses: goalMisses(steps) },
    steps,
  };
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/results/scale-latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.error('wrote bench/results/scale-latest.json');
}
