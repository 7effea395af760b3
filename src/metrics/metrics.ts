import { sql } from 'drizzle-orm';
import { getHeapStatistics } from 'node:v8';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import { openCounts } from '../db/repositories/reconciliation.js';
import { RequestSeries, registerCollected } from './request-series.js';

/**
 * One process's Prometheus metrics (GET /metrics, docs/metrics.md). Counters and histograms are this process's;
 * the outbox and transaction gauges are read from the database at scrape time, so every process reports the same
 * deployment-wide values for them. A failed read leaves the gauge's last value and counts a scrape error.
 */
export interface Metrics {
  readonly registry: Registry;
  /** One answered HTTP request: `route` is the route's pattern (bounded cardinality), `unmatched` for none. */
  request(method: string, route: string, status: number, seconds: number): void;
  /** One webhook delivery attempt and what it came to (delivered, http_error, network_error, ...). */
  webhookAttempt(outcome: string, seconds: number): void;
  /** The transaction watcher finished a round. */
  watcherRound(): void;
}

/** Request latency buckets, in seconds: 5 ms to 30 s (the request timeout). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Process CPU and memory, heap, GC, handles and nodejs_eventloop_lag_seconds (with percentiles): facts of the
 * process, collected once per process however many systems it opens (tests open many).
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    // The heap's configuration, not its use: the old generation's limit plus the young generation's (three
    // semi-spaces, sized by `node --max-semi-space-size`: src/node-flags.ts, docs/deployment.md#memory).
    new Gauge({
      name: 'nodejs_heap_size_limit_bytes',
      help: 'V8 heap size limit of the main thread: old generation limit plus the young generation (node --max-semi-space-size)',
      registers: [processRegistry],
      collect() {
        this.set(getHeapStatistics().heap_size_limit);
      },
    });
  }
  return processRegistry;
}

export function createMetrics(deps: { database: Database; clock: Clock }): Metrics {
  const own = new Registry();
  const seconds = (at: Date | null | undefined) => (at ? Math.max(0, (deps.clock().getTime() - at.getTime()) / 1000) : 0);

  const scrapeErrors = new Counter({ name: 'metrics_scrape_errors_total', help: 'Database reads for a scrape that failed (their gauges keep their last values)', registers: [own] });
  /** A gauge's collect that reads the database; a failure counts, and leaves the gauge's last value. */
  const fromDatabase = (read: (gauge: Gauge) => Promise<void>) =>
    async function (this: Gauge) {
      try {
        await read(this);
      } catch {
        scrapeErrors.inc();
      }
    };

  // Counted in plain numbers on each answer, handed to prom-client when scraped (request-series.ts says why).
  const requests = new RequestSeries(LATENCY_BUCKETS);
  registerCollected(own, requests.counter('http_requests_total', 'HTTP requests answered, by method, route pattern and status'));
  registerCollected(own, requests.histogram('http_request_duration_seconds', 'Time from receiving a request to the end of its answer, by method, route pattern and status'));
  const attempts = new Counter({ name: 'webhook_delivery_attempts_total', help: 'Webhook delivery attempts by this process, by outcome', labelNames: ['outcome'], registers: [own] });
  const attemptLatency = new Histogram({
    name: 'webhook_delivery_attempt_duration_seconds',
    help: 'Duration of webhook delivery attempts by this process, by outcome',
    labelNames: ['outcome'],
    buckets: LATENCY_BUCKETS,
    registers: [own],
  });

  let lastWatcherRound: Date | undefined;
  new Gauge({
    name: 'transaction_watcher_last_round_age_seconds',
    help: 'Seconds since this process’s transaction watcher last finished a round (absent: no watcher here)',
    registers: [own],
    collect() {
      if (lastWatcherRound) this.set(seconds(lastWatcherRound));
    },
  });

  const outboxDepth = new Gauge({ name: 'webhook_outbox_pending', help: 'Webhook deliveries waiting to be delivered or retried (deployment-wide)', registers: [own] });
  new Gauge({
    name: 'webhook_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest webhook delivery still pending, 0 when none (deployment-wide)',
    registers: [own],
    collect: fromDatabase(async (gauge) => {
      const { rows } = (await deps.database.db.execute(
        sql`select count(*)::int as pending, min(created_at) as oldest from webhook_deliveries where status = 'pending'`,
      )) as unknown as { rows: { pending: number; oldest: string | Date | null }[] };
      outboxDepth.set(Number(rows[0]?.pending ?? 0));
      const oldest = rows[0]?.oldest;
      gauge.set(oldest ? seconds(new Date(oldest)) : 0);
    }),
  });
  new Gauge({
    name: 'transactions_processing_oldest_age_seconds',
    help: 'How long the oldest broadcast transaction has waited for its receipt, 0 when none: the watcher’s lag behind the chain (deployment-wide)',
    registers: [own],
    collect: fromDatabase(async (gauge) => {
      const { rows } = (await deps.database.db.execute(sql`select min(updated_at) as oldest from transactions where status = 'processing' and kind <> 'incoming'`)) as unknown as {
        rows: { oldest: string | Date | null }[];
      };
      const oldest = rows[0]?.oldest;
      gauge.set(oldest ? seconds(new Date(oldest)) : 0);
    }),
  });

  new Gauge({
    name: 'incoming_scan_age_seconds',
    help: 'Per chain, how long ago the incoming watcher last recorded a block (docs/incoming.md): grows while it is stuck or its node is down (deployment-wide)',
    labelNames: ['chain_id'],
    registers: [own],
    collect: fromDatabase(async (gauge) => {
      const { rows } = (await deps.database.db.execute(sql`select chain_id, updated_at from chain_scan_cursors`)) as unknown as { rows: { chain_id: string | number; updated_at: string | Date }[] };
      for (const row of rows) gauge.set({ chain_id: String(row.chain_id) }, seconds(new Date(row.updated_at)));
    }),
  });

  new Gauge({
    name: 'transactions_unsent',
    help: 'Transactions committed signed but not yet accepted by their chain node (docs/transactions.md#sending), 0 when none (deployment-wide)',
    registers: [own],
    collect: fromDatabase(async (gauge) => {
      const { rows } = (await deps.database.db.execute(sql`select count(*)::int as n from transactions where status = 'processing' and signed_raw is not null`)) as unknown as {
        rows: { n: number }[];
      };
      gauge.set(Number(rows[0]?.n ?? 0));
    }),
  });

  new Gauge({
    name: 'reconciliation_open_items',
    help: 'Open reconciliation work (docs/reconciliation.md): breaks of the latest chain run, exceptions of every bank run not yet matched or resolved (deployment-wide)',
    labelNames: ['kind'],
    registers: [own],
    collect: fromDatabase(async (gauge) => {
      const counts = await openCounts(deps.database.db);
      gauge.set({ kind: 'breaks' }, counts.breaks);
      gauge.set({ kind: 'exceptions' }, counts.exceptions);
    }),
  });

  new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL connections of this process: max, total (open), idle, and waiting (queries waiting for one); absent on PGlite',
    labelNames: ['state'],
    registers: [own],
    collect() {
      const stats = deps.database.poolStats?.();
      if (!stats) return;
      for (const [state, value] of Object.entries(stats)) this.set({ state }, value);
    },
  });

  // Merged once every metric of this system is registered: the merge copies the metrics it is given.
  const registry = Registry.merge([processMetrics(), own]);
  return {
    registry,
    request(method, route, status, duration) {
      requests.record(method, route, status, duration);
    },
    webhookAttempt(outcome, duration) {
      attempts.inc({ outcome });
      attemptLatency.observe({ outcome }, duration);
    },
    watcherRound() {
      lastWatcherRound = deps.clock();
    },
  };
}
