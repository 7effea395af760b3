/** A clock tests can move. It follows real time plus an offset unless frozen at an instant. */
export class TestClock {
  private frozen: number | undefined;
  private offsetMs = 0;

  readonly now = (): Date => new Date(this.frozen ?? Date.now() + this.offsetMs);

  freeze(at: Date | number): void {
    this.frozen = typeof at === 'number' ? at : at.getTime();
  }

  /** Follows real time again from where the frozen clock stands (keeps any offset built up). */
  thaw(): void {
    if (this.frozen === undefined) return;
    this.offsetMs = this.frozen - Date.now();
    this.frozen = undefined;
  }

  /** Back to real time. */
  reset(): void {
    this.frozen = undefined;
    this.offsetMs = 0;
  }

  advance(ms: number): void {
    if (this.frozen !== undefined) this.frozen += ms;
    else this.offsetMs += ms;
  }

  seconds(): number {
    return Math.floor(this.now().getTime() / 1000);
  }
}
