import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { purgeExpiredClaims } from '../db/repositories/idempotency-keys.js';
import { purgeExpiredNonces } from '../db/repositories/request-nonces.js';

/** Deletes expired replay-guard hashes and idempotency records. Safe to run from several processes. */
export async function purgeExpired(db: Db, clock: Clock): Promise<{ nonces: number; idempotencyKeys: number }> {
  const now = clock();
  return { nonces: await purgeExpiredNonces(db, now), idempotencyKeys: await purgeExpiredClaims(db, now) };
}

/** Runs the purge every `intervalMs` until stopped; a failed round is logged and retried next time. */
export function startMaintenance(db: Db, clock: Clock, log: { warn: (obj: unknown, msg: string) => void }, intervalMs = 60_000): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    purgeExpired(db, clock)
      .catch((err: unknown) => log.warn({ err }, 'maintenance round failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
