import { sql } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { purgeEventsBefore } from '../db/repositories/events.js';
import { purgeExpiredClaims } from '../db/repositories/idempotency-keys.js';
import { purgeExpiredNonces } from '../db/repositories/request-nonces.js';

const DAY_MS = 86_400_000;

/**
 * Deletes expired replay-guard hashes and idempotency records, and events past their retention (with their
 * webhook deliveries). Safe to run from several processes.
 */
export async function purgeExpired(db: Db, clock: Clock, eventRetentionDays = 30): Promise<{ nonces: number; idempotencyKeys: number; events: number }> {
  const now = clock();
  return {
    nonces: await purgeExpiredNonces(db, now),
    idempotencyKeys: await purgeExpiredClaims(db, now),
    events: await purgeEventsBefore(db, new Date(now.getTime() - eventRetentionDays * DAY_MS)),
  };
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

/**
 * Runs the purge every `intervalMs` until stopped (and, where the database has no autovacuum, a VACUUM ANALYZE of
 * the churning tables); a failed round is logged and retried next time.
 */
export function startMaintenance(
  db: Db,
  clock: Clock,
  log: { warn: (obj: unknown, msg: string) => void },
  intervalMs = 60_000,
  eventRetentionDays = 30,
  vacuum = false,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    purgeExpired(db, clock, eventRetentionDays)
      .then(() => (vacuum ? vacuumChurningTables(db) : undefined))
      .catch((err: unknown) => log.warn({ err }, 'maintenance round failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
