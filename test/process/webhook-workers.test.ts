import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { SecretBox } from '../../src/crypto/secret-box.js';
import type { Database } from '../../src/db/database.js';
import { recordEvent } from '../../src/domain/events/record-event.js';
import { newId } from '../../src/domain/ids.js';
import { createIntegrator } from '../../src/domain/integrators/integrators.js';
import { createSubscription } from '../../src/domain/webhooks/subscriptions.js';
import { postgresUrl } from '../harness/backends.js';
import { openTestDatabase, statementsWaitingOnLocks } from '../harness/db.js';
import { entryPoint, freePort } from '../harness/process.js';
import { ROOT_URL as ROOT } from '../harness/root.js';

/*
 * Standalone webhook workers (`src/worker-main.ts`, each its own process) against one PostgreSQL database:
 * claims are exclusive across processes, and a worker killed mid-burst loses nothing (its leased deliveries are
 * taken over once the lease ends). Several processes cannot share the embedded database, so PostgreSQL only.
 */

const CHANNEL_LISTEN = 'listen webhook_deliveries';
const CONCURRENCY = 32;

interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  output(): string;
}

interface Arrival {
  webhookId: string;
  /** The worker's local port: which connection (hence which process) sent it. */
  remotePort: number;
}

interface Receiver {
  url: string;
  port: number;
  arrivals: Arrival[];
  close(): Promise<void>;
}

const workers: WorkerProcess[] = [];
const receivers: Receiver[] = [];
const cleanups: (() => Promise<void>)[] = [];

