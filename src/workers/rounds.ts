/**
 * Runs a worker's round of work one at a time. A kick during a round is not lost: it runs one more round right
 * after. Between kicks the worker sleeps at most `maxSleepMs` (a safety net for missed notifications).
 */
export class Rounds {
  private running: Promise<void> | undefined;
  private pending = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly round: () => Promise<void>,
    private readonly onError: (err: unknown) => void,
    private readonly maxSleepMs: number,
  ) {}

  /** Run a round now, or right after the one under way. */
  readonly kick = (): void => {
    if (this.stopped) return;
    if (this.running) {
      this.pending = true;
      return;
    }
    this.running = this.round()
      .catch(this.onError)
      .finally(() => {
        this.running = undefined;
        if (this.pending) {
          this.pending = false;
          this.kick();
        }
      });
  };

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
    await this.running;
  }
}
