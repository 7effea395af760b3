import { Redis } from 'ioredis';
import type { Log } from '../../log.js';
import { MemoryRateCounter, TroubleLog, type RateCount, type RateCounter } from './rate-counter.js';

/** The longest a connection attempt to Redis is waited for, at start-up and on each reconnection. */
export const REDIS_CONNECT_TIMEOUT_MS = 2_000;
/** The longest one count in Redis is waited for before the request is decided without it. */
export const REDIS_COMMAND_TIMEOUT_MS = 250;
/** After a failed count, Redis is left alone this long (requests are counted in the process meanwhile). */
export const REDIS_RETRY_AFTER_MS = 1_000;

/**
 * One atomic step: count the request, start the key's window at its first request (as @fastify/rate-limit's own
 * Redis store does), and answer the count and the window's time left. A key somehow left without an expiry gets one.
 */
const INCR_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

export interface RedisRateCounterOptions {
  url: string;
  /** REDIS_KEY_PREFIX: keys are `<prefix>rate-limit:<window ms>:<key>`. */
  keyPrefix: string;
  log: Pick<Log, 'warn'> & Partial<Pick<Log, 'info'>>;
  now: () => number;
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
}

/**
 * Per-key request counts in Redis, shared by every process that uses the same Redis and REDIS_KEY_PREFIX: exact, as
 * each count is one atomic script. Redis trouble never takes a request down: while Redis is not connected, after a
 * command failed or took longer than REDIS_COMMAND_TIMEOUT_MS (and for REDIS_RETRY_AFTER_MS after), requests are
 * counted in this process alone (a process then allows up to the limit by itself), with one warning when that starts
 * and one line when Redis answers again. ioredis reconnects in the background.
 */
export class RedisRateCounter implements RateCounter {
  readonly kind = 'redis';
  private readonly fallback: MemoryRateCounter;
  private readonly trouble: TroubleLog;
  private retryAt = 0;

  private constructor(
    private readonly redis: Redis,
    private readonly options: RedisRateCounterOptions,
  ) {
    this.fallback = new MemoryRateCounter(options.now);
    this.trouble = new TroubleLog(options.log, 'counting rate limits in Redis');
    // ioredis reports connection trouble as events; without a listener it would print each one.
    redis.on('error', (err: unknown) => this.trouble.failed(err, 'counting in this process alone until Redis answers'));
  }

  /**
   * Connects to Redis, waiting for it at most `connectTimeoutMs`: a Redis that does not answer then does not stop
   * the server from starting (requests are counted in the process until it does).
   */
  static async open(options: RedisRateCounterOptions): Promise<RedisRateCounter> {
    const connectTimeout = options.connectTimeoutMs ?? REDIS_CONNECT_TIMEOUT_MS;
    const redis = new Redis(options.url, {
      connectTimeout,
      commandTimeout: options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS,
      // A command is never queued while disconnected, nor retried on another connection: it fails at once.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
      connectionName: 'integrator-api-rate-limits',
    });
    const counter = new RedisRateCounter(redis, options);
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off('ready', done);
        redis.off('error', done);
        resolve();
      };
      const timer = setTimeout(done, connectTimeout);
      redis.once('ready', done);
      redis.once('error', done);
    });
    return counter;
  }

  async incr(key: string, windowMs: number, max: number): Promise<RateCount> {
    if (this.redis.status === 'ready' && this.options.now() >= this.retryAt) {
      try {
        const [current, ttl] = (await this.redis.eval(INCR_SCRIPT, 1, `${this.options.keyPrefix}rate-limit:${windowMs}:${key}`, windowMs)) as [number, number];
        this.trouble.recovered();
        return { current, ttl };
      } catch (err) {
        this.retryAt = this.options.now() + REDIS_RETRY_AFTER_MS;
        this.trouble.failed(err, 'counting in this process alone until Redis answers');
      }
    }
    return this.fallback.incr(key, windowMs, max);
  }

  async close(): Promise<void> {
    await this.fallback.close();
    if (this.redis.status === 'ready') {
      await this.redis.quit().catch(() => this.redis.disconnect());
    } else {
      this.redis.disconnect();
    }
  }
}
