import { sql } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Db } from '../db/database.js';
import { DELETE_BATCH } from '../db/repositories/bounded-delete.js';
import { purgeEventsBefore } from '../db/repositories/events.js';
import { purgeExpiredClaims } from '../db/repositories/idempotency-keys.js';
import { purgeEndedRateLimitWindows } from '../db/repositories/rate-limit-windows.js';
import { purgeExpiredNonces } from '../db/repositories/request-nonces.js';
import { lockUnsealedHeaders, storeSealedHeaders } from '../db/repositories/webhook-subscriptions.js';
import { sealHeaders } from '../domain/webhooks/custom-headers.js';
import type { Log } from '../log.js';

const DAY_MS = 86_400_000;

export type PurgedTable = 'request_nonces' | 'idempotency_keys' | 'events' | 'rate_limit_windows';

/** One purge statement: how many rows it deleted and how long it took. */
export interface PurgeBatch {
  table: PurgedTable;
  rows: number;
  ms: number;
}

export interface PurgeOptions {
  /** Rows per statement (default DELETE_BATCH); for events, deliveries and attempts cascade on top. */
  batchSize?: number;
  /** Called after each statement (the scale bench records the longest). */
  onBatch?: (batch: PurgeBatch) => void;
}

/**
 * Repeats one bounded delete, each its own statement and so its own short transaction, until it deletes fewer rows
 * than a batch: a purge of any size never holds row locks, or PGlite's one connection, longer than one batch, and
 * writers run between batches.
 */
async function inBatches(table: PurgedTable, deleteBatch: (limit: number) => Promise<number>, options: PurgeOptions): Promise<number> {
  const size = options.batchSize ?? DELETE_BATCH;
  let total = 0;
  for (;;) {
    const started = performance.now();
    const rows = await deleteBatch(size);
    options.onBatch?.({ table, rows, ms: performance.now() - started });
    total += rows;
    if (rows < size) return total;
  }
}

/**
 * Deletes expired replay-guard hashes and idempotency records, events past their retention (with their
 * webhook deliveries), and the rate-limit windows that ended, each in bounded batches. Safe to run from several
 * processes.
 */
export async function purgeExpired(
  db: Db,
  clock: Clock,
  eventRetentionDays = 30,
  options: PurgeOptions = {},
): Promise<{ nonces: number; idempotencyKeys: number; events: number; rateLimitWindows: number }> {
  const now = clock();
  const before = new Date(now.getTime() - eventRetentionDays * DAY_MS);
  return {
    nonces: await inBatches('request_nonces', (limit) => purgeExpiredNonces(db, now, limit), options),
    idempotencyKeys: await inBatches('idempotency_keys', (limit) => purgeExpiredClaims(db, now, limit), options),
    events: await inBatches('events', (limit) => purgeEventsBefore(db, before, limit), options),
    rateLimitWindows: await inBatches('rate_limit_windows', (limit) => purgeEndedRateLimitWindows(db, now, limit), options),
  };
}

const SEAL_BATCH = 100;

/**
 * Seals the custom headers of webhook subscriptions written before they were sealed at rest (or by a process of
 * the previous version during a rolling upgrade), replacing their clear values with masks. Idempotent: a sealed
 * row is never touched again. Until a row is converted the worker reads its clear values, so nothing waits on it.
 */
export async function sealLegacyWebhookHeaders(db: Db, secrets: SecretBox): Promise<number> {
  let sealed = 0;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const rows = await lockUnsealedHeaders(tx, SEAL_BATCH);
      for (const row of rows) {
        const stored = sealHeaders(secrets, row.id, row.httpHeaders);
        if (stored.httpHeadersSealed !== null && (await storeSealedHeaders(tx, row.id, stored.httpHeaders, stored.httpHeadersSealed))) sealed++;
      }
      return rows.length;
    });
    // Fewer than a batch: done (rows skipped because a PATCH held them are taken next round).
    if (batch < SEAL_BATCH) return sealed;
  }
}

/**
 * The tables whose rows churn (inserted, updated and deleted all day). PGlite has no autovacuum: without a
 * VACUUM their indexes fill with dead entries and, without ANALYZE, the planner never learns their size (the
 * webhook claim query turned into a sort of every due row).
 */
const CHURNING_TABLES = ['webhook_deliveries', 'webhook_attempts', 'request_nonces', 'idempotency_keys', 'event_sequences'];

export async function vacuumChurningTables(db: Db): Promise<void> {
  for (const table of CHURNING_TABLES) await db.execute(sql.raw(`vacuum (analyze) ${table}`));
}

export interface MaintenanceOptions {
  db: Db;
  clock: Clock;
  log: Pick<Log, 'warn'>;
  secrets: SecretBox;
  /** Between rounds (default 1 minute). */
  intervalMs?: number;
  /** Events older than this are purged (default 30). */
  eventRetentionDays?: number;
  /** VACUUM ANALYZE the churning tables each round: for a database without autovacuum (PGlite). Default false. */
  vacuum?: boolean;
}

/**
 * Runs the purge every `intervalMs` until stopped (and, where the database has no autovacuum, a VACUUM ANALYZE of
 * the churning tables); a failed round is logged and retried next time. It also seals legacy webhook headers at
 * once and then every round (sealLegacyWebhookHeaders).
 */
export function startMaintenance(options: MaintenanceOptions): () => void {
  const { db, clock, log, secrets, intervalMs = 60_000, eventRetentionDays = 30, vacuum = false } = options;
  const sealLegacy = () => sealLegacyWebhookHeaders(db, secrets);
  // At start-up rather than a minute later: these rows hold receivers' secrets in clear.
  let running = true;
  void Promise.resolve(sealLegacy())
    .catch((err: unknown) => log.warn({ err }, 'sealing legacy webhook headers failed; retried next round'))
    .finally(() => {
      running = false;
    });
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    purgeExpired(db, clock, eventRetentionDays)
      .then(() => sealLegacy())
      .then(() => (vacuum ? vacuumChurningTables(db) : undefined))
      .catch((err: unknown) => log.warn({ err }, 'maintenance round failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
