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
 *
 * The parts live in bench/lib/webhooks-*.ts: settings (these knobs, the goals), receiver, events, setup (a database,
 * our worker), measure, phases, peer (pg-boss), floor, run (one database's phases in order) and report.
 */
import { DEFAULT_POSTGRES_URL, postgresAnswers, type BackendKind } from './lib/backend.js';
import { stopAllChildren, stopChild } from './lib/children.js';
import { runBench } from './lib/entry.js';
import { everyDelivered } from './lib/webhooks-measure.js';
import { runReceiver, startReceiver } from './lib/webhooks-receiver.js';
import { printReport, writeReport } from './lib/webhooks-report.js';
import { benchBackend } from './lib/webhooks-run.js';
import { DURATION_SECONDS, QUIET_WAIT_SECONDS } from './lib/webhooks-settings.js';
import type { BackendRun } from './lib/webhooks-types.js';

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
  return everyDelivered() ? 0 : 1;
}

if (process.argv[2] === '--receiver') {
  runReceiver(Number(process.argv[3]));
} else {
  await runBench('bench', main, stopAllChildren);
}
