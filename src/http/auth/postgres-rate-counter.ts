import type { WindowCount } from '../../db/repositories/rate-limit-windows.js';
import type { Log } from '../../log.js';
import { TroubleLog, type RateCount, type RateCounter } from './rate-counter.js';

/** How often counts are sent to PostgreSQL when nothing asks for them sooner. */
export const FLUSH_INTERVAL_MS = 100;
/** A key's counts are sent at once, without waiting for the interval, when this share of the limit is unsent. */
export const SEND_SHARE = 1 / 20;
/** From this share of the limit on, a request waits for the shared total before it is decided. */
export const CAREFUL_SHARE = 0.75;
/** The longest such a request waits: then it is decided on what this process knows (a database that stalls). */
export const CAREFUL_WAIT_MS = 500;
/** While PostgreSQL fails, counts are sent again this often, and no request waits for them. */
export const RETRY_INTERVAL_MS = 1_000;

export interface PostgresRateCounterOptions {
  /** Adds deltas to the shared windows and returns their totals (addToRateLimitWindows, or a stand-in in tests). */
  add: (deltas: WindowCount[]) => Promise<WindowCount[]>;
  now: () => number;
  log: Pick<Log, 'warn'> & Partial<Pick<Log, 'info'>>;
  flushIntervalMs?: number;
}

/**
 * One key's window as this process sees it. Requests are numbered as they are counted here (1, 2, …): those up to
 * `acked` are in `shared` (the window's total as last read, every process's requests included), those after it
 * are not there yet (`sent`: taken by the flush in flight; the rest wait for the next).
 */
interface KeyWindow {
  key: string;
  windowStart: number;
  windowEnd: number;
  shared: number;
  counted: number;
  sent: number;
  acked: number;
  /** Requests that wait for the total that includes them: their number here, and what to call with their rank. */
  waiters: { local: number; resolve: (rank: number) => void }[];
}

/**
 * Per-key request counts in fixed windows (aligned on the epoch, so every process agrees on them), shared through
 * one PostgreSQL row per key and window. A request is counted here at once and decided on the last total read plus
 * what this process counted since. What it counted is added to the row as one delta per key (`insert … on conflict
 * do update set count = count + excluded.count returning count`, which also reads the total back) every
 * FLUSH_INTERVAL_MS, and at once when SEND_SHARE of the limit is unsent, so a busy key is sent as often as its
 * traffic needs and an idle one not at all. A key's first request in a window, and every request near the limit
 * (from CAREFUL_SHARE of it), wait for that addition instead and are decided on the exact total: their rank among
 * every process's requests. Requests over the limit are refused from what this process knows, without waiting:
 * the total only grows within a window, so nothing is refused before the key really reached the limit.
 *
 * So a process allows a request it should not have only on a stale total, one that misses what the other processes
 * counted since they last sent (at most SEND_SHARE of the limit each, plus a send in flight) and what they sent
 * since this process last read (it reads each time it sends). With a few processes that stays below the quarter of
 * the limit the careful zone leaves, so in practice the limit holds exactly; at worst the overshoot is the key's
 * requests of about two flush intervals (docs/deployment.md#rate-limits-across-processes). When PostgreSQL fails,
 * requests are decided on this process's counts without waiting (fail open), and the deltas are sent again every
 * RETRY_INTERVAL_MS until it answers.
 */
export class PostgresRateCounter implements RateCounter {
  readonly kind = 'postgres';
  private readonly windows = new Map<string, KeyWindow>();
  /** Windows with requests not yet sent (a window stays here after the next replaces it in `windows`). */
  private readonly dirty = new Set<KeyWindow>();
  private readonly flushIntervalMs: number;
  private readonly trouble: TroubleLog;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private nextSweep = 0;
  private closed = false;

  constructor(private readonly options: PostgresRateCounterOptions) {
    this.flushIntervalMs = options.flushIntervalMs ?? FLUSH_INTERVAL_MS;
    this.trouble = new TroubleLog(options.log, 'sharing rate-limit counts through PostgreSQL');
  }

  incr(key: string, windowMs: number, max: number): RateCount | Promise<RateCount> {
    const now = this.options.now();
    const window = this.windowOf(key, windowMs, now);
    const local = ++window.counted;
    this.dirty.add(window);
    const estimate = window.shared + (local - window.acked);
    const usable = !this.closed && !this.trouble.isFailing;
    const careful = usable && (window.acked === 0 || (estimate <= max && estimate > Math.floor(max * CAREFUL_SHARE)));
    if (!careful) {
      // A busy key is sent (and its total read back) every SEND_SHARE of the limit, however fast it comes.
      if (usable && local - window.sent >= Math.max(1, Math.floor(max * SEND_SHARE))) void this.flush();
      else this.schedule();
      return { current: estimate, ttl: window.windowEnd - now };
    }
    return this.waitForRank(window, local);
  }

