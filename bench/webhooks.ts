/**
 * `npm run bench:webhooks`. Per database, in this process: the database (a fresh PGlite data dir, or a fresh
 * database on a PostgreSQL server), an integrator subscribed to `user.updated` at a local receiver, and the
 * webhook worker as the server runs it (startWebhookWorker, WEBHOOK_CONCURRENCY in flight, default 32). The
 * receiver is a bare node:http server in a child process (this file with `--receiver`) answering 200 at once and
 * noting each delivery's webhook-id and arrival time.
 *
 * - burst: 5,000 user.updated events written with recordEvent, 100 per transaction, as fast as they go, while
 *   the worker runs; deliveries/s = events / (first event's createdAt → last arrival), and event createdAt →
 *   arrival latency p50/p99.
 * - drain: 5,000 events queued while the worker is stopped, then the worker starts; deliveries/s = events /
 *   (worker start → last arrival): the worker alone, without the writes competing for the CPU.
 * - bare: an undici POST loop (no database, no signing) sending 5,000 bodies of the same size with the same
 *   headers to the same receiver, WEBHOOK_CONCURRENCY requests in flight: the HTTP ceiling the worker is
 *   compared with (goal: burst and drain ≥ 0.5 × bare).
 * - steady: 200 events/s (one event per transaction, like API requests) for BENCH_DURATION s (default 10);
 *   latency p50/p99 (goal: p99 < 1 s).
 * - drain by worker processes (PostgreSQL only): BENCH_WORKER_PROCESSES (default 2; 0 skips) `npm run worker`
 *   processes, started, warmed up (1,000 deliveries each) and idle, drain 5,000 events queued in one transaction; deliveries/s = events / (commit →
 *   last arrival). The scale-out path, compared with bare like the others.
 *
 * Every event must arrive exactly once (else exit 1). CPU per phase, from /proc: this process (worker + event
 * writes, or the undici loop), the receiver, PostgreSQL's backends of the bench database, and other processes
 * (a warning when others were busy: a shared machine skews every figure).
 *
 * Env: BENCH_BACKENDS (pglite | postgres | both; default both when BENCH_DATABASE_URL is set, else pglite),
 * BENCH_DATABASE_URL (else postgres://postgres@127.0.0.1:5432/test for postgres/both), BENCH_DURATION,
 * BENCH_EVENTS (default 5000), BENCH_RATE (steady events/s, default 200), BENCH_QUIET_WAIT (default 30: wait up
 * to that many seconds for other processes to go quiet before each phase), WEBHOOK_CONCURRENCY. To profile:
 * `node --cpu-prof --cpu-prof-dir=prof --import tsx bench/webhooks.ts`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { Agent, request } from 'undici';
import { systemClock } from '../src/clock.js';
import { loadConfig, type WebhookConfig } from '../src/config.js';
import { SecretBox } from '../src/crypto/secret-box.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { recordEvent } from '../src/domain/events/record-event.js';
import { newId } from '../src/domain/ids.js';
import { createIntegrator } from '../src/domain/integrators/integrators.js';
import { createSubscription } from '../src/domain/webhooks/subscriptions.js';
import { API_VERSION } from '../src/version.js';
import { startWebhookWorker, type WebhookWorker } from '../src/workers/webhook-worker.js';
import { provisionDatabase } from '../test/harness/backends.js';
import { BACKEND_LABEL, DEFAULT_POSTGRES_URL, postgresAnswers, type BackendKind } from './lib/backend.js';
import { exited, freePort, startChild, stopAllChildren, stopChild, type Child } from './lib/children.js';
import { QUIET_PCT, waitForQuiet, watchCpu, type CpuFigures } from './lib/cpu.js';

function positiveInt(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new Error(`${name} must be a whole number ≥ ${min} (got "${raw}")`);
  return Number(raw);
}

const EVENTS = positiveInt('BENCH_EVENTS', 5000);
const BATCH = 100;
const WARMUP_EVENTS = 300;
const STEADY_RATE = positiveInt('BENCH_RATE', 200);
const DURATION_SECONDS = positiveInt('BENCH_DURATION', 10);
const QUIET_WAIT_SECONDS = positiveInt('BENCH_QUIET_WAIT', 30, 0);
const WORKER_PROCESSES = positiveInt('BENCH_WORKER_PROCESSES', 2, 0);
const GOALS = { minRatioVsBare: 0.5, maxSteadyP99Ms: 1000 };

// ---------------------------------------------------------------------------------------------------------------
// The receiver (child process)

interface Taken {
  ids: string[];
  at: number[];
}

function runReceiver(port: number): void {
  let ids: string[] = [];
  let at: number[] = [];
  const server = http.createServer((req, res) => {
    if (req.url === '/_count') return void res.end(String(ids.length));
    if (req.url === '/_take') {
      const body = JSON.stringify({ ids, at } satisfies Taken);
      ids = [];
      at = [];
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    }
    ids.push(String(req.headers['webhook-id']));
    at.push(Date.now());
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  });
  server.keepAliveTimeout = 60_000;
  server.listen(port, '127.0.0.1', () => console.log(`receiver listening on ${port}`));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

class ReceiverClient {
  constructor(
    readonly child: Child,
    readonly base: string,
  ) {}

  async count(): Promise<number> {
    return Number(await (await fetch(`${this.base}/_count`)).text());
  }

  async take(): Promise<Taken> {
    return (await (await fetch(`${this.base}/_take`)).json()) as Taken;
  }

  /** Resolves once `n` deliveries have arrived since the last take (polling), or throws after `timeoutMs`. */
  async waitFor(n: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let seen = 0;
    while ((seen = await this.count()) < n) {
      if (Date.now() > deadline) throw new Error(`only ${seen} of ${n} deliveries arrived within ${timeoutMs / 1000} s`);
      await sleep(20);
    }
  }
}

