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
 * - peer burst, peer drain (PostgreSQL only): the same two phases with the deliveries queued and made by pg-boss 10
 *   (bench/peers/pg-boss.ts): jobs sent in the event's transaction, the same signing, an undici keep-alive POST,
 *   an attempt row per job, the same concurrency. Goal: drain ≥ 2 × peer drain deliveries/s.
 * - bare: an undici POST loop (no database, no signing) sending 5,000 bodies of the same size with the same
 *   headers to the same receiver, WEBHOOK_CONCURRENCY requests in flight: a reference row (its goal is retired).
 * - floor parts: the CPU of one Ed25519 signature of a delivery's body (this process), and of one minimal durable
 *   write (a single-row INSERT committed on its own, WEBHOOK_CONCURRENCY in flight; this process + PostgreSQL).
 *   Floor = bare's CPU per delivery + one signature + one such write. Goal: drain CPU per delivery (this process +
 *   receiver + PostgreSQL's backends) ≤ 0.6 ms, printed beside the floor.
 * - steady: 500 events/s (BENCH_RATE; one event per transaction, like API requests) for BENCH_DURATION s
 *   (default 10); latency p50/p99 (goal: p99 < 250 ms).
 * - drain by worker processes (PostgreSQL only): BENCH_WORKER_PROCESSES (default 2; 0 skips) `npm run worker`
 *   processes, started, warmed up (1,000 deliveries each) and idle, drain 5,000 events queued in one transaction;
 *   deliveries/s = events / (commit → last arrival). The scale-out path.
 *
 * Every event must arrive (else exit 1); our worker's must arrive exactly once, the peer's at least once (its
 * duplicates are counted). CPU per phase, from /proc: this process (worker + event writes, or the undici loop),
 * the receiver, PostgreSQL's backends of the bench database, and other processes (a warning when others were busy:
 * a shared machine skews every figure). Results: the printed table and bench/results/webhooks-latest.json.
 *
 * Env: BENCH_BACKENDS (pglite | postgres | both; default both when BENCH_DATABASE_URL is set, else pglite),
 * BENCH_DATABASE_URL (else postgres://postgres@127.0.0.1:5432/test for postgres/both), BENCH_DURATION,
 * BENCH_EVENTS (default 5000), BENCH_RATE (steady events/s, default 500), BENCH_QUIET_WAIT (default 30: wait up
 * to that many seconds for other processes to go quiet before each phase), BENCH_PEER_WORKERS (the peer's work()
 * loops, default 1), WEBHOOK_CONCURRENCY. To profile:
 * `node --cpu-prof --cpu-prof-dir=prof --import tsx bench/webhooks.ts`.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { Agent, request } from 'undici';
import { systemClock } from '../src/clock.js';
import { loadConfig, type WebhookConfig } from '../src/config.js';
import { SecretBox } from '../src/crypto/secret-box.js';
import { generateEd25519KeyPair, privateKeyFromRaw, signWebhook } from '../src/crypto/webhook-signature.js';
import { openDatabase, type Database, type Executor } from '../src/db/database.js';
import { recordEvent } from '../src/domain/events/record-event.js';
import { newId } from '../src/domain/ids.js';
import { createIntegrator } from '../src/domain/integrators/integrators.js';
import { createSubscription } from '../src/domain/webhooks/subscriptions.js';
import { API_VERSION } from '../src/version.js';
import { startWebhookWorker, type WebhookWorker } from '../src/workers/webhook-worker.js';
import { provisionDatabase } from '../test/harness/backends.js';
import { BACKEND_LABEL, DEFAULT_POSTGRES_URL, postgresAnswers, type BackendKind } from './lib/backend.js';
import { exited, freePort, ROOT, startChild, stopAllChildren, stopChild, type Child } from './lib/children.js';
import { QUIET_PCT, waitForQuiet, watchCpu, type CpuFigures } from './lib/cpu.js';
import { runBench } from './lib/entry.js';
import type { GoalCheck } from './lib/report.js';
import { PEER_DEFAULTS, PgBossPeer, type RecordedEvent } from './peers/pg-boss.js';

function positiveInt(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new Error(`${name} must be a whole number ≥ ${min} (got "${raw}")`);
  return Number(raw);
}

const EVENTS = positiveInt('BENCH_EVENTS', 5000);
const BATCH = 100;
const WARMUP_EVENTS = 300;
const STEADY_RATE = positiveInt('BENCH_RATE', 500);
const DURATION_SECONDS = positiveInt('BENCH_DURATION', 10);
const QUIET_WAIT_SECONDS = positiveInt('BENCH_QUIET_WAIT', 30, 0);
const WORKER_PROCESSES = positiveInt('BENCH_WORKER_PROCESSES', 2, 0);
const PEER_WORKERS = positiveInt('BENCH_PEER_WORKERS', PEER_DEFAULTS.registrations);
/** Signatures timed for the floor's signing part (about 60 µs each). */
const SIGNATURES = 2000;
/**
 * Issue 20, round 2. The old "burst and drain ≥ 0.5 × bare" is retired: bare stays as a reference row.
 * CPU per delivery = (this process + receiver + PostgreSQL's backends) CPU-seconds / deliveries.
 */
const GOALS = { minDrainVsPeer: 2, maxCpuMsPerDelivery: 0.6, maxSteadyP99Ms: 250 };

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

/**
 * Who queues and delivers the events: ours (recordEvent's outbox, startWebhookWorker) or the peer (pg-boss jobs
 * sent in the event's transaction, its own work() loops).
 */
interface DeliveryPath {
  /** Queues the recorded event's deliveries in its transaction; absent for ours (recordEvent's outbox does it). */
  enqueue?(tx: Executor, event: RecordedEvent): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves once every delivery made so far is recorded (ours: succeeded rows; the peer: completed jobs). */
  waitRecorded(timeoutMs: number): Promise<void>;
}

/** Our worker, started and stopped as the phases need it. */
class OurPath implements DeliveryPath {
  private worker: WebhookWorker | undefined;

  constructor(private readonly s: Setup) {}

  async start(): Promise<void> {
    const { s } = this;
    this.worker = await startWebhookWorker({ database: s.database, secrets: s.secrets, clock: systemClock, config: s.config, log: s.log });
  }

  async stop(): Promise<void> {
    await this.worker?.stop();
    this.worker = undefined;
  }

  waitRecorded(timeoutMs: number): Promise<void> {
    return waitForRecorded(this.s.database, timeoutMs);
  }
}

/**
 * A subscription id no subscription has: events the peer delivers are written by the same recordEvent statement,
 * whose outbox part then queues nothing (the peer's jobs replace our outbox rows).
 */
const NO_OUTBOX = newId();

let eventCounter = 0;

/** Writes `n` events, `perTransaction` in each; returns id → createdAt (ms). */
async function writeEvents(s: Setup, n: number, perTransaction: number, created: Map<string, number>, path?: DeliveryPath): Promise<void> {
  for (let done = 0; done < n; done += perTransaction) {
    await s.database.db.transaction(async (tx) => {
      for (let j = done; j < Math.min(n, done + perTransaction); j++) await writeOne(tx, s, created, path);
    });
  }
}

async function writeOne(tx: Executor, s: Setup, created: Map<string, number>, path?: DeliveryPath): Promise<void> {
  const i = eventCounter++;
  const userId = newId();
  const at = new Date();
  const type = 'user.updated';
  const { id } = await recordEvent(tx, {
    integratorId: s.integratorId,
    type,
    objectType: 'user',
    objectId: userId,
    object: userObject(userId, i),
    previousAttributes: previousAttributes(i),
    at,
    ...(path?.enqueue ? { onlySubscriptionId: NO_OUTBOX } : {}),
  });
  await path?.enqueue?.(tx, { id, integratorId: s.integratorId, type });
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

type Phase = 'burst' | 'drain' | 'peer burst' | 'peer drain' | 'bare' | 'steady' | 'processes';
/** The phases whose deliveries/s the table sets beside the bare loop's (a reference: no goal). */
const COMPARED: Phase[] = ['burst', 'drain', 'peer burst', 'peer drain', 'processes'];
const phaseLabel = (p: Phase) => (p === 'processes' ? `drain, ${WORKER_PROCESSES} worker processes` : p);
/** The peer's delivery is at-least-once: its duplicates are counted, not failures. */
const atLeastOnce = (p: Phase) => p.startsWith('peer');

/** CPU-seconds over a measured window: this process, the receiver, PostgreSQL's backends, worker processes. */
interface CpuSeconds {
  bench: number;
  receiver: number;
  postgres: number;
  group: number;
}

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
  /** Undefined where /proc is not there. */
  cpuSeconds?: CpuSeconds;
  /** All of cpuSeconds, in ms, per event of the phase (burst and steady include writing the events). */
  cpuMsPerDelivery?: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

let allDelivered = true;

/**
 * Arrivals against the events written: latencies from createdAt, and any missing or duplicate delivery. A missing
 * one fails the run; a duplicate too, unless the path promises only at-least-once.
 */
function judge(created: Map<string, number>, taken: Taken, duplicatesAllowed: boolean): { latencies: number[]; missing: number; duplicates: number; lastArrival: number } {
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
  if (missing > 0 || (duplicates > 0 && !duplicatesAllowed) || first.size !== created.size) allDelivered = false;
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

interface CpuWatch {
  stop(): { cpu: CpuFigures; cpuSeconds?: CpuSeconds };
}

/** watchCpu over the bench's processes, also giving CPU-seconds (its figures are % of a core over the window). */
function cpuWatch(s: Setup, receiver: ReceiverClient, group?: number[]): CpuWatch {
  const watch = watchCpu({ serverPid: receiver.child.proc.pid!, pids: [receiver.child.proc.pid!], ...(group ? { group } : {}), ...(s.databaseName ? { database: s.databaseName } : {}) });
  const started = performance.now();
  return {
    stop: () => {
      const cpu = watch.stop();
      const seconds = (performance.now() - started) / 1000;
      if (cpu.loadGeneratorCpuPct === undefined) return { cpu };
      const of = (pct: number | undefined) => ((pct ?? 0) / 100) * seconds;
      return { cpu, cpuSeconds: { bench: of(cpu.loadGeneratorCpuPct), receiver: of(cpu.serverCpuPct), postgres: of(cpu.postgresCpuPct), group: of(cpu.groupCpuPct) } };
    },
  };
}

const totalCpuSeconds = (c: CpuSeconds) => c.bench + c.receiver + c.postgres + c.group;

/** A phase's CPU fields: the figures, the CPU-seconds and their sum per delivery. */
function cpuOf(measured: ReturnType<CpuWatch['stop']>, count: number): Pick<PhaseResult, 'cpu' | 'cpuSeconds' | 'cpuMsPerDelivery'> {
  const { cpu, cpuSeconds } = measured;
  return cpuSeconds ? { cpu, cpuSeconds, cpuMsPerDelivery: (totalCpuSeconds(cpuSeconds) * 1000) / count } : { cpu };
}

/** Waits for `count` arrivals, stops the CPU count, and judges the arrivals once every delivery is recorded. */
async function collect(receiver: ReceiverClient, created: Map<string, number>, count: number, cpu: CpuWatch, path: DeliveryPath, phase: Phase) {
  await receiver.waitFor(count, 120_000);
  const measured = cpu.stop();
  const taken = await receiver.take();
  await path.waitRecorded(30_000);
  return { cpuFields: cpuOf(measured, count), j: judge(created, taken, atLeastOnce(phase)) };
}

/** `n` events delivered and recorded, their figures thrown away: JIT, pools, keep-alive sockets, the receiver. */
async function warmUp(s: Setup, receiver: ReceiverClient, n: number, path: DeliveryPath): Promise<void> {
  await writeEvents(s, n, BATCH, new Map(), path);
  await receiver.waitFor(n, 60_000);
  await path.waitRecorded(30_000);
}

async function quiet(s: Setup, receiver: ReceiverClient): Promise<void> {
  if (QUIET_WAIT_SECONDS > 0) await waitForQuiet({ serverPid: receiver.child.proc.pid!, pids: [receiver.child.proc.pid!], ...(s.databaseName ? { database: s.databaseName } : {}) }, QUIET_WAIT_SECONDS);
}

/** Burst: events written while the path's worker runs. */
async function burst(s: Setup, receiver: ReceiverClient, path: DeliveryPath, phase: Phase): Promise<PhaseResult> {
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
    latencyP50Ms: percentile(j.latencies, 0.5),
    latencyP99Ms: percentile(j.latencies, 0.99),
    latencyMaxMs: j.latencies.at(-1)!,
    missing: j.missing,
    duplicates: j.duplicates,
    ...cpuFields,
  };
}

/** Drain: events queued with the path's worker stopped, then the worker started on them; it is left running. */
async function drain(s: Setup, receiver: ReceiverClient, path: DeliveryPath, phase: Phase): Promise<PhaseResult> {
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
async function drainByProcesses(s: Setup, receiver: ReceiverClient, ours: OurPath): Promise<PhaseResult> {
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
async function steady(s: Setup, receiver: ReceiverClient, ours: OurPath): Promise<PhaseResult> {
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
    latencyP50Ms: percentile(j.latencies, 0.5),
    latencyP99Ms: percentile(j.latencies, 0.99),
    latencyMaxMs: j.latencies.at(-1)!,
    missing: j.missing,
    duplicates: j.duplicates,
    ...cpuFields,
  };
}

/** The floor's parts beyond bare's HTTP request, measured in the same run. */
interface FloorParts {
  /** CPU of one Ed25519 signature (signWebhook) of a delivery-sized body in this process, ms. */
  signatureMs: number;
  signatures: number;
  bodyBytes: number;
  /** CPU of one minimal durable write, ms: (this process + PostgreSQL's backends) / single-row INSERTs committed. */
  writeMs?: number;
  writes: number;
  writeCpuSeconds?: CpuSeconds;
}

/** SIGNATURES signatures of a body like a delivery's, after a few to warm up; CPU time of this process each. */
function measureSignature(): Pick<FloorParts, 'signatureMs' | 'signatures' | 'bodyBytes'> {
  const key = privateKeyFromRaw(generateEd25519KeyPair().privateKey);
  const { headers, body } = bareDelivery();
  const id = headers['webhook-id']!;
  const timestamp = Number(headers['webhook-timestamp']);
  for (let i = 0; i < 100; i++) signWebhook([key], id, timestamp, body);
  const before = process.cpuUsage();
  for (let i = 0; i < SIGNATURES; i++) signWebhook([key], id, timestamp, body);
  const used = process.cpuUsage(before);
  return { signatureMs: (used.user + used.system) / 1000 / SIGNATURES, signatures: SIGNATURES, bodyBytes: Buffer.byteLength(body) };
}

/**
 * EVENTS single-row INSERTs into a two-column table (uuid primary key, timestamp), each committed on its own,
 * WEBHOOK_CONCURRENCY in flight: the least a delivery's durable record can cost per row when nothing is batched.
 */
async function measureDurableWrite(s: Setup, receiver: ReceiverClient): Promise<Pick<FloorParts, 'writeMs' | 'writes' | 'writeCpuSeconds'>> {
  const { db } = s.database;
  await db.execute(sql`create table if not exists bench_durable_writes (id uuid primary key, at timestamptz not null)`);
  await quiet(s, receiver);
  const cpu = cpuWatch(s, receiver);
  let next = 0;
  const loop = async () => {
    while (next < EVENTS) {
      next++;
      await db.execute(sql`insert into bench_durable_writes (id, at) values (${newId()}, now())`);
    }
  };
  await Promise.all(Array.from({ length: s.config.concurrency }, loop));
  const { cpuSeconds } = cpu.stop();
  if (!cpuSeconds) return { writes: EVENTS };
  // The receiver idles meanwhile: only this process (drizzle, the driver, or PGlite's engine) and PostgreSQL count.
  return { writes: EVENTS, writeMs: ((cpuSeconds.bench + cpuSeconds.postgres) * 1000) / EVENTS, writeCpuSeconds: cpuSeconds };
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

interface BackendRun {
  backend: BackendKind;
  results: PhaseResult[];
  floor: FloorParts;
  /** The peer's settings, when it ran (PostgreSQL). */
  peer?: Record<string, unknown>;
}

async function startPeer(s: Setup): Promise<PgBossPeer> {
  return PgBossPeer.create({
    databaseUrl: s.databaseUrl!,
    database: s.database,
    secrets: s.secrets,
    concurrency: s.config.concurrency,
    timeoutMs: s.config.timeoutMs,
    registrations: PEER_WORKERS,
    onError: (err) => s.log.error({ err }, 'pg-boss peer'),
  });
}

async function benchBackend(kind: BackendKind, receiver: ReceiverClient, postgresUrl: string | undefined): Promise<BackendRun> {
  console.error(`\n== database: ${BACKEND_LABEL[kind]} ==`);
  const s = await setUp(kind, receiver, postgresUrl);
  const ours = new OurPath(s);
  let peer: PgBossPeer | undefined;
  let peerSettings: Record<string, unknown> | undefined;
  try {
    await ours.start();
    await warmUp(s, receiver, WARMUP_EVENTS, ours);
    await bare(s, receiver, WARMUP_EVENTS, false);

    const results: PhaseResult[] = [];
    const step = (r: PhaseResult) => {
      console.error(`  ${phaseLabel(r.phase)}: ${fmt(r.perSec)}/s${r.latencyP99Ms !== undefined ? `, p50 ${r.latencyP50Ms} ms, p99 ${r.latencyP99Ms} ms` : ''}`);
      results.push(r);
    };
    step(await burst(s, receiver, ours, 'burst'));
    step(await drain(s, receiver, ours, 'drain'));
    if (s.databaseUrl) {
      // Only one of the two delivers at a time: our worker idles while the peer runs, and the other way round.
      await ours.stop();
      peer = await startPeer(s);
      await peer.start();
      await warmUp(s, receiver, WARMUP_EVENTS, peer);
      step(await burst(s, receiver, peer, 'peer burst'));
      step(await drain(s, receiver, peer, 'peer drain'));
      peerSettings = peer.settings();
      // Closed now, so its maintenance timer and pool do not run beside the phases that follow.
      await peer.close();
      peer = undefined;
      await ours.start();
    }
    step((await bare(s, receiver, EVENTS))!);
    const floor = { ...measureSignature(), ...(await measureDurableWrite(s, receiver)) };
    step(await steady(s, receiver, ours));
    if (s.databaseUrl && WORKER_PROCESSES > 0) {
      await ours.stop();
      step(await drainByProcesses(s, receiver, ours));
    }
    if (s.log.warnings + s.log.errors > 0) console.error(`  worker logged ${s.log.warnings} warning(s), ${s.log.errors} error(s)`);
    return { backend: kind, results, floor, ...(peerSettings ? { peer: peerSettings } : {}) };
  } finally {
    await ours.stop();
    await peer?.close();
    await s.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Report

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (n: number | undefined) => (n === undefined ? '' : `${n.toFixed(0)} %`);
const ms = (n: number | undefined) => (n === undefined ? 'n/a' : n.toFixed(3));

/** The computed floor of CPU per delivery: bare's request (client + receiver) + one signature + one durable write. */
function floorOf(run: BackendRun): { ms: number; bareMs: number } | undefined {
  const bareMs = run.results.find((r) => r.phase === 'bare')?.cpuMsPerDelivery;
  const { signatureMs, writeMs } = run.floor;
  return bareMs === undefined || writeMs === undefined ? undefined : { ms: bareMs + signatureMs + writeMs, bareMs };
}

function checksOf(run: BackendRun): GoalCheck[] {
  const of = (phase: Phase) => run.results.find((r) => r.phase === phase);
  const checks: GoalCheck[] = [];
  const drained = of('drain');
  const peerDrained = of('peer drain');
  if (drained && peerDrained) {
    const ratio = drained.perSec / peerDrained.perSec;
    checks.push({ backend: run.backend, what: 'drain / peer drain deliveries/s', value: ratio, goal: `>= ${GOALS.minDrainVsPeer}`, pass: ratio >= GOALS.minDrainVsPeer });
  }
  // On PostgreSQL, where the worker, the receiver and the database are separate processes (cpuLines shows PGlite's).
  if (drained && run.backend === 'postgres') {
    const value = drained.cpuMsPerDelivery;
    const floor = floorOf(run);
    checks.push({
      backend: run.backend,
      what: 'drain CPU ms per delivery',
      value,
      goal: `<= ${GOALS.maxCpuMsPerDelivery}`,
      pass: value === undefined ? undefined : value <= GOALS.maxCpuMsPerDelivery,
      ...(floor ? { note: `floor ${ms(floor.ms)} ms` } : {}),
    });
  }
  const st = of('steady');
  // The goal is PostgreSQL's (issue 20); PGlite's figure is shown beside it, unjudged: one engine on one thread
  // writes the events and records the deliveries.
  if (st) {
    const judged = run.backend === 'postgres';
    checks.push({
      backend: run.backend,
      what: `steady ${STEADY_RATE}/s p99 ms`,
      value: st.latencyP99Ms,
      goal: `< ${GOALS.maxSteadyP99Ms}`,
      pass: judged ? st.latencyP99Ms! < GOALS.maxSteadyP99Ms : undefined,
      ...(judged ? {} : { note: 'the goal is for PostgreSQL' }),
    });
  }
  return checks;
}

const mark = (pass: boolean | undefined) => (pass === undefined ? 'n/a' : pass ? 'PASS' : 'MISS');

function tableLines(runs: BackendRun[]): { lines: string[]; warnings: string[] } {
  const lines = [
    `| Database | Phase | Events | deliveries/s | written/s | latency p50 / p99 / max | vs bare | CPU ms / delivery | bench proc CPU | receiver CPU | PostgreSQL CPU | others CPU |`,
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const warnings: string[] = [];
  for (const run of runs) {
    const bareRun = run.results.find((b) => b.phase === 'bare');
    for (const r of run.results) {
      const db = BACKEND_LABEL[r.backend];
      const vsBare = COMPARED.includes(r.phase) && bareRun ? (r.perSec / bareRun.perSec).toFixed(2) : '';
      const latency = r.latencyP50Ms !== undefined ? `${fmt(r.latencyP50Ms)} / ${fmt(r.latencyP99Ms!)} / ${fmt(r.latencyMaxMs!)} ms` : '';
      const benchCpu = r.cpu.groupCpuPct !== undefined ? `${pct(r.cpu.groupCpuPct)} (processes)` : pct(r.cpu.loadGeneratorCpuPct);
      lines.push(
        `| ${db} | ${phaseLabel(r.phase)} | ${fmt(r.count)} | ${r.phase === 'steady' ? '' : fmt(r.perSec)} | ${r.writtenPerSec ? fmt(r.writtenPerSec) : ''} | ${latency} | ${vsBare} | ${r.cpuMsPerDelivery === undefined ? '' : ms(r.cpuMsPerDelivery)} | ${benchCpu} | ${pct(r.cpu.serverCpuPct)} | ${pct(r.cpu.postgresCpuPct)} | ${pct(r.cpu.otherCpuPct)} |`,
      );
      if (r.missing || (r.duplicates && !atLeastOnce(r.phase))) warnings.push(`FAIL ${db} ${phaseLabel(r.phase)}: ${r.missing} missing, ${r.duplicates} duplicate deliveries`);
      else if (r.duplicates) warnings.push(`note: ${db} ${phaseLabel(r.phase)}: ${r.duplicates} duplicate deliveries (at-least-once: a failed batch is retried whole)`);
      if ((r.cpu.otherCpuPct ?? 0) > QUIET_PCT) warnings.push(`warning: ${db} ${phaseLabel(r.phase)} measured while other processes used ${pct(r.cpu.otherCpuPct)} CPU (busiest: ${r.cpu.otherBusiest})`);
    }
  }
  return { lines, warnings };
}

/** CPU per delivery of the two drains, and the floor with its formula and parts. */
function cpuLines(run: BackendRun): string[] {
  const db = BACKEND_LABEL[run.backend];
  const lines: string[] = [];
  // PGlite's engine runs inside this process: there is no PostgreSQL part to show.
  const inProcess = run.backend === 'pglite';
  for (const r of run.results.filter((p) => p.phase === 'drain' || p.phase === 'peer drain')) {
    const c = r.cpuSeconds;
    if (!c) continue;
    const each = (seconds: number) => ms((seconds * 1000) / r.count);
    const database = inProcess ? '' : ` + PostgreSQL ${each(c.postgres)}`;
    lines.push(`${db} ${r.phase}: ${ms(r.cpuMsPerDelivery)} ms = this process ${each(c.bench)}${inProcess ? ' (PGlite in it)' : ''} + receiver ${each(c.receiver)}${database}`);
  }
  const floor = floorOf(run);
  const f = run.floor;
  if (floor) {
    const each = (seconds: number) => ms((seconds * 1000) / f.writes);
    const w = f.writeCpuSeconds;
    const writeParts = !w ? '' : inProcess ? ' (this process, PGlite in it)' : ` (this process ${each(w.bench)} + PostgreSQL ${each(w.postgres)})`;
    lines.push(
      `${db} floor: ${ms(floor.ms)} ms = bare ${ms(floor.bareMs)} (undici POST + receiver, no database, no signing)` +
        ` + Ed25519 signature ${ms(f.signatureMs)} (${fmt(f.signatures)} signatures of a ${fmt(f.bodyBytes)}-byte body)` +
        ` + durable write ${ms(f.writeMs)}${writeParts} (${fmt(f.writes)} single-row INSERTs, each committed alone, ${concurrencyOf()} in flight)`,
    );
  }
  return lines;
}

const concurrencyOf = () => loadConfig({ APP_ENV: 'sandbox', ...(process.env.WEBHOOK_CONCURRENCY ? { WEBHOOK_CONCURRENCY: process.env.WEBHOOK_CONCURRENCY } : {}) }).webhooks.concurrency;

function peerSummary(runs: BackendRun[]): string {
  const peer = runs.find((r) => r.peer)?.peer;
  if (!peer) return 'peer: not run (PostgreSQL only)';
  const sizes = peer.batchSizes as number[];
  return `peer: pg-boss 10, ${sizes.length} work() loops of batchSize ${sizes.join('/')}, pollingIntervalSeconds ${String(peer.pollingIntervalSeconds)}, notifyWorker after a full batch, pool ${String(peer.poolMax)}, schedule off, supervise on`;
}

function printReport(runs: BackendRun[], notes: string[]): void {
  const { lines, warnings } = tableLines(runs);
  const checks = runs.flatMap(checksOf).map((c) => {
    const value = c.value === undefined ? 'n/a' : c.what.includes('CPU') ? ms(c.value) : Number.isInteger(c.value) ? String(c.value) : c.value.toFixed(2);
    return `${BACKEND_LABEL[c.backend].padEnd(11)} ${c.what.padEnd(34)} ${value.padStart(7)}   goal ${c.goal.padEnd(7)} ${mark(c.pass)}${c.note ? `  (${c.note})` : ''}`;
  });
  console.log(`\nWebhook delivery, concurrency ${concurrencyOf()}, ${EVENTS} events per burst/drain/bare, steady ${STEADY_RATE}/s for ${DURATION_SECONDS} s; ${peerSummary(runs)}\n`);
  console.log(lines.join('\n'));
  console.log(
    [
      '',
      "CPU per delivery = (this process + receiver + PostgreSQL's backends of the bench database) CPU-seconds / deliveries, from /proc over the phase;",
      'floor = bare + one signature + one durable write, all measured in this run (burst and steady rows include writing the events).',
      ...runs.flatMap(cpuLines),
      '',
      'goals',
      ...checks,
      'vs bare: a reference only (the 0.5 x bare goal is retired).',
      ...warnings,
      ...notes,
    ].join('\n'),
  );
}

/** bench/results/webhooks-latest.json: the settings, every phase's figures, the floor's parts and the goal checks. */
function writeReport(runs: BackendRun[]): void {
  const report = {
    at: new Date().toISOString(),
    node: process.version,
    cpus: availableParallelism(),
    settings: { events: EVENTS, perTransaction: BATCH, steadyRate: STEADY_RATE, durationSeconds: DURATION_SECONDS, concurrency: concurrencyOf(), quietWaitSeconds: QUIET_WAIT_SECONDS, workerProcesses: WORKER_PROCESSES },
    goals: GOALS,
    runs: runs.map((run) => ({ ...run, floorMs: floorOf(run)?.ms, checks: checksOf(run).map(({ backend: _b, ...c }) => c) })),
    allDelivered,
  };
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/results/webhooks-latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.error('wrote bench/results/webhooks-latest.json');
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
  // Up to 8 quiet waits and 7 waits for arrivals (2 min each) per database.
  const budgetMs = (60 + kinds.length * (8 * QUIET_WAIT_SECONDS + DURATION_SECONDS + 7 * 120)) * 1000;
  setTimeout(() => {
    console.error(`bench: exceeded ${budgetMs / 1000} s overall; aborting`);
    void stopAllChildren().finally(() => process.exit(1));
  }, budgetMs).unref();

  const receiver = await startReceiver();
  const runs: BackendRun[] = [];
  try {
    for (const kind of kinds) runs.push(await benchBackend(kind, receiver, postgresUrl));
  } finally {
    await stopChild(receiver.child);
  }
  if (!kinds.includes('postgres')) notes.push('note: the pg-boss peer runs on PostgreSQL only (BENCH_BACKENDS=postgres or both)');
  printReport(runs, notes);
  writeReport(runs);
  return allDelivered ? 0 : 1;
}

if (process.argv[2] === '--receiver') {
  runReceiver(Number(process.argv[3]));
} else {
  await runBench('bench', main, stopAllChildren);
}
