import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import { sql, type SQL } from 'drizzle-orm';
import { createClient, type ApiResponse, type Client } from '../harness/client.js';
import { openDatabase, selectRows, type Database, type DatabaseTarget } from '../../src/db/database.js';
import { postgresUrl, provisionDatabase } from '../harness/backends.js';
import { eventually } from '../harness/eventually.js';
import { californian, signedAt } from '../harness/fixtures.js';
import { entryPoint, runAdmin, startServerProcess, type ServerProcess } from '../harness/process.js';
import { seededDataDir } from '../harness/pglite-template.js';
import { ROOT_URL as ROOT } from '../harness/root.js';

/*
 * Crash rounds (issue 19, "Faults"): `kill -9` of the API, and of a standalone webhook worker, under a mixed load of
 * signed writes, CRASH_ROUNDS times (3 by default, 10 in CI: .ci/run). Afterwards a final server (and workers)
 * delivers what the killed ones left, stops, and the database is read directly:
 *
 *   (a) every write answered 2xx is in the database,
 *   (b) with its event(s); and every write whose request died with the process (no answer: either outcome is
 *       allowed) is all or nothing: every user, account and credential has its `*.created` event and every such
 *       event its row, and each user's and credential's current state is the one its last event shows,
 *   (c) no gap in the event sequence: `events.sequence` counts per object (there is no per-integrator number),
 *       so every object's events are numbered 1..n and `event_sequences.last` is n,
 *   (d) every event that has a delivery for the test's subscription (`*`, to a local receiver) reached the
 *       receiver at least once (the webhook-id header is the event id), and nothing else did.
 *
 * API rounds run on PGlite (a DATA_DIR in a temporary folder) and on PostgreSQL (a fresh database; skipped without
 * TEST_DATABASE_URL). The server runs its webhook worker in its own process (and its transaction watcher, which
 * starts only with chains configured: none here), so the kill takes them down with it. The embedded database can
 * be opened by one process only, so on PGlite there is no standalone worker to kill: the worker rounds run on
 * PostgreSQL only, the API started with WEBHOOK_WORKER=0 so that the `npm run worker` processes deliver everything.
 */

const ROUNDS = Number(process.env.CRASH_ROUNDS || 3);

/**
 * Short attempts, leases and retries, so that what a killed process held is taken over within seconds. Not shorter:
 * a lease must also outlast recording the answer, which on a busy machine (PGlite's one connection shared with the
 * load) took more than a second, and a lease ending first gets the delivery sent again by the same process.
 */
const FAST_WEBHOOKS = {
  WEBHOOK_ALLOW_PRIVATE: '1',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_LEASE_SECONDS: '5',
  WEBHOOK_RETRY_SCHEDULE: '0.2,0.5,1,1,1,2,2,2',
};

const children: ChildProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  // After a failure some processes may still run: they go first, then their folders, receivers and databases.
  await Promise.all(
    children
      .filter((child) => child.exitCode === null && child.signalCode === null)
      .map((child) => {
        const exited = once(child, 'exit');
        child.kill('SIGKILL');
        return exited;
      }),
  );
  for (const cleanup of cleanups.reverse()) await cleanup();
});

// ---------------------------------------------------------------------------------------------------------------
// The receiver: answers 200 (after up to maxDelayMs, so deliveries are in flight when a worker dies) and counts
// arrivals per webhook-id.

interface HookReceiver {
  url: string;
  arrivals: Map<string, number>;
  total(): number;
  /** Requests arrived and not answered yet: deliveries in flight. */
  inFlight(): number;
  close(): Promise<void>;
}