async function startReceiver(): Promise<ReceiverClient> {
  const port = await freePort();
  const child = startChild('receiver', ['--import', 'tsx', 'bench/webhooks.ts', '--receiver', String(port)], {});
  const receiver = new ReceiverClient(child, `http://127.0.0.1:${port}`);
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await receiver.count();
      return receiver;
    } catch {
      if (child.proc.exitCode !== null || Date.now() > deadline) throw new Error(`receiver did not start:\n${child.tail()}`);
      await sleep(100);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Events

/** A user as the API shows it (about 1 KB of JSON with its event envelope, like a real user.updated). */
function userObject(userId: string, i: number) {
  return {
    userId,
    userInfo: {
      email: `maria.garcia+${i}@example.com`,
      phone: '+14155550123',
      lastName: 'Garcia',
      birthDate: '1988-04-12',
      firstName: 'Maria',
      middleName: 'Elena',
      nationality: 'USA',
      countryOfBirth: 'USA',
      profilePictureUrl: 'https://example.com/maria.png',
      residentialAddress: { city: 'San Francisco', line1: '1 Market St', line2: 'Suite 300', postalCode: '94105', stateProvinceRegion: 'CA', country: 'USA' },
      taxIdentificationNumberLast4: '6789',
    },
    verificationStatus: 'approved',
    documents: [{ documentId: newId(), kind: 'proof_of_address', contentType: 'application/pdf', sizeBytes: 48_213 }],
    createdAt: '2026-11-22T05:22:23.410Z',
    updatedAt: new Date().toISOString(),
  };
}

const previousAttributes = (i: number) => ({ userInfo: { email: `maria.garcia+old${i}@example.com` } });

interface Setup {
  kind: BackendKind;
  database: Database;
  databaseName?: string;
  /** PostgreSQL: the bench database, for worker processes. */
  databaseUrl?: string;
  secrets: SecretBox;
  /** The key behind `secrets` (worker processes open the subscription's signing key with it). */
  encryptionKeyHex: string;
  integratorId: string;
  config: WebhookConfig;
  log: CountingLog;
  close(): Promise<void>;
}

let eventCounter = 0;

/** Writes `n` events, `perTransaction` in each; returns id → createdAt (ms). */
async function writeEvents(s: Setup, n: number, perTransaction: number, created: Map<string, number>): Promise<void> {
  for (let done = 0; done < n; done += perTransaction) {
    await s.database.db.transaction(async (tx) => {
      for (let j = done; j < Math.min(n, done + perTransaction); j++) await writeOne(tx, s, created);
    });
  }
}

async function writeOne(tx: Parameters<Parameters<Database['db']['transaction']>[0]>[0], s: Setup, created: Map<string, number>): Promise<void> {
  const i = eventCounter++;
  const userId = newId();
  const at = new Date();
  const { id } = await recordEvent(tx, {
    integratorId: s.integratorId,
    type: 'user.updated',
    objectType: 'user',
    objectId: userId,
    object: userObject(userId, i),
    previousAttributes: previousAttributes(i),
    at,
  });
  created.set(id, at.getTime());
}

/** What the worker sends for an event like the ones above: the same envelope, body size and headers. */
function bareDelivery(): { headers: Record<string, string>; body: string } {
  const id = newId();
  const userId = newId();
  const i = eventCounter++;
  const body = JSON.stringify({
    id,
    type: 'user.updated',
    objectType: 'user',
    objectId: userId,
    sequence: 1,
    apiVersion: API_VERSION,
    createdAt: new Date().toISOString(),
    data: { object: userObject(userId, i), previousAttributes: previousAttributes(i) },
  });
  return {
    body,
    headers: {
      'user-agent': `IntegratorAPI-Webhooks/${API_VERSION}`,
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      'webhook-signature': `v1a,${randomBytes(64).toString('base64')}`,
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring

interface CountingLog {
  warnings: number;
  errors: number;
  warn(obj: unknown, msg: string): void;
  error(obj: unknown, msg: string): void;
}

function countingLog(): CountingLog {
  const log: CountingLog = {
    warnings: 0,
    errors: 0,
    warn(obj, msg) {
      if (log.warnings++ < 3) console.error(`  worker warning: ${msg}`, obj);
    },
    error(obj, msg) {
      if (log.errors++ < 3) console.error(`  worker error: ${msg}`, obj);
    },
  };
  return log;
}

type Phase = 'burst' | 'drain' | 'bare' | 'steady' | 'processes';
/** The phases whose deliveries/s are compared with the bare loop's. */
const COMPARED: Phase[] = ['burst', 'drain', 'processes'];
const phaseLabel = (p: Phase) => (p === 'processes' ? `drain, ${WORKER_PROCESSES} worker processes` : p);

interface PhaseResult {
  backend: BackendKind;
  phase: Phase;
  count: number;
  seconds: number;
  perSec: number;
  /** Events written per second (burst, steady). */
  writtenPerSec?: number;
  latencyP50Ms?: number;
  latencyP99Ms?: number;
  latencyMaxMs?: number;
  missing: number;
  duplicates: number;
  cpu: CpuFigures;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

let allDelivered = true;

/** Arrivals against the events written: latencies from createdAt, and any missing or duplicate delivery. */
function judge(created: Map<string, number>, taken: Taken): { latencies: number[]; missing: number; duplicates: number; lastArrival: number } {
  const first = new Map<string, number>();
  let duplicates = 0;
  let lastArrival = 0;
  taken.ids.forEach((id, i) => {
    const at = taken.at[i]!;
    lastArrival = Math.max(lastArrival, at);
    if (first.has(id)) duplicates++;
    else first.set(id, at);
  });
  let missing = 0;
  const latencies: number[] = [];
  for (const [id, createdAt] of created) {
    const at = first.get(id);
    if (at === undefined) missing++;
    else latencies.push(at - createdAt);
  }
  latencies.sort((a, b) => a - b);
  if (missing > 0 || duplicates > 0 || first.size !== created.size) allDelivered = false;
  return { latencies, missing, duplicates, lastArrival };
}

async function waitForRecorded(database: Database, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = (await database.db.execute(sql`select count(*)::int as n from webhook_deliveries where status <> 'succeeded'`)) as unknown as { rows: { n: number }[] };
    if (Number(result.rows[0]!.n) === 0) return;
    if (Date.now() > deadline) throw new Error(`${result.rows[0]!.n} deliveries not recorded as succeeded after ${timeoutMs / 1000} s`);
    await sleep(20);
  }
}

function cpuWatch(s: Setup, receiver: ReceiverClient, group?: number[]) {
  return watchCpu({ serverPid: receiver.child.proc.pid!, pids: [receiver.child.proc.pid!], ...(group ? { group } : {}), ...(s.databaseName ? { database: s.databaseName } : {}) });
}

/** Waits for `count` arrivals, stops the CPU count, and judges the arrivals once every success is recorded. */
async function collect(s: Setup, receiver: ReceiverClient, created: Map<string, number>, count: number, cpu: ReturnType<typeof cpuWatch>) {
  await receiver.waitFor(count, 120_000);
  const cpuFigures = cpu.stop();
  const taken = await receiver.take();
  await waitForRecorded(s.database, 30_000);
  return { cpuFigures, j: judge(created, taken) };
}

/** `n` events delivered and recorded, their figures thrown away: JIT, pools, keep-alive sockets, the receiver. */
async function warmUp(s: Setup, receiver: ReceiverClient, n: number): Promise<void> {
  await writeEvents(s, n, BATCH, new Map());
  await receiver.waitFor(n, 60_000);
  await waitForRecorded(s.database, 30_000);
}

async function quiet(s: Setup, receiver: ReceiverClient): Promise<void> {
  if (QUIET_WAIT_SECONDS > 0) await waitForQuiet({ serverPid: receiver.child.proc.pid!, pids: [receiver.child.proc.pid!], ...(s.databaseName ? { database: s.databaseName } : {}) }, QUIET_WAIT_SECONDS);
}

const startWorker = (s: Setup) => startWebhookWorker({ database: s.database, secrets: s.secrets, clock: systemClock, config: s.config, log: s.log });

/** Burst: events written while the worker runs. */
async function burst(s: Setup, receiver: ReceiverClient): Promise<PhaseResult> {
  await quiet(s, receiver);
  await receiver.take();
  const created = new Map<string, number>();
  const cpu = cpuWatch(s, receiver);
  const started = Date.now();
  await writeEvents(s, EVENTS, BATCH, created);
  const written = Date.now();
  const { cpuFigures, j } = await collect(s, receiver, created, EVENTS, cpu);
  const first = Math.min(...created.values());
  const seconds = (j.lastArrival - first) / 1000;
  return {
    backend: s.kind,
    phase: 'burst',
    count: EVENTS,
    seconds,
    perSec: EVENTS / seconds,
    writtenPerSec: EVENTS / ((written - started) / 1000),
    latencyP50Ms: percentile(j.latencies, 0.5),
    latencyP99Ms: percentile(j.latencies, 0.99),
    latencyMaxMs: j.latencies.at(-1)!,
    missing: j.missing,
    duplicates: j.duplicates,
    cpu: cpuFigures,
  };
}

/** Drain: events queued with the worker stopped, then a worker started on them. Returns the running worker. */
async function drain(s: Setup, receiver: ReceiverClient, worker: WebhookWorker): Promise<{ result: PhaseResult; worker: WebhookWorker }> {
  await worker.stop();
  await receiver.take();
  const created = new Map<string, number>();
  await writeEvents(s, EVENTS, BATCH, created);
  await quiet(s, receiver);
  const cpu = cpuWatch(s, receiver);
  const started = Date.now();
  const restarted = await startWorker(s);
  const { cpuFigures, j } = await collect(s, receiver, created, EVENTS, cpu);
  const seconds = (j.lastArrival - started) / 1000;
  return {
    worker: restarted,
    result: { backend: s.kind, phase: 'drain', count: EVENTS, seconds, perSec: EVENTS / seconds, missing: j.missing, duplicates: j.duplicates, cpu: cpuFigures },
  };
}

/**
 * Drain by worker processes (PostgreSQL): the in-process worker stopped, WORKER_PROCESSES `npm run worker`
 * processes (src/worker-main.ts) started, warmed up (1,000 deliveries each) and idle, then the events queued in
 * one transaction; deliveries/s = events / (commit → last arrival). The scale-out path: claims are exclusive, so
 * the processes share the work.
 */
async function drainByProcesses(s: Setup, receiver: ReceiverClient): Promise<PhaseResult> {
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
    await warmUp(s, receiver, 1000 * WORKER_PROCESSES);
    await quiet(s, receiver);
    await receiver.take();
    const created = new Map<string, number>();
    await s.database.db.transaction(async (tx) => {
      for (let i = 0; i < EVENTS; i++) await writeOne(tx, s, created);
    });
    const committed = Date.now();
    const cpu = cpuWatch(s, receiver, workers.map((w) => w.proc.pid!));
    const { cpuFigures, j } = await collect(s, receiver, created, EVENTS, cpu);
    const seconds = (j.lastArrival - committed) / 1000;
    return { backend: s.kind, phase: 'processes', count: EVENTS, seconds, perSec: EVENTS / seconds, missing: j.missing, duplicates: j.duplicates, cpu: cpuFigures };
  } finally {
    await Promise.all(workers.map((w) => stopChild(w)));
  }
}

/** The same number of similar POSTs from a bare undici loop, with the worker's concurrency. */
async function bare(s: Setup, receiver: ReceiverClient, n: number, measure = true): Promise<PhaseResult | undefined> {
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
    const cpuFigures = cpu.stop();
    const taken = await receiver.take();
    if (failures > 0) throw new Error(`bare loop: ${failures} answers were not 200`);
    if (!measure) return undefined;
    const j = judge(sent, taken);
    const seconds = (j.lastArrival - started) / 1000;
    return { backend: s.kind, phase: 'bare', count: n, seconds, perSec: n / seconds, missing: j.missing, duplicates: j.duplicates, cpu: cpuFigures };
  } finally {
    await agent.close();
  }
}

/** Steady: STEADY_RATE events/s, each in its own transaction, written on schedule (not waiting on each other). */
async function steady(s: Setup, receiver: ReceiverClient): Promise<PhaseResult> {
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
  const { cpuFigures, j } = await collect(s, receiver, created, total, cpu);
  return {
    backend: s.kind,
    phase: 'steady',
    count: total,
    seconds: writeSeconds,
    perSec: total / writeSeconds,
    writtenPerSec: total / writeSeconds,
    latencyP50Ms: percentile(j.latencies, 0.5),
    latencyP99Ms: percentile(j.latencies, 0.99),
    latencyMaxMs: j.latencies.at(-1)!,
    missing: j.missing,
    duplicates: j.duplicates,
    cpu: cpuFigures,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Setup per database

async function setUp(kind: BackendKind, receiver: ReceiverClient, postgresUrl: string | undefined): Promise<Setup> {
  let database: Database;
  let databaseName: string | undefined;
  let databaseUrl: string | undefined;
  let cleanup: () => Promise<void>;
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'webhook-bench-'));
    database = await openDatabase({ kind: 'pglite', dataDir });
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
  } else {
    const { target, drop } = await provisionDatabase('postgres', postgresUrl);
    if (target.kind !== 'postgres') throw new Error('expected postgres');
    databaseName = new URL(target.url).pathname.slice(1);
    databaseUrl = target.url;
    database = await openDatabase(target);
    cleanup = drop;
  }
  const encryptionKey = randomBytes(32);
  const secrets = new SecretBox(encryptionKey);
  const config = loadConfig({
    APP_ENV: 'sandbox',
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE: '1',
    ...(process.env.WEBHOOK_CONCURRENCY ? { WEBHOOK_CONCURRENCY: process.env.WEBHOOK_CONCURRENCY } : {}),
  }).webhooks;
  const now = new Date();
  const { integratorId } = await createIntegrator(database, { name: 'bench', scope: 'read_write' }, now);
  await createSubscription(
    { db: database, actor: { integratorId, kind: 'integrator' }, now, secrets, policy: { highRiskCountries: new Set() } },
    { name: 'bench receiver', url: `${receiver.base}/hook`, eventTypes: ['user.updated'] },
    { rules: { allowPrivate: true } },
  );
  return {
    kind,
    database,
    ...(databaseName ? { databaseName } : {}),
    ...(databaseUrl ? { databaseUrl } : {}),
    secrets,
    encryptionKeyHex: encryptionKey.toString('hex'),
    integratorId,
    config,
    log: countingLog(),
    close: async () => {
      try {
        await database.close();
      } finally {
        await cleanup();
      }
    },
  };
}

async function benchBackend(kind: BackendKind, receiver: ReceiverClient, postgresUrl: string | undefined): Promise<PhaseResult[]> {
  console.error(`\n== database: ${BACKEND_LABEL[kind]} ==`);
  const s = await setUp(kind, receiver, postgresUrl);
  let worker: WebhookWorker | undefined;
  try {
    worker = await startWorker(s);
    await warmUp(s, receiver, WARMUP_EVENTS);
    await bare(s, receiver, WARMUP_EVENTS, false);

    const results: PhaseResult[] = [];
    const step = (r: PhaseResult) => {
      console.error(`  ${phaseLabel(r.phase)}: ${fmt(r.perSec)}/s${r.latencyP99Ms !== undefined ? `, p50 ${r.latencyP50Ms} ms, p99 ${r.latencyP99Ms} ms` : ''}`);
      results.push(r);
    };
    step(await burst(s, receiver));
    const drained = await drain(s, receiver, worker);
    worker = drained.worker;
    step(drained.result);
    step((await bare(s, receiver, EVENTS))!);
    step(await steady(s, receiver));
    if (s.databaseUrl && WORKER_PROCESSES > 0) {
      await worker.stop();
      worker = undefined;
      step(await drainByProcesses(s, receiver));
    }
    if (s.log.warnings + s.log.errors > 0) console.error(`  worker logged ${s.log.warnings} warning(s), ${s.log.errors} error(s)`);
    return results;
  } finally {
    await worker?.stop();
    await s.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Report

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (n: number | undefined) => (n === undefined ? '' : `${n.toFixed(0)} %`);

function printTable(results: PhaseResult[], concurrency: number, notes: string[]): void {
  const lines = [
    `| Database | Phase | Events | deliveries/s | written/s | latency p50 / p99 / max | vs bare | bench proc CPU | receiver CPU | PostgreSQL CPU | others CPU |`,
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const warnings: string[] = [];
  for (const r of results) {
    const bareRun = results.find((b) => b.backend === r.backend && b.phase === 'bare');
    const vsBare = COMPARED.includes(r.phase) ? (bareRun ? (r.perSec / bareRun.perSec).toFixed(2) : '') : '';
    const latency = r.latencyP50Ms !== undefined ? `${fmt(r.latencyP50Ms)} / ${fmt(r.latencyP99Ms!)} / ${fmt(r.latencyMaxMs!)} ms` : '';
    lines.push(
      `| ${BACKEND_LABEL[r.backend]} | ${phaseLabel(r.phase)} | ${fmt(r.count)} | ${r.phase === 'steady' ? '' : fmt(r.perSec)} | ${r.writtenPerSec ? fmt(r.writtenPerSec) : ''} | ${latency} | ${vsBare} | ${r.cpu.groupCpuPct !== undefined ? `${pct(r.cpu.groupCpuPct)} (processes)` : pct(r.cpu.loadGeneratorCpuPct)} | ${pct(r.cpu.serverCpuPct)} | ${pct(r.cpu.postgresCpuPct)} | ${pct(r.cpu.otherCpuPct)} |`,
    );
    if (r.missing || r.duplicates) warnings.push(`FAIL ${BACKEND_LABEL[r.backend]} ${phaseLabel(r.phase)}: ${r.missing} missing, ${r.duplicates} duplicate deliveries`);
    if ((r.cpu.otherCpuPct ?? 0) > QUIET_PCT) warnings.push(`warning: ${BACKEND_LABEL[r.backend]} ${phaseLabel(r.phase)} measured while other processes used ${pct(r.cpu.otherCpuPct)} CPU (busiest: ${r.cpu.otherBusiest})`);
  }
  const checks: string[] = [];
  for (const backend of [...new Set(results.map((r) => r.backend))]) {
    const of = (phase: PhaseResult['phase']) => results.find((r) => r.backend === backend && r.phase === phase);
    const bareRun = of('bare');
    for (const phase of COMPARED) {
      const r = of(phase);
      if (r && bareRun) {
        const ratio = r.perSec / bareRun.perSec;
        checks.push(`${BACKEND_LABEL[backend]} ${phaseLabel(phase)} / bare deliveries/s: ${ratio.toFixed(2)} (goal >= ${GOALS.minRatioVsBare}) ${ratio >= GOALS.minRatioVsBare ? 'PASS' : 'MISS'}`);
      }
    }
    const st = of('steady');
    if (st) checks.push(`${BACKEND_LABEL[backend]} steady ${STEADY_RATE}/s p99: ${st.latencyP99Ms} ms (goal < ${GOALS.maxSteadyP99Ms}) ${st.latencyP99Ms! < GOALS.maxSteadyP99Ms ? 'PASS' : 'MISS'}`);
  }
  console.log(`\nWebhook delivery, concurrency ${concurrency}, ${EVENTS} events per burst/drain/bare, steady ${STEADY_RATE}/s for ${DURATION_SECONDS} s\n`);
  console.log(lines.join('\n'));
  console.log(['', ...checks, ...warnings, ...notes].join('\n'));
}

// ---------------------------------------------------------------------------------------------------------------

async function selectedBackends(notes: string[]): Promise<{ kinds: BackendKind[]; postgresUrl?: string }> {
  const mode = process.env.BENCH_BACKENDS || (process.env.BENCH_DATABASE_URL ? 'both' : 'pglite');
  if (!['pglite', 'postgres', 'both'].includes(mode)) throw new Error(`BENCH_BACKENDS must be pglite, postgres or both (got "${mode}")`);
  if (mode === 'pglite') return { kinds: ['pglite'] };
  const url = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
  if (await postgresAnswers(url)) return { kinds: mode === 'both' ? ['pglite', 'postgres'] : ['postgres'], postgresUrl: url };
  const why = `no PostgreSQL server accepts connections at ${url.replace(/\/\/[^@/]*@/, '//…@')}`;
  if (mode === 'postgres' || process.env.BENCH_DATABASE_URL) throw new Error(why);
  notes.push(`note: PostgreSQL skipped: ${why} (set BENCH_DATABASE_URL)`);
  return { kinds: ['pglite'] };
}

async function main(): Promise<number> {
  const notes: string[] = [];
  const { kinds, postgresUrl } = await selectedBackends(notes);
  const budgetMs = (60 + kinds.length * (4 * QUIET_WAIT_SECONDS + DURATION_SECONDS + 4 * 120)) * 1000;
  setTimeout(() => {
    console.error(`bench: exceeded ${budgetMs / 1000} s overall; aborting`);
    void stopAllChildren().finally(() => process.exit(1));
  }, budgetMs).unref();

  const receiver = await startReceiver();
  const results: PhaseResult[] = [];
  try {
    for (const kind of kinds) results.push(...(await benchBackend(kind, receiver, postgresUrl)));
  } finally {
    await stopChild(receiver.child);
  }
  const concurrency = loadConfig({ APP_ENV: 'sandbox', ...(process.env.WEBHOOK_CONCURRENCY ? { WEBHOOK_CONCURRENCY: process.env.WEBHOOK_CONCURRENCY } : {}) }).webhooks.concurrency;
  printTable(results, concurrency, notes);
  return allDelivered ? 0 : 1;
}

if (process.argv[2] === '--receiver') {
  runReceiver(Number(process.argv[3]));
} else {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: cleaning up`);
      void stopAllChildren().finally(() => process.exit(130));
    });
  }
  let code = 1;
  try {
    code = await main();
  } catch (err) {
    console.error(`bench failed: ${(err as Error).stack ?? err}`);
  } finally {
    await stopAllChildren();
  }
  process.exit(code);
}
