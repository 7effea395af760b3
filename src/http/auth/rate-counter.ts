import type { Log } from '../../log.js';

/** A request counted: how many the key made in its window so far (this one included), and the window's time left. */
export interface RateCount {
  current: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}

/**
 * Counts requests per key in windows of `windowMs`: what the per-credential rate limit (signed-scope.ts) asks of a
 * store. `max` is the limit the count is compared with, for counters that decide more carefully near it.
 */
export interface RateCounter {
  /** Where the counts live: `redis` and `postgres` are shared by every process, `memory` is this process's alone. */
  readonly kind: 'memory' | 'postgres' | 'redis';
  /** A count known at once comes back as it is: no promise on the path of every signed request (rate-limit-hook.ts). */
  incr(key: string, windowMs: number, max: number): RateCount | Promise<RateCount>;
  /** Stops timers and connections; counts not yet shared are sent first where that can be done. */
  close(): Promise<void>;
}

/**
 * Counts in this process alone, each key's window starting at its first request (as @fastify/rate-limit's store
 * did). The embedded database's counter (one process), and the Redis counter's stand-in while Redis does not answer.
 */
export class MemoryRateCounter implements RateCounter {
  readonly kind = 'memory';
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  constructor(
    private readonly now: () => number,
    /** Above this many keys, ended windows are dropped before a new key is added. */
    private readonly maxKeys = 10_000,
  ) {}

  incr(key: string, windowMs: number, _max?: number): RateCount {
    const now = this.now();
    const id = `${windowMs}:${key}`;
    let window = this.windows.get(id);
    if (!window || window.endsAt <= now) {
      if (!window && this.windows.size >= this.maxKeys) this.sweep(now);
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(id, window);
    }
    window.count += 1;
    return { current: window.count, ttl: window.endsAt - now };
  }

  private sweep(now: number): void {
    for (const [id, window] of this.windows) if (window.endsAt <= now) this.windows.delete(id);
    // Still full of live windows: the oldest entries go (a Map iterates in insertion order).
    for (const id of this.windows.keys()) {
      if (this.windows.size < this.maxKeys) break;
      this.windows.delete(id);
    }
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}

/** Logs a trouble once when it starts, and once when it is over; not a line per request in between. */
export class TroubleLog {
  private failing = false;

  constructor(
    private readonly log: Pick<Log, 'warn'> & Partial<Pick<Log, 'info'>>,
    private readonly what: string,
  ) {}

  failed(err: unknown, consequence: string): void {
    if (this.failing) return;
    this.failing = true;
    this.log.warn({ err }, `${this.what} failed: ${consequence}`);
  }

  recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    (this.log.info ?? this.log.warn).call(this.log, {}, `${this.what} works again`);
  }

  get isFailing(): boolean {
    return this.failing;
  }
}
