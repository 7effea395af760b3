/**
 * The peer of `npm run bench:webhooks`: the same webhook deliveries made with a general-purpose PostgreSQL job
 * queue, pg-boss 10, as a Node developer would wire it (PostgreSQL only; pg-boss has no PGlite driver).
 *
 * - Enqueue: one job per (event, subscription), like our outbox row, sent with `send(queue, data, { db })` inside
 *   the drizzle transaction that writes the event (recordEvent), so the event and its jobs commit together.
 *   pg-boss's `db` option takes any `{ executeSql(text, values) }`; `onExecutor` runs pg-boss's statement on the
 *   transaction's connection.
 * - Work: `registrations` `work()` loops of `batchSize` jobs each, adding up to the worker's concurrency, so
 *   at most as many POSTs are in flight as WEBHOOK_CONCURRENCY allows ours. A handler loads its jobs' events,
 *   subscriptions and signing keys with our loadBatch, signs with our WebhookSigner (the same Standard Webhooks
 *   body and headers as our worker), POSTs them with an undici keep-alive Agent, records one attempt row per job
 *   in `peer_webhook_attempts` (one statement per batch), and resolves: pg-boss then completes the batch.
 *   A job is completed only after its POST was answered and its attempt recorded (at-least-once).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type SQL } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import { Agent, request } from 'undici';
import type { SecretBox } from '../../src/crypto/secret-box.js';
import { selectRows, type Database, type Executor } from '../../src/db/database.js';
import type { Claimed } from '../../src/db/repositories/webhook-deliveries.js';
import { patternsMatching } from '../../src/domain/events/catalogue.js';
import { isSuccess } from '../../src/domain/webhooks/retry-policy.js';
import { loadBatch, partsOf, WebhookSigner, type Batch } from '../../src/workers/webhook-request.js';

const QUEUE = 'webhook-deliveries';
const SCHEMA = 'pgboss';

/**
 * The peer's settings, chosen to give it its best reasonable throughput (docs/benchmarks.md#webhooks):
 * - pollingIntervalSeconds 0.5: the lowest pg-boss 10 accepts (its default is 2). pg-boss 10 has no LISTEN/NOTIFY
 *   wake-up, so this is how long a new job can wait when the queue had run dry.
 * - A handler that got a full batch calls `notifyWorker` (pg-boss's public API): its loop then fetches again at
 *   once instead of sleeping out the polling interval, which otherwise caps a loop at batchSize jobs per 0.5 s.
 * - schedule off: no cron jobs are used (it would poll a queue of its own); supervise (expiry of jobs held by a dead
 *   worker, archiving) stays on, since at-least-once relies on it.
 * - One work() loop with batchSize = concurrency (32): measured against 2 loops of 16 and 4 of 8 (BENCH_PEER_WORKERS),
 *   it drained as fast as 2 × 16 (2,270-2,630/s vs 2,250-2,460/s) at the lowest CPU per delivery (each fetch and
 *   completion serves the most jobs), and 4 × 8 was slower (1,560/s; more fetches contending for the same rows).
 * - A pool of 10 connections (pg-boss's default): more than the loops ever use at once.
 */
export const PEER_DEFAULTS = { pollingIntervalSeconds: 0.5, registrations: 1, poolMax: 10 } as const;

export interface PgBossPeerOptions {
  databaseUrl: string;
  /** The bench's database handle: the peer loads events, subscriptions and keys with it, as our worker does. */
  database: Database;
  secrets: SecretBox;
  /** Deliveries in flight at most (WEBHOOK_CONCURRENCY), split over the registrations. */
  concurrency: number;
  timeoutMs: number;
  registrations?: number;
  onError(err: unknown): void;
}

interface JobData {
  eventId: string;
  subscriptionId: string;
}

/** What the bench knows of an event it has just recorded in `tx`. */
export interface RecordedEvent {
  id: string;
  integratorId: string;
  type: string;
}

/** Statement texts split at their `$n` placeholders, once per text (pg-boss reuses a handful of texts). */
const splitTexts = new Map<string, string[]>();

