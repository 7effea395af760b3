/** The webhooks bench's measured phases: burst, drain, drain by worker processes, the bare loop, steady. */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { exited, startChild, stopChild } from './children.js';
import { bareDelivery, writeEvents, writeOne } from './webhooks-events.js';
import { arrivalFigures, collect, cpuOf, cpuWatch, judge, quiet, warmUp } from './webhooks-measure.js';
import { BATCH, DURATION_SECONDS, EVENTS, STEADY_RATE, WORKER_PROCESSES, type Phase } from './webhooks-settings.js';
import type { ReceiverClient } from './webhooks-receiver.js';
import type { OurPath } from './webhooks-setup.js';
import type { DeliveryPath, PhaseResult, Setup } from './webhooks-types.js';

/** Burst: events written while the path's worker runs. */
export async function burst(s: Setup, receiver: ReceiverClient, path: DeliveryPath, phase: Phase): Promise<PhaseResult> {
  await quiet(s, receiver);
  await receiver.take();
  const created = new Map<string, number>();
  const cpu = cpuWatch(s, receiver);
  const started = Date.now();
  await writeEvents(s, EVENTS, BATCH, created, path);
  const written = Date.now();
  const { cpuFields, j } = await collect(receiver, created, EVENTS, cpu, path, phase);
  const first = Math.min(...created.values());
  const seconds = (j.lastArrival - first) / 1000;
  return {
    backend: s.kind,
    phase,
    count: EVENTS,
    seconds,
    perSec: EVENTS / seconds,
    writtenPerSec: EVENTS / ((written - started) / 1000),
    ...arrivalFigures(j),
    ...cpuFields,
  };
}

/** Drain: events queued with the path's worker stopped, then the worker started on them; it is left running. */
export async function drain(s: Setup, receiver: ReceiverClient, path: DeliveryPath, phase: Phase): Promise<PhaseResult> {
  await path.stop();
  await receiver.take();
  const created = new Map<string, number>();
  await writeEvents(s, EVENTS, BATCH, created, path);
  await quiet(s, receiver);
  const cpu = cpuWatch(s, receiver);
  const started = Date.now();
  await path.start();
  const { cpuFields, j } = await collect(receiver, created, EVENTS, cpu, path, phase);
  const seconds = (j.lastArrival - started) / 1000;
  return { backend: s.kind, phase, count: EVENTS, seconds, perSec: EVENTS / seconds, missing: j.missing, duplicates: j.duplicates, ...cpuFields };
}

/**
 * Drain by worker processes (PostgreSQL): the in-process worker stopped, WORKER_PROCESSES `npm run worker`
 * processes (src/worker-main.ts) started, warmed up (1,000 deliveries each) and idle, then the events queued in
 * one transaction; deliveries/s = events / (commit → last arrival). The scale-out path: claims are exclusive, so
 * the processes share the work.
 */
export async function drainByProcesses(s: Setup, receiver: ReceiverClient, ours: OurPath): Promise<PhaseResult> {
  const env = {
    DATABASE_URL: s.databaseUrl!,
    ENCRYPTION_KEY: s.encryptionKeyHex,
    APP_ENV: 'sandbox',
    LOG_LEVEL: 'info',
    WEBHOOK_ALLOW_PRIVATE: '1',
    WEBHOOK_CONCURRENCY: String(s.config.concurrency),
  };
  const workers = Array.from({ length: WORKER_PROCESSES }, (_, i) => startChild(`worker ${i + 1}`, ['--import', 'tsx', 'src/worker-main.ts'], env));
  try {
    const deadline = Date.now() + 30_000;
    for (const w of workers) {
      while (!w.tail().includes('webhook worker ready')) {
        if (exited(w.proc) || Date.now() > deadline) throw new Error(`${w.name} did not start:\n${w.tail()}`);
        await sleep(50);
      }
    }
    // Warm-up, as the in-process worker had: 1,000 deliveries per process.
    await receiver.take();
    await warmUp(s, receiver, 1000 * WORKER_PROCESSES, ours);
    await quiet(s, receiver);
    await receiver.take();
    const created = new Map<string, number>();
    await s.database.db.transaction(async (tx) => {
      for (let i = 0; i < EVENTS; i++) await writeOne(tx, s, created);
    });
    const committed = Date.now();
    const cpu = cpuWatch(s, receiver, workers.map((w) => w.proc.pid!));
    const { cpuFields, j } = await collect(receiver, created, EVENTS, cpu, ours, 'processes');
    const seconds = (j.lastArrival - committed) / 1000;
    return { backend: s.kind, phase: 'processes', count: EVENTS, seconds, perSec: EVENTS / seconds, missing: j.missing, duplicates: j.duplicates, ...cpuFields };
  } finally {
    await Promise.all(workers.map((w) => stopChild(w)));
  }
}

/** The same number of similar POSTs from a bare undici loop, with the worker's concurrency. */
export async function bare(s: Setup, receiver: ReceiverClient, n: number, measure = true): Promise<PhaseResult | undefined> {
  const concurrency = s.config.concurrency;
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 60_000 });
  const url = `${receiver.base}/hook`;
  try {
    if (measure) await quiet(s, receiver);
    await receiver.take();
    const cpu = cpuWatch(s, receiver);
    const started = Date.now();
    let next = 0;
    let failures = 0;
    const sent = new Map<string, number>();
    const loop = async () => {
      while (next < n) {
        next++;
        const { headers, body } = bareDelivery();
        sent.set(headers['webhook-id']!, Date.now());
        const res = await request(url, { method: 'POST', headers, body, dispatcher: agent });
        await res.body.dump();
        if (res.statusCode !== 200) failures++;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, loop));
    const measured = cpu.stop();
    const taken = await receiver.take();
    if (failures > 0) throw new Error(`bare loop: ${failures} answers were not 200`);
    if (!measure) return undefined;
    const j = judge(sent, taken, false);
    const seconds = (j.lastArrival - started) / 1000;
    return { backend: s.kind, phase: 'bare', count: n, seconds, perSec: n / seconds, missing: j.missing, duplicates: j.duplicates, ...cpuOf(measured, n) };
  } finally {
    await agent.close();
  }
}

/** Steady: STEADY_RATE events/s, each in its own transaction, written on schedule (not waiting on each other). */
export async function steady(s: Setup, receiver: ReceiverClient, ours: OurPath): Promise<PhaseResult> {
  await quiet(s, receiver);
  await receiver.take();
  const created = new Map<string, number>();
  const total = STEADY_RATE * DURATION_SECONDS;
  const interval = 1000 / STEADY_RATE;
  const writes = new Set<Promise<void>>();
  const cpu = cpuWatch(s, receiver);
  const t0 = performance.now();
  for (let i = 0; i < total; i++) {
    const wait = t0 + i * interval - performance.now();
    if (wait > 1) await sleep(wait);
    const w = s.database.db.transaction((tx) => writeOne(tx, s, created)).finally(() => writes.delete(w));
    writes.add(w);
  }
  await Promise.all(writes);
  const writeSeconds = (performance.now() - t0) / 1000;
  const { cpuFields, j } = await collect(receiver, created, total, cpu, ours, 'steady');
  return {
    backend: s.kind,
    phase: 'steady',
    count: total,
    seconds: writeSeconds,
    perSec: total / writeSeconds,
    writtenPerSec: total / writeSeconds,
    ...arrivalFigures(j),
    ...cpuFields,
  };
}
