import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { addToRateLimitWindows } from '../../db/repositories/rate-limit-windows.js';
import type { Log } from '../../log.js';
import { PostgresRateCounter } from './postgres-rate-counter.js';
import { MemoryRateCounter, type RateCounter } from './rate-counter.js';

/**
 * Where this process counts the per-credential rate limit (docs/deployment.md#rate-limits-across-processes): in
 * Redis when REDIS_URL is set, else in PostgreSQL (shared by every process on the database), else in memory: the
 * embedded database is one process.
 */
export async function openRateCounter(deps: { config: Config; database: Database; clock: Clock }, log: Log): Promise<RateCounter> {
  const now = () => deps.clock().getTime();
  if (deps.config.redisUrl) {
    // ioredis is loaded only where Redis is configured (src/on-first-use.ts says why).
    const { RedisRateCounter } = await import('./redis-rate-counter.js');
    return RedisRateCounter.open({ url: deps.config.redisUrl, keyPrefix: deps.config.redisKeyPrefix, log, now });
  }
  if (deps.database.kind === 'postgres') return new PostgresRateCounter({ add: (deltas) => addToRateLimitWindows(deps.database.db, deltas), now, log });
  return new MemoryRateCounter(now);
}