function startWorker(env: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, entryPoint('src/worker-main.ts'), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (c: Buffer) => (out = (out + c.toString()).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const worker = { child, pid: child.pid!, output: () => out };
  workers.push(worker);
  return worker;
}

function alive(w: WorkerProcess): boolean {
  return w.child.exitCode === null && w.child.signalCode === null;
}

async function stopWorker(w: WorkerProcess): Promise<void> {
  if (!alive(w)) return;
  const exited = once(w.child, 'exit');
  w.child.kill('SIGTERM');
  const timer = setTimeout(() => w.child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/**
 * A local endpoint answering 200 (after `delayMs`, or once `hold` settles), recording each delivery's webhook-id
 * and connection.
 */
async function startReceiver(opts: { delayMs?: number; hold?: Promise<void>; onArrival?: (count: number) => void } = {}): Promise<Receiver> {
  const arrivals: Arrival[] = [];
  const server = http.createServer((req, res) => {
    arrivals.push({ webhookId: String(req.headers['webhook-id']), remotePort: req.socket.remotePort ?? 0 });
    opts.onArrival?.(arrivals.length);
    req.resume();
    req.on('end', () => {
      const answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      if (opts.hold) void opts.hold.then(answer);
      else if (opts.delayMs) setTimeout(answer, opts.delayMs);
      else answer();
    });
  });
  // Keep the workers' connections open for the whole test (they identify the sending process, see below).
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  receivers.push(receiver);
  return receiver;
}

/** Polls `condition` until it holds, failing with `describe()` after `timeoutMs`. */
async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs: number, describe: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}. ${describe()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function scalar(database: Database, query: ReturnType<typeof sql>): Promise<number> {
  const result = (await database.db.execute(query)) as unknown as { rows: { n: number | string }[] };
  return Number(result.rows[0]!.n);
}

/** Waits until `count` worker processes hold a LISTEN connection on this database (they are then ready). */
async function listening(database: Database, name: string, count: number, ws: WorkerProcess[]): Promise<void> {
  await until(
    `${count} worker(s) listening`,
    async () => {
      for (const w of ws) if (!alive(w)) assert.fail(`worker ${w.pid} exited early (${w.child.exitCode ?? w.child.signalCode}):\n${w.output()}`);
      return (await scalar(database, sql`select count(*)::int as n from pg_stat_activity where datname = ${name} and query = ${CHANNEL_LISTEN}`)) === count;
    },
    30_000,
    () => ws.map((w) => w.output()).join('\n'),
  );
}

interface Setup {
  database: Database;
  name: string;
  workerEnv: Record<string, string>;
  integratorId: string;
}

/** A fresh database with an integrator subscribed to user.updated at `receiverUrl`, and the workers' environment. */
async function setUp(receiverUrl: string, extraEnv: Record<string, string> = {}): Promise<Setup> {
  const { database, target, close } = await openTestDatabase('postgres'); // migrated before any worker starts
  cleanups.push(close);
  if (target.kind !== 'postgres') throw new Error('expected postgres');
  const key = randomBytes(32);
  const now = new Date();
  const { integratorId } = await createIntegrator(database, { name: 'Webhook workers', scope: 'read_write' }, now);
  await createSubscription(
    { db: database, actor: { integratorId, kind: 'integrator' }, now, secrets: new SecretBox(key), policy: { highRiskCountries: new Set() } },
    { name: 'receiver', url: receiverUrl, eventTypes: ['user.updated'] },
    { rules: { allowPrivate: true } },
  );
  return {
    database,
    name: new URL(target.url).pathname.slice(1),
    integratorId,
    workerEnv: {
      DATABASE_URL: target.url,
      ENCRYPTION_KEY: key.toString('hex'),
      APP_ENV: 'sandbox',
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_CONCURRENCY: String(CONCURRENCY),
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
  };
}

/** `n` user.updated events, `batch` per transaction (each commit queues and NOTIFYs its deliveries). */
async function burst(s: Setup, n: number, batch = 100): Promise<string[]> {
  const ids: string[] = [];
  for (let done = 0; done < n; done += batch) {
    await s.database.db.transaction(async (tx) => {
      for (let i = done; i < Math.min(n, done + batch); i++) {
        const userId = newId();
        const { id } = await recordEvent(tx, {
          integratorId: s.integratorId,
          type: 'user.updated',
          objectType: 'user',
          objectId: userId,
          object: { userId, userInfo: { email: `user${i}@example.com`, firstName: 'Maria', lastName: 'Garcia' } },
          previousAttributes: { userInfo: { email: `old${i}@example.com` } },
          at: new Date(),
        });
        ids.push(id);
      }
    });
  }
  return ids;
}

async function deliveryStates(database: Database): Promise<{ status: string; attempts: number; n: number }[]> {
  const result = (await database.db.execute(
    sql`select status, attempts, count(*)::int as n from webhook_deliveries group by status, attempts order by status, attempts`,
  )) as unknown as { rows: { status: string; attempts: number; n: number }[] };
  return result.rows.map((r) => ({ status: r.status, attempts: Number(r.attempts), n: Number(r.n) }));
}

/**
 * The local ports of `pid`'s open TCP connections to `remotePort` (Linux /proc), or undefined where /proc
 * is not available. With the receiver keeping connections alive, this attributes each arrival to a process.
 */
function localPortsOf(pid: number, remotePort: number): Set<number> | undefined {
  try {
    const inodes = new Set<string>();
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]!);
      } catch {
        // closed meanwhile
      }
    }
    const ports = new Set<number>();
    for (const table of ['tcp', 'tcp6']) {
      let text: string;
      try {
        text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
      } catch {
        continue;
      }
      for (const line of text.split('\n').slice(1)) {
        const f = line.trim().split(/\s+/);
        if (f.length < 10) continue;
        const local = parseInt(f[1]!.split(':')[1]!, 16);
        const remote = parseInt(f[2]!.split(':')[1]!, 16);
        if (remote === remotePort && inodes.has(f[9]!)) ports.add(local);
      }
    }
    return ports;
  } catch {
    return undefined;
  }
}

function countBy<T>(items: T[]): Map<T, number> {
  const counts = new Map<T, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
}