/** A pg-boss statement (text with `$n` placeholders, values) as a drizzle SQL with the same parameters. */
function positional(text: string, values: unknown[]): SQL {
  let parts = splitTexts.get(text);
  if (!parts) {
    parts = text.split(/\$(\d+)/);
    splitTexts.set(text, parts);
  }
  // split with a capture group alternates text and placeholder numbers: even indices are text.
  return sql.join(parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql.param(values[Number(part) - 1]))));
}

/**
 * pg-boss's `db` option on a drizzle executor: drizzle exposes no raw (text, values) query, so each statement is
 * rebuilt with drizzle's own placeholders and runs on the executor's connection (inside its transaction).
 */
function onExecutor(db: Executor): PgBoss.Db {
  return { executeSql: async (text, values = []) => ({ rows: await selectRows(db, positional(text, values)) }) };
}

/** Splits `total` in-flight slots over `n` work() loops as evenly as possible (32 over 3: 11, 11, 10). */
export function batchSizes(total: number, n: number): number[] {
  const loops = Math.max(1, Math.min(n, total));
  return Array.from({ length: loops }, (_, i) => Math.floor(total / loops) + (i < total % loops ? 1 : 0));
}

export class PgBossPeer {
  private readonly signer: WebhookSigner;
  private readonly agent: Agent;
  private readonly sizes: number[];
  /** work() ids, for notifyWorker; empty while the worker is stopped. */
  private workerIds: string[] = [];

  private constructor(
    private readonly boss: PgBoss,
    private readonly options: PgBossPeerOptions,
  ) {
    this.signer = new WebhookSigner(options.secrets);
    // Keep-alive connections to the receiver, as many as can be in flight (the bare loop's Agent too).
    this.agent = new Agent({ connections: options.concurrency, keepAliveTimeout: 60_000 });
    this.sizes = batchSizes(options.concurrency, options.registrations ?? PEER_DEFAULTS.registrations);
  }

  /** Installs pg-boss's schema and the attempts table in the bench database, and creates the queue. */
  static async create(options: PgBossPeerOptions): Promise<PgBossPeer> {
    const boss = new PgBoss({ connectionString: options.databaseUrl, schema: SCHEMA, max: PEER_DEFAULTS.poolMax, schedule: false, supervise: true });
    // An EventEmitter 'error' without a listener would throw; pg-boss reports a failed fetch or maintenance there.
    boss.on('error', options.onError);
    await boss.start();
    await boss.createQueue(QUEUE, { name: QUEUE });
    await boss.getDb().executeSql(
      `create table if not exists peer_webhook_attempts (
         id bigint generated always as identity primary key,
         job_id uuid not null, event_id uuid not null, status smallint not null, at timestamptz not null)`,
      [],
    );
    return new PgBossPeer(boss, options);
  }

  /** What the report prints and keeps of the peer's configuration. */
  settings(): Record<string, unknown> {
    return {
      package: 'pg-boss 10',
      registrations: this.sizes.length,
      batchSizes: this.sizes,
      pollingIntervalSeconds: PEER_DEFAULTS.pollingIntervalSeconds,
      poolMax: PEER_DEFAULTS.poolMax,
      notifyWorkerOnFullBatch: true,
      schedule: false,
      supervise: true,
    };
  }

  /** Queues the event's jobs in `tx`, one per enabled subscription selecting its type (the rule our outbox applies). */
  async enqueue(tx: Executor, event: RecordedEvent): Promise<void> {
    const subscriptions = await selectRows<{ id: string }>(
      tx,
      sql`select id from webhook_subscriptions where integrator_id = ${event.integratorId} and enabled
          and event_types ?| array[${sql.join(
            patternsMatching(event.type).map((p) => sql`${p}`),
            sql`, `,
          )}]::text[]`,
    );
    const db = onExecutor(tx);
    for (const { id } of subscriptions) {
      const jobId = await this.boss.send(QUEUE, { eventId: event.id, subscriptionId: id } satisfies JobData, { db });
      if (!jobId) throw new Error(`pg-boss did not queue a job for event ${event.id}`);
    }
  }