  /** A count near the limit, or a key's first: its rank in the total every process sent, or an estimate after CAREFUL_WAIT_MS. */
  private async waitForRank(window: KeyWindow, local: number): Promise<RateCount> {
    const rank = await new Promise<number>((resolve) => {
      const timer = setTimeout(() => resolve(window.shared + (local - window.acked)), CAREFUL_WAIT_MS);
      window.waiters.push({
        local,
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
      });
      void this.flush();
    });
    return { current: rank, ttl: Math.max(0, window.windowEnd - this.options.now()) };
  }

  /**
   * Sends every unsent count; resolves once they are in PostgreSQL (or failed). While a flush is in flight, one
   * more is queued after it, which every caller meanwhile shares.
   */
  flush(): Promise<void> {
    if (!this.running) {
      this.running = this.run()
        .catch((err: unknown) => this.trouble.failed(err, 'deciding rate limits on the counts of this process alone until it works again'))
        .finally(() => {
          this.running = undefined;
        });
      return this.running;
    }
    this.queued ??= this.running.then(() => {
      this.queued = undefined;
      return this.flush();
    });
    return this.queued;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private windowOf(key: string, windowMs: number, now: number): KeyWindow {
    const id = `${windowMs}:${key}`;
    const windowStart = Math.floor(now / windowMs) * windowMs;
    let window = this.windows.get(id);
    if (!window || window.windowStart !== windowStart) {
      window = { key, windowStart, windowEnd: windowStart + windowMs, shared: 0, counted: 0, sent: 0, acked: 0, waiters: [] };
      this.windows.set(id, window);
    }
    return window;
  }

  private schedule(): void {
    if (this.timer || this.closed || this.dirty.size === 0) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        void this.flush();
      },
      this.trouble.isFailing ? Math.max(this.flushIntervalMs, RETRY_INTERVAL_MS) : this.flushIntervalMs,
    );
    this.timer.unref();
  }

  private async run(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch: { window: KeyWindow; to: number }[] = [];
    for (const window of this.dirty) {
      if (window.counted > window.sent) batch.push({ window, to: window.counted });
      window.sent = window.counted;
    }
    this.dirty.clear();
    if (batch.length > 0) {
      const deltas = batch.map(({ window, to }) => ({
        key: window.key,
        windowStart: new Date(window.windowStart),
        windowEnd: new Date(window.windowEnd),
        count: to - window.acked,
      }));
      try {
        const totals = new Map((await this.options.add(deltas)).map((t) => [`${t.windowStart.getTime()}/${t.windowEnd.getTime()}/${t.key}`, t.count]));
        this.trouble.recovered();
        for (const { window, to } of batch) {
          const total = totals.get(`${window.windowStart}/${window.windowEnd}/${window.key}`);
          if (total === undefined) this.requeue(window);
          else this.acknowledge(window, to, total);
        }
      } catch (err) {
        this.trouble.failed(err, 'deciding rate limits on the counts of this process alone until it works again');
        for (const { window } of batch) this.requeue(window);
      }
    }
    this.sweep();
    this.schedule();
  }

  /** The window's total after this process's requests up to `to` were added. */
  private acknowledge(window: KeyWindow, to: number, total: number): void {
    window.acked = to;
    window.shared = Math.max(window.shared, total);
    // This process's requests went in as one block ending at `to`: a request's rank is the total less those after it.
    window.waiters = window.waiters.filter(({ local, resolve }) => {
      if (local > to) return true;
      resolve(total - (to - local));
      return false;
    });
  }

  /** A failed addition: its requests are sent again with the next, and whoever waited is decided on what is known. */
  private requeue(window: KeyWindow): void {
    window.sent = window.acked;
    this.dirty.add(window);
    for (const { local, resolve } of window.waiters) resolve(window.shared + (local - window.acked));
    window.waiters = [];
  }

  /** Forgets the windows that ended and have nothing left to send. */
  private sweep(): void {
    const now = this.options.now();
    if (now < this.nextSweep) return;
    this.nextSweep = now + 10_000;
    for (const [id, window] of this.windows) if (window.windowEnd <= now && !this.dirty.has(window)) this.windows.delete(id);
  }
}
