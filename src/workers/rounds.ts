/**
 * Runs a worker's round of work one at a time. A kick during a round is not lost: it runs one more round right
 * after. Between kicks the worker sleeps at most `maxSleepMs` (a safety net for missed notifications).
 *
 * With `minGapMs`, a kick runs its round no sooner than that long after the previous round started: under load the
 * kicks of many requests share one round (the transaction watcher: one receipt batch and one database transaction
 * for the broadcasts of a tenth of a second, instead of a round per broadcast).
 */
export class Rounds {
  private running: Promise<void> | undefined;
  private pending = false;
  /** The pending round was asked for by `now`: it does not wait for the gap. */
  private pendingNow = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  /** A kick waiting for the gap after the previous round's start. */
  private deferred: NodeJS.Timeout | undefined;
  private lastStart = -Infinity;

  constructor(
    private readonly round: () => Promise<void>,
    private readonly onError: (err: unknown) => void,
    private readonly maxSleepMs: number,
    private readonly minGapMs = 0,
  ) {}

  /** Run a round now (or once `minGapMs` has passed since the last one started), or right after the one under way. */
  readonly kick = (): void => {
    if (this.stopped || this.deferred) return;
    if (this.running) {
      this.pending = true;
      return;
    }
    const wait = this.lastStart + this.minGapMs - performance.now();
    if (wait > 0) {
      this.deferred = setTimeout(() => {
        this.deferred = undefined;
        this.start();
      }, wait);
      return;
    }
    this.start();
  };

  /** Run a round now whatever the gap (a caller that waits for it), or right after the one under way. */
  readonly now = (): void => {
    if (this.stopped) return;
    if (this.deferred) {
      clearTimeout(this.deferred);
      this.deferred = undefined;
    }
    if (this.running) {
      this.pending = true;
      this.pendingNow = true;
      return;
    }
    this.start();
  };

  private start(): void {
    if (this.stopped) return;
    this.lastStart = performance.now();
    this.running = this.round()
      .catch(this.onError)
      .finally(() => {
        this.running = undefined;
        if (this.pending) {
          const now = this.pendingNow;
          this.pending = false;
          this.pendingNow = false;
          if (now) this.start();
          else this.kick();
        }
      });
  }

  /** From inside a round: run another one as soon as this one ends. */
  again(): void {
    this.pending = true;
  }

  /** Run a round in `ms` (capped at maxSleepMs) unless kicked sooner; replaces an earlier wake-up. */
  wakeIn(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(this.kick, Math.max(0, Math.min(ms, this.maxSleepMs)));
    this.timer.unref();
  }

  /** No more rounds; resolves when the one under way has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.deferred) clearTimeout(this.deferred);
    this.deferred = undefined;
    await this.running;
  }
}