describe('standalone webhook workers on one PostgreSQL database', { skip: postgresUrl() ? false : 'needs PostgreSQL (set TEST_DATABASE_URL): several worker processes cannot share the embedded database' }, () => {
  after(async () => {
    await Promise.all(workers.map(stopWorker));
    await Promise.all(receivers.map((r) => r.close()));
    for (const cleanup of cleanups) await cleanup();
  });

  it('two workers deliver a burst of 2,000 events exactly once each, sharing the work', async () => {
    const EVENTS = 2000;
    const receiver = await startReceiver();
    const s = await setUp(receiver.url);
    // Each serves its own metrics (METRICS_PORT).
    const metricsPorts = [await freePort(), await freePort()];
    const pair = metricsPorts.map((port) => startWorker({ ...s.workerEnv, METRICS_PORT: String(port) }));
    await listening(s.database, s.name, 2, pair);
    const metricsUrls = metricsPorts.map((port) => `http://127.0.0.1:${port}/metrics`);

    const eventIds = await burst(s, EVENTS);
    const progress = () => `arrivals: ${receiver.arrivals.length}\n${pair.map((w) => w.output()).join('\n')}`;
    await until('every delivery to arrive', () => receiver.arrivals.length >= EVENTS, 45_000, progress);
    await until('every delivery to be recorded', async () => (await scalar(s.database, sql`select count(*)::int as n from webhook_deliveries where status <> 'succeeded'`)) === 0, 15_000, progress);

    const perId = countBy(receiver.arrivals.map((a) => a.webhookId));
    const twice = [...perId].filter(([, n]) => n > 1);
    assert.deepEqual(twice, [], 'a delivery arrived more than once: two workers claimed it');
    assert.equal(receiver.arrivals.length, EVENTS);
    assert.deepEqual([...perId.keys()].sort(), [...eventIds].sort());
    assert.deepEqual(await deliveryStates(s.database), [{ status: 'succeeded', attempts: 1, n: EVENTS }]);
    assert.equal(await scalar(s.database, sql`select count(*)::int as n from webhook_attempts where success`), EVENTS);
    assert.equal(await scalar(s.database, sql`select count(*)::int as n from webhook_attempts`), EVENTS);

    // Which process sent what: each worker's open connections to the receiver, by local port.
    const byPort = countBy(receiver.arrivals.map((a) => a.remotePort));
    const shares = pair.map((w) => {
      const ports = localPortsOf(w.pid, receiver.port);
      return ports && [...ports].reduce((sum, p) => sum + (byPort.get(p) ?? 0), 0);
    });
    if (shares.every((n) => n !== undefined)) {
      assert.ok(
        shares.every((n) => n! > 0),
        `each worker should deliver a share; by process: ${shares.join(' / ')} of ${EVENTS}`,
      );
    }
    for (const w of pair) assert.ok(alive(w), `worker ${w.pid} died:\n${w.output()}`);

    // Each worker counts its own attempts (GET /metrics on METRICS_PORT): together, one per event.
    const delivered = await Promise.all(
      metricsUrls.map(async (url) => {
        const text = await (await fetch(url)).text();
        return Number(/^webhook_delivery_attempts_total\{outcome="delivered"\} (\d+)$/m.exec(text)?.[1] ?? 0);
      }),
    );
    assert.equal(delivered[0]! + delivered[1]!, EVENTS, `delivered per worker: ${delivered.join(' / ')}`);
  });

  it('a worker killed with SIGKILL mid-burst loses nothing: another takes its leases over', async () => {
    const EVENTS = 500;
    const KILL_AT = 100;
    const toKill: { worker?: WorkerProcess } = {};
    let killedAtArrival = 0;
    // Slow answers keep a full window of deliveries in flight at the moment of the kill.
    const receiver = await startReceiver({
      delayMs: 20,
      onArrival: (n) => {
        if (n === KILL_AT && toKill.worker) {
          toKill.worker.child.kill('SIGKILL');
          killedAtArrival = n;
        }
      },
    });
    // Short attempts and leases, so the killed worker's claims come due within seconds.
    const s = await setUp(receiver.url, { WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_LEASE_SECONDS: '2' });
    const first = (toKill.worker = startWorker(s.workerEnv));
    await listening(s.database, s.name, 1, [first]);

    const writing = burst(s, EVENTS);
    writing.catch(() => {}); // awaited below
    await until(`the first worker to be killed at arrival ${KILL_AT}`, () => !alive(first), 30_000, () => `arrivals: ${receiver.arrivals.length}\n${first.output()}`);
    assert.equal(first.child.signalCode, 'SIGKILL', first.output());
    assert.equal(killedAtArrival, KILL_AT);
    const claimedAtKill = await scalar(s.database, sql`select count(*)::int as n from webhook_deliveries where status = 'pending' and claim_token is not null`);
    // A worker holds at most 3 × its concurrency: claimed ahead, in flight, and sent but not yet recorded.
    assert.ok(claimedAtKill > 0 && claimedAtKill <= 3 * CONCURRENCY, `claims held by the killed worker: ${claimedAtKill}`);

    // PostgreSQL has closed the dead process's sessions (its LISTEN among them) before the replacement starts.
    await listening(s.database, s.name, 0, []);
    const arrivedBeforeReplacement = receiver.arrivals.length;
    const second = startWorker(s.workerEnv);
    await listening(s.database, s.name, 1, [second]);
    const eventIds = await writing;
    const progress = () => `arrivals: ${receiver.arrivals.length}\n${second.output()}`;
    await until('every delivery to be recorded', async () => (await scalar(s.database, sql`select count(*)::int as n from webhook_deliveries where status <> 'succeeded'`)) === 0, 30_000, progress);

    const perId = countBy(receiver.arrivals.map((a) => a.webhookId));
    const missing = eventIds.filter((id) => !perId.has(id));
    assert.deepEqual(missing, [], 'some events never arrived');
    assert.equal(perId.size, EVENTS);
    // At-least-once: only deliveries the killed worker had already sent may arrive a second time.
    const duplicates = [...perId].filter(([, n]) => n > 1).map(([id]) => id);
    assert.ok(duplicates.length <= claimedAtKill, `${duplicates.length} duplicates, but the killed worker held only ${claimedAtKill} claims`);
    assert.ok(
      duplicates.every((id) => perId.get(id) === 2),
      'a delivery arrived more than twice',
    );
    const firstArrival = new Map<string, number>();
    receiver.arrivals.forEach((a, i) => firstArrival.has(a.webhookId) || firstArrival.set(a.webhookId, i));
    for (const id of duplicates) assert.ok(firstArrival.get(id)! < arrivedBeforeReplacement, `duplicate ${id} was first sent by the replacement worker`);
    // The killed worker's unfinished attempts were never recorded: every row shows one (successful) attempt.
    assert.deepEqual(await deliveryStates(s.database), [{ status: 'succeeded', attempts: 1, n: EVENTS }]);
    assert.ok(alive(second), second.output());
  });

  it('a worker stopped with SIGTERM gives its unstarted claims back at once, taking their subscription first (the API\'s lock order)', async () => {
    const WORKER_CONCURRENCY = 2;
    let answer!: () => void;
    const receiver = await startReceiver({ hold: new Promise<void>((resolve) => (answer = resolve)) });
    // The default lease (timeout + 30 s) outlasts the test: only the worker's release can return a claim now.
    const s = await setUp(receiver.url, { WEBHOOK_CONCURRENCY: String(WORKER_CONCURRENCY) });
    const worker = startWorker(s.workerEnv);
    await listening(s.database, s.name, 1, [worker]);
    await burst(s, 10);
    const progress = () => `arrivals: ${receiver.arrivals.length}\n${worker.output()}`;
    const claimed = sql`select count(*)::int as n from webhook_deliveries where claim_token is not null`;
    // Two in flight (their answers held) and two more claimed ahead, waiting for a slot.
    await until('the worker to fill its slots and claim ahead', async () => receiver.arrivals.length === WORKER_CONCURRENCY && (await scalar(s.database, claimed)) === 2 * WORKER_CONCURRENCY, 15_000, progress);
    const sent = new Set(receiver.arrivals.map((a) => a.webhookId));

    const exited = once(worker.child, 'exit');
    await s.database.db.transaction(async (tx) => {
      // As PATCH and DELETE do: the subscription first. The stopping worker must wait for it before it touches
      // a delivery, or the two could each hold what the other needs next.
      await tx.execute(sql`select id from webhook_subscriptions for update`);
      worker.child.kill('SIGTERM');
      await until('the worker to wait for the subscription before giving its claims back', async () => (await statementsWaitingOnLocks(s.database, '%from "webhook_subscriptions"%for key share%')) === 1, 15_000, progress);
      assert.equal(await scalar(s.database, claimed), 2 * WORKER_CONCURRENCY, 'no claim was given back before the subscription was taken');
    });
    await exited;
    answer();
    assert.equal(worker.child.exitCode, 0, worker.output());

    const rows = (await s.database.db.execute(
      sql`select event_id, status, attempts, claim_token, next_attempt_at <= now() as due from webhook_deliveries order by event_id`,
    )) as unknown as { rows: { event_id: string; status: string; attempts: number; claim_token: string | null; due: boolean }[] };
    assert.equal(rows.rows.length, 10);
    assert.deepEqual(rows.rows.filter((r) => r.claim_token !== null), [], 'every claim was given back or recorded');
    // The two in flight were cut after the stop's grace and recorded as failed attempts, to be retried.
    assert.deepEqual(rows.rows.filter((r) => sent.has(r.event_id)).map((r) => [r.status, Number(r.attempts)]), [['pending', 1], ['pending', 1]]);
    // Every other one, the two claimed ahead among them, is due now rather than at the end of a lease.
    const unsent = rows.rows.filter((r) => !sent.has(r.event_id));
    assert.deepEqual(unsent.map((r) => [r.status, Number(r.attempts), r.due]), Array.from({ length: 8 }, () => ['pending', 0, true]));
  });
});
