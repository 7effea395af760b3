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

/** Runs the purge every `intervalMs` until stopped; a failed round is logged and retried next time. */
export function startMaintenance(
  db: Db,
  clock: Clock,
  log: { warn: (obj: unknown, msg: string) => void },
  intervalMs = 60_000,
  eventRetentionDays = 30,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    purgeExpired(db, clock, eventRetentionDays)
      .catch((err: unknown) => log.warn({ err }, 'maintenance round failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