  /** Starts the work() loops; they fetch at once. */
  async start(): Promise<void> {
    this.workerIds = await Promise.all(
      this.sizes.map((batchSize, i) =>
        this.boss.work<JobData>(QUEUE, { batchSize, pollingIntervalSeconds: PEER_DEFAULTS.pollingIntervalSeconds }, (jobs) => this.handle(jobs, i, batchSize)),
      ),
    );
  }

  /**
   * Stops the work() loops. offWork does not wait; a loop ends after its current fetch (an empty one here: the
   * bench stops the peer only once every job is completed), so a short pause is enough.
   */
  async stop(): Promise<void> {
    await this.boss.offWork(QUEUE);
    this.workerIds = [];
    await sleep(200);
  }

  /** Waits until no job of the queue is waiting or active (every one completed). */
  async waitRecorded(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let open: number;
    while ((open = await this.boss.getQueueSize(QUEUE, { before: 'completed' })) > 0) {
      if (Date.now() > deadline) throw new Error(`pg-boss: ${open} jobs not completed after ${timeoutMs / 1000} s`);
      await sleep(20);
    }
  }

  /** Attempt rows recorded so far (the bench checks each phase added one per delivery). */
  async attempts(): Promise<number> {
    const { rows } = await this.boss.getDb().executeSql('select count(*)::int as n from peer_webhook_attempts', []);
    return Number((rows[0] as { n: number }).n);
  }

  async close(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: 2000, wait: true });
    await this.agent.close();
  }

  /**
   * One fetched batch: delivered concurrently, attempts recorded, then resolved (pg-boss completes it). A failed
   * POST throws after the attempts are recorded, so pg-boss fails the whole batch and retries it (at-least-once).
   */
  private async handle(jobs: PgBoss.Job<JobData>[], loop: number, batchSize: number): Promise<void> {
    // loadBatch reads only the ids of a claim; the rest of our outbox's claim fields have no meaning here.
    const claims: Claimed[] = jobs.map((j) => ({ id: j.id, token: '', attempts: 0, scheduleStep: 0, eventId: j.data.eventId, subscriptionId: j.data.subscriptionId }));
    const batch = await loadBatch(this.options.database.db, claims, new Date());
    const statuses = await Promise.all(claims.map((c) => this.deliver(batch, c)));
    // A job whose event or subscription is gone sent nothing: it completes without an attempt, as in our worker.
    const sent = claims.flatMap((c, i) => (statuses[i] === undefined ? [] : [{ claim: c, status: statuses[i] }]));
    const at = new Date().toISOString();
    await this.boss.getDb().executeSql(
      'insert into peer_webhook_attempts (job_id, event_id, status, at) select * from unnest($1::uuid[], $2::uuid[], $3::smallint[], $4::timestamptz[])',
      [sent.map((s) => s.claim.id), sent.map((s) => s.claim.eventId), sent.map((s) => s.status), sent.map(() => at)],
    );
    const failed = sent.filter((s) => !isSuccess(s.status)).length;
    if (failed > 0) throw new Error(`${failed} of ${jobs.length} deliveries failed`);
    // A full batch means more jobs are likely waiting: fetch again now rather than after the polling interval.
    const id = this.workerIds[loop];
    if (jobs.length === batchSize && id) this.boss.notifyWorker(id);
  }

  /** Signs and POSTs one delivery: its HTTP status, 0 when no answer came, undefined when there is nothing to send. */
  private async deliver(batch: Batch, claim: Claimed): Promise<number | undefined> {
    const parts = partsOf(batch, claim);
    if (!parts) return undefined;
    const { event, subscription, keys } = parts;
    const body = JSON.stringify(event);
    const headers = this.signer.headersFor(subscription, keys, event.id, body, new Date());
    try {
      const res = await request(subscription.url, {
        method: 'POST',
        headers,
        body,
        dispatcher: this.agent,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      await res.body.dump();
      return res.statusCode;
    } catch (err) {
      this.options.onError(err);
      return 0;
    }
  }
}