async function startHookReceiver(maxDelayMs = 0): Promise<HookReceiver> {
  const arrivals = new Map<string, number>();
  let total = 0;
  let open = 0;
  const server = http.createServer((req, res) => {
    const id = String(req.headers['webhook-id']);
    arrivals.set(id, (arrivals.get(id) ?? 0) + 1);
    total++;
    open++;
    res.once('close', () => open--);
    req.resume();
    req.on('end', () => {
      const answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      if (maxDelayMs > 0) setTimeout(answer, Math.random() * maxDelayMs);
      else answer();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const receiver: HookReceiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    total: () => total,
    inFlight: () => open,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  cleanups.push(receiver.close);
  return receiver;
}

// ---------------------------------------------------------------------------------------------------------------
// The load: concurrent loops of signed writes; what was answered 2xx is written down, what got no answer counted.

interface Ledger {
  users: { userId: string; accountId: string }[];
  /** update-user answered 200: the user's firstName was set to this (and a user.updated event says so). */
  renames: { userId: string; firstName: string }[];
  credentials: { credentialId: string; publicKey: string }[];
  relabels: { credentialId: string; label: string }[];
  /** Requests that got no answer (the process died under them): either outcome is allowed. */
  unanswered: number;
  /** Answers other than the expected 2xx, by `<operation> <status>`. */
  refused: Map<string, number>;
}

const newLedger = (): Ledger => ({ users: [], renames: [], credentials: [], relabels: [], unanswered: 0, refused: new Map() });
const acknowledged = (l: Ledger) => l.users.length + l.renames.length + l.credentials.length + l.relabels.length;

let serial = 0;
const pick = <T>(items: T[]): T | undefined => items[Math.floor(Math.random() * items.length)];

interface Load {
  /**
   * Resolves once every loop has had an answer in this round (the load is really running, all six loops of it);
   * rejects when a request fails before the kill (the server died on its own).
   */
  started: Promise<void>;
  /** Stops issuing requests and waits for the ones in flight to settle. */
  stop(): Promise<void>;
}

function startLoad(client: Client, ledger: Ledger): Load {
  let running = true;
  let markStarted!: () => void;
  let failStarted!: (err: Error) => void;
  const started = new Promise<void>((resolve, reject) => ((markStarted = resolve), (failStarted = reject)));
  const answered = new Set<number>();

  async function send(loop: number, operation: string, expected: number, request: () => Promise<ApiResponse>, record: (body: any) => void): Promise<void> {
    let res: ApiResponse;
    try {
      res = await request();
    } catch (err) {
      ledger.unanswered++;
      if (running) {
        running = false;
        failStarted(new Error(`${operation} failed before the kill: ${(err as Error).message}`, { cause: err }));
      }
      return;
    }
    answered.add(loop);
    if (answered.size === steps.length) markStarted();
    if (res.status === expected) {
      record(res.body);
    } else {
      const key = `${operation} ${res.status}${res.body?.code ? ` ${res.body.code}` : ''}`;
      ledger.refused.set(key, (ledger.refused.get(key) ?? 0) + 1);
    }
  }

  const createUser = (loop: number) => {
    const n = ++serial;
    return send(
      loop,
      'create-user',
      201,
      () => client.post('/v1/submit/create-user', { userInfo: californian({ email: `crash${n}@example.com` }), partnerSignedAgreementId: `agr_${n}`, serviceTermsSignedAt: signedAt() }),
      (b) => ledger.users.push({ userId: b.userId, accountId: b.accountId }),
    );
  };
  const renameUser = (loop: number) => {
    const user = pick(ledger.users);
    if (!user) return createUser(loop);
    const firstName = `Crash${++serial}`;
    return send(
      loop,
      'update-user',
      200,
      () => client.patch('/v1/submit/update-user', { userId: user.userId, userInfo: { firstName } }),
      () => ledger.renames.push({ userId: user.userId, firstName }),
    );
  };
  const issueCredential = (loop: number) =>
    send(
      loop,
      'create-credential',
      201,
      () => client.post('/v1/integrator/credentials', { label: `crash ${++serial}`, scope: 'read_only' }),
      (b) => ledger.credentials.push({ credentialId: b.credential.credentialId, publicKey: b.credential.publicKey }),
    );
  const relabelCredential = (loop: number) => {
    const credential = pick(ledger.credentials);
    if (!credential) return issueCredential(loop);
    const label = `relabelled ${++serial}`;
    return send(
      loop,
      'update-credential',
      200,
      () => client.patch(`/v1/integrator/credentials/${credential.publicKey}`, { label }),
      () => ledger.relabels.push({ credentialId: credential.credentialId, label }),
    );
  };

  const steps = [createUser, createUser, renameUser, renameUser, issueCredential, relabelCredential];
  const loops = steps.map(async (step, loop) => {
    while (running) await step(loop);
  });
  started.catch(() => {}); // awaited by the caller
  return {
    started,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** A random few hundred milliseconds of load: the one wait in this file that is about timing, on purpose. */
const preKillDelay = () => new Promise((resolve) => setTimeout(resolve, 150 + Math.random() * 350));

/** kill -9, then no new request: those already sent fail with the socket (or were answered just before). */
async function killHard(child: ChildProcess, load?: Load): Promise<void> {
  const exited = child.exitCode === null && child.signalCode === null ? once(child, 'exit') : undefined;
  child.kill('SIGKILL');
  const stopped = load?.stop();
  await exited;
  assert.equal(child.signalCode, 'SIGKILL');
  await stopped;
}

// ---------------------------------------------------------------------------------------------------------------
// Standalone workers (`npm run worker`, spawned as webhook-workers.test.ts does).

interface WorkerProcess {
  child: ChildProcess;
  /** Resolves once it logged that it is ready (its LISTEN is open), rejects if it exits first. */
  ready: Promise<void>;
  output(): string;
}

function startWorker(env: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, entryPoint('src/worker-main.ts'), { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    const keep = (c: Buffer) => {
      out = (out + c.toString()).slice(-8000);
      if (out.includes('webhook worker ready')) resolve();
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.on('exit', (code, signal) => reject(new Error(`worker exited (${code ?? signal}) before it was ready:\n${out}`)));
  });
  ready.catch(() => {}); // awaited by the caller
  children.push(child);
  return { child, ready, output: () => out };
}

async function stopGracefully(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const [code] = (await exited) as [number | null];
  return code;
}


// ---------------------------------------------------------------------------------------------------------------
// The set-up shared by both kinds of rounds.

interface Stage {
  env: Record<string, string>;
  target: DatabaseTarget;
  integratorId: string;
  privateKey: string;
}

async function stage(backend: 'pglite' | 'postgres', name: string): Promise<Stage> {
  const dir = backend === 'pglite' ? await seededDataDir('iapi-crash-') : mkdtempSync(join(tmpdir(), 'iapi-crash-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const common = {
    DATA_DIR: dir,
    // Fixed across rounds: each new process must open what the last one sealed.
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    APP_ENV: 'sandbox',
    // The final wait polls GET /v1/events as fast as it answers; the default 6000 a minute would answer 429.
    RATE_LIMIT_MAX: '1000000',
    ...FAST_WEBHOOKS,
  };
  let env: Record<string, string>;
  let target: DatabaseTarget;
  if (backend === 'pglite') {
    env = common;
    target = { kind: 'pglite', dataDir: dir };
  } else {
    const provisioned = await provisionDatabase('postgres');
    cleanups.push(provisioned.drop);
    if (provisioned.target.kind !== 'postgres') throw new Error('expected postgres');
    env = { ...common, DATABASE_URL: provisioned.target.url };
    target = provisioned.target;
  }
  const created = await runAdmin(['integrators', 'create', '--name', name], env);
  assert.equal(created.code, 0, created.stderr);
  const integrator = JSON.parse(created.stdout) as { integratorId: string; privateKey: string };
  return { env, target, integratorId: integrator.integratorId, privateKey: integrator.privateKey };
}

async function subscribe(client: Client, receiver: HookReceiver): Promise<string> {
  const res = await client.post('/v1/webhooks/subscriptions', { name: 'crash receiver', url: receiver.url, eventTypes: ['*'] });
  assert.equal(res.status, 201, res.text);
  return res.body.subscription.id;
}

async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(env);
  children.push(server.child);
  return server;
}

// ---------------------------------------------------------------------------------------------------------------
// The checks, straight on the database once every process has stopped (PGlite's DATA_DIR is the server's while
// it runs).

interface Outcome {
  acknowledged: number;
  unanswered: number;
  events: number;
  deliveries: number;
  arrivals: number;
  duplicates: number;
  /** The most times one delivery arrived. */
  mostArrivals: number;
}

const q = <T>(database: Database, query: SQL) => selectRows<T>(database.db, query);

async function verify(target: DatabaseTarget, s: Stage, subscriptionId: string, ledger: Ledger, receiver: HookReceiver): Promise<Outcome> {
  const database = await openDatabase(target);
  try {
    const integratorId = s.integratorId;
    const users = new Map(
      (await q<{ id: string; first_name: string }>(database, sql`select id, user_info->>'firstName' as first_name from users where integrator_id = ${integratorId}`)).map((r) => [r.id, r.first_name]),
    );
    const accounts = new Set((await q<{ id: string }>(database, sql`select id from accounts where integrator_id = ${integratorId}`)).map((r) => r.id));
    const credentials = new Map(
      (await q<{ id: string; label: string }>(database, sql`select id, label from credentials where integrator_id = ${integratorId}`)).map((r) => [r.id, r.label]),
    );
    const events = await q<{ id: string; type: string; object_id: string; sequence: number; first_name: string | null; label: string | null }>(
      database,
      sql`select id, type, object_id, sequence, data->'object'->'userInfo'->>'firstName' as first_name, data->'object'->>'label' as label
          from events where integrator_id = ${integratorId} order by object_id, sequence`,
    );
    const byObject = new Map<string, typeof events>();
    for (const e of events) byObject.set(e.object_id, [...(byObject.get(e.object_id) ?? []), e]);
    const has = (objectId: string, type: string, ok: (e: (typeof events)[number]) => boolean = () => true) => (byObject.get(objectId) ?? []).some((e) => e.type === type && ok(e));

    // (a) and (b): every acknowledged write, with its event.
    for (const u of ledger.users) {
      assert.ok(users.has(u.userId), `acknowledged user ${u.userId} is missing`);
      assert.ok(accounts.has(u.accountId), `acknowledged account ${u.accountId} is missing`);
      assert.ok(has(u.userId, 'user.created'), `user ${u.userId} has no user.created event`);
      assert.ok(has(u.accountId, 'account.created'), `account ${u.accountId} has no account.created event`);
    }
    for (const r of ledger.renames) assert.ok(has(r.userId, 'user.updated', (e) => e.first_name === r.firstName), `acknowledged rename of ${r.userId} to ${r.firstName} has no user.updated event`);
    for (const c of ledger.credentials) {
      assert.ok(credentials.has(c.credentialId), `acknowledged credential ${c.credentialId} is missing`);
      assert.ok(has(c.credentialId, 'credential.created'), `credential ${c.credentialId} has no credential.created event`);
    }
    for (const r of ledger.relabels) assert.ok(has(r.credentialId, 'credential.updated', (e) => e.label === r.label), `acknowledged relabel of ${r.credentialId} to "${r.label}" has no credential.updated event`);

    // (b) for the unanswered ones too: all or nothing, a row with its event and an event with its row.
    const created = (type: string) => new Set(events.filter((e) => e.type === type).map((e) => e.object_id));
    const bothWays = (what: string, rows: Set<string>, type: string) => {
      const withEvents = created(type);
      assert.deepEqual([...rows].filter((id) => !withEvents.has(id)), [], `${what} without a ${type} event`);
      assert.deepEqual([...withEvents].filter((id) => !rows.has(id)), [], `${type} events without their ${what}`);
    };
    bothWays('users', new Set(users.keys()), 'user.created');
    bothWays('accounts', accounts, 'account.created');
    bothWays('credentials', new Set(credentials.keys()), 'credential.created');
    // The state is the last event's: an update cannot have committed without its event, or the reverse.
    const last = (objectId: string, types: string[]) => (byObject.get(objectId) ?? []).filter((e) => types.includes(e.type)).at(-1);
    for (const [id, firstName] of users) assert.equal(last(id, ['user.created', 'user.updated'])?.first_name, firstName, `user ${id}: its firstName is not its last event's`);
    for (const [id, label] of credentials) assert.equal(last(id, ['credential.created', 'credential.updated'])?.label, label, `credential ${id}: its label is not its last event's`);

    // (c) no gap: each object's events are numbered 1..n, and the counter handed out exactly n.
    const sequences = await q<{ object_id: string; n: number; distinct_n: number; first: number; top: number; last: number | null }>(
      database,
      sql`select e.object_id, count(*)::int as n, count(distinct e.sequence)::int as distinct_n, min(e.sequence) as first, max(e.sequence) as top, s.last
          from events e left join event_sequences s on s.object_id = e.object_id group by e.object_id, s.last`,
    );
    const gaps = sequences.filter((r) => Number(r.first) !== 1 || Number(r.top) !== r.n || r.distinct_n !== r.n || Number(r.last) !== r.n);
    assert.deepEqual(gaps, [], 'objects whose event sequence has a gap, a repeat, or a counter ahead of its events');
    const counters = await q<{ n: number }>(database, sql`select count(*)::int as n from event_sequences s where not exists (select 1 from events e where e.object_id = s.object_id)`);
    assert.equal(counters[0]!.n, 0, 'a sequence counter for an object without events (a number handed out by a transaction that did not commit?)');

    // (d) every event since the subscription has its delivery, each succeeded, each reached the receiver.
    const undelivered = await q<{ id: string; type: string }>(
      database,
      sql`select e.id, e.type from events e
          where e.integrator_id = ${integratorId}
            and e.created_at >= (select created_at from webhook_subscriptions where id = ${subscriptionId})
            and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.subscription_id = ${subscriptionId})`,
    );
    assert.deepEqual(undelivered, [], 'events with no delivery queued for the subscription');
    const deliveries = await q<{ event_id: string; status: string }>(database, sql`select event_id, status from webhook_deliveries where subscription_id = ${subscriptionId}`);
    assert.deepEqual(deliveries.filter((d) => d.status !== 'succeeded'), [], 'deliveries that did not succeed');
    const missing = deliveries.filter((d) => !receiver.arrivals.has(d.event_id)).map((d) => d.event_id);
    assert.deepEqual(missing, [], 'deliveries marked succeeded that never reached the receiver');
    const eventIds = new Set(events.map((e) => e.id));
    assert.deepEqual([...receiver.arrivals.keys()].filter((id) => !eventIds.has(id)), [], 'the receiver got a webhook for an event that does not exist (never committed)');

    return {
      acknowledged: acknowledged(ledger),
      unanswered: ledger.unanswered,
      events: events.length,
      deliveries: deliveries.length,
      arrivals: receiver.total(),
      duplicates: receiver.total() - receiver.arrivals.size,
      mostArrivals: Math.max(0, ...receiver.arrivals.values()),
    };
  } finally {
    await database.close();
  }
}

const seconds = (from: number, to = Date.now()) => ((to - from) / 1000).toFixed(1);

/** Where a test's time went: the seconds between one lap and the one before. */
function stopwatch() {
  const started = Date.now();
  let last = started;
  const laps: string[] = [];
  return {
    lap(name: string) {
      laps.push(`${name} ${seconds(last)} s`);
      last = Date.now();
    },
    summary: () => `${seconds(started)} s in all (${laps.join(', ')})`,
  };
}

function report(t: TestContext, label: string, watch: ReturnType<typeof stopwatch>, perRound: string[], ledger: Ledger, outcome: Outcome): void {
  t.diagnostic(`${label}: ${ROUNDS} rounds, ${watch.summary()}`);
  t.diagnostic(`${label}: per round, writes acknowledged/unanswered: ${perRound.join(', ')}`);
  t.diagnostic(
    `${label}: ${outcome.acknowledged} acknowledged writes (${ledger.users.length} users, ${ledger.renames.length} renames, ${ledger.credentials.length} credentials, ${ledger.relabels.length} relabels), ` +
      `${outcome.unanswered} unanswered, ${outcome.events} events, ${outcome.deliveries} deliveries, ${outcome.arrivals} arrivals, ${outcome.duplicates} duplicates (at most ${outcome.mostArrivals} arrivals of one)` +
      (ledger.refused.size ? `; refused: ${[...ledger.refused].map(([k, n]) => `${k} ×${n}`).join(', ')}` : ''),
  );
}

/**
 * Refusals are not expected, apart from a 503 (a lock conflict, or the database too slow on a busy machine: such a
 * write changed nothing, and an unanswered write may have either outcome anyway). A 4xx is a mistake of this test,
 * a 500 a defect.
 */
function assertOnlyUnavailable(ledger: Ledger): void {
  const unexpected = [...ledger.refused.keys()].filter((k) => !/^\S+ 503\b/.test(k));
  assert.deepEqual(unexpected, [], 'writes refused with another status than 503');
}

/** Waits (through the API, which PGlite needs) until no event has a delivery still to make. */
async function allDelivered(client: Client): Promise<void> {
  await eventually(
    () => client.get('/v1/events?deliverySuccess=false&limit=5'),
    (res) => res.status === 200 && res.body.data?.length === 0,
    'every webhook delivery to succeed',
    30_000,
  );
}

// ---------------------------------------------------------------------------------------------------------------

const BACKENDS = postgresUrl() ? (['pglite', 'postgres'] as const) : (['pglite'] as const);

for (const backend of BACKENDS) {
  describe(`kill -9 of the API under write load, ${ROUNDS} rounds [${backend}, process]`, () => {
    it('keeps every acknowledged write with its events, numbers events without gaps, and delivers every webhook', async (t) => {
      const watch = stopwatch();
      const s = await stage(backend, `Crash API ${backend}`);
      const receiver = await startHookReceiver();
      const ledger = newLedger();
      const perRound: string[] = [];

      let server = await startServer(s.env);
      const subscriptionId = await subscribe(createClient({ baseUrl: server.url, privateKey: s.privateKey }), receiver);
      watch.lap('set-up');
      for (let round = 1; round <= ROUNDS; round++) {
        const roundStart = Date.now();
        if (round > 1) server = await startServer(s.env); // on PGlite: recovers the folder the last one was killed on
        const booted = Date.now();
        const before = { ack: acknowledged(ledger), unanswered: ledger.unanswered };
        const load = startLoad(createClient({ baseUrl: server.url, privateKey: s.privateKey }), ledger);
        await load.started;
        await preKillDelay();
        await killHard(server.child, load);
        perRound.push(`${acknowledged(ledger) - before.ack}/${ledger.unanswered - before.unanswered} in ${seconds(roundStart)} s (start ${seconds(roundStart, booted)} s)`);
      }

      // A last server takes over what the killed ones left (claims come due when their lease ends), then stops.
      watch.lap('rounds');
      const final = await startServer(s.env);
      await allDelivered(createClient({ baseUrl: final.url, privateKey: s.privateKey }));
      assert.equal(await final.stop(), 0, final.logs().slice(-4000));

      watch.lap('final server');
      const outcome = await verify(s.target, s, subscriptionId, ledger, receiver);
      watch.lap('checks');
      report(t, `API [${backend}]`, watch, perRound, ledger, outcome);
      assert.ok(outcome.acknowledged >= ROUNDS, 'each round acknowledged writes before its kill');
      assertOnlyUnavailable(ledger);
    });
  });
}

describe(`kill -9 of a standalone webhook worker under write load, ${ROUNDS} rounds [postgres, process]`, { skip: postgresUrl() ? false : 'needs PostgreSQL (set TEST_DATABASE_URL): several processes cannot share the embedded database' }, () => {
  it('delivers every webhook at least once while workers die mid-burst and are replaced', async (t) => {
    const watch = stopwatch();
    const s = await stage('postgres', 'Crash workers');
    // Answers within 0 to 100 ms: at each kill the victim has deliveries in flight.
    const receiver = await startHookReceiver(100);
    const ledger = newLedger();
    const perRound: string[] = [];

    // Only the standalone workers deliver.
    const server = await startServer({ ...s.env, WEBHOOK_WORKER: '0' });
    const client = createClient({ baseUrl: server.url, privateKey: s.privateKey });
    const subscriptionId = await subscribe(client, receiver);
    const live = [startWorker(s.env), startWorker(s.env)];
    await Promise.all(live.map((w) => w.ready));
    watch.lap('set-up');

    for (let round = 1; round <= ROUNDS; round++) {
      const roundStart = Date.now();
      const before = { ack: acknowledged(ledger), unanswered: ledger.unanswered, arrivals: receiver.total() };
      const load = startLoad(client, ledger);
      await load.started;
      await preKillDelay();
      const victim = Math.floor(Math.random() * live.length);
      const inFlight = receiver.inFlight(); // both workers' together
      await killHard(live[victim]!.child);
      // The load goes on while the survivor and then the replacement deliver.
      const killed = Date.now();
      live[victim] = startWorker(s.env);
      await live[victim]!.ready;
      await load.stop();
      perRound.push(
        `${acknowledged(ledger) - before.ack}/${ledger.unanswered - before.unanswered} in ${seconds(roundStart)} s (replacement ready ${seconds(killed)} s after the kill; ` +
          `${receiver.total() - before.arrivals} arrivals, ${inFlight} in flight at the kill)`,
      );
    }

    watch.lap('rounds');
    await allDelivered(client);
    for (const w of live) assert.equal(await stopGracefully(w.child), 0, w.output());
    assert.equal(await server.stop(), 0, server.logs().slice(-4000));

    watch.lap('final deliveries');
    const outcome = await verify(s.target, s, subscriptionId, ledger, receiver);
    watch.lap('checks');
    report(t, 'workers [postgres]', watch, perRound, ledger, outcome);
    assert.equal(ledger.unanswered, 0, 'the API was not killed: every write was answered');
    assertOnlyUnavailable(ledger);
  });
});
