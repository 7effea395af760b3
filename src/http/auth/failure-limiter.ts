import type { Clock } from '../../clock.js';
import { ApiError } from '../../domain/errors.js';

/** Sources tracked at once; beyond this the oldest window is forgotten (a flood of addresses cannot grow memory). */
const MAX_SOURCES = 100_000;

/**
 * Counts failed authentications (bad signatures, unknown keys, wrong operator tokens) per source address in
 * fixed one-minute windows. Only failures are counted and only failures are refused: past the limit a failing
 * request gets 429 with Retry-After instead of its 401, while a correctly authenticated request from the same
 * address is served as usual. In memory, per process: N processes behind a balancer allow N x the limit.
 */
export class FailureLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly clock: Clock,
    private readonly windowMs = 60_000,
  ) {}

  /**
   * Records a failure of `source` and returns the error to answer with: the original one while under the limit,
   * a 429 once over it.
   */
  fail(source: string, original: unknown): unknown {
    const now = this.clock().getTime();
    let window = this.windows.get(source);
    if (!window || window.resetAt <= now) {
      if (window) this.windows.delete(source);
      else if (this.windows.size >= MAX_SOURCES) this.evict(now);
      window = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(source, window);
    }
    window.count++;
    if (window.count <= this.limit) return original;
    const retryAfter = Math.max(1, Math.ceil((window.resetAt - now) / 1000));
    return new ApiError('auth_rate_limited', `More than ${this.limit} failed authentications from this address in a minute; retry after ${retryAfter} s`, {
      headers: { 'retry-after': String(retryAfter) },
    });
  }

  private evict(now: number): void {
    for (const [source, window] of this.windows) if (window.resetAt <= now) this.windows.delete(source);
    // Still full: drop the oldest entries (Map keeps insertion order).
    for (const source of this.windows.keys()) {
      if (this.windows.size < MAX_SOURCES) break;
      this.windows.delete(source);
    }
  }
}
