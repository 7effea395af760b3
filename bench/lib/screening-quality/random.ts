/** A seeded pseudo-random stream (mulberry32, as bench/screening.ts), with the few draws the generators need. */
export class Rng {
  private a: number;

  constructor(seed: number) {
    this.a = seed | 0;
  }

  /** 0 (included) to 1 (excluded). */
  next(): number {
    this.a = (this.a + 0x6d2b79f5) | 0;
    let t = Math.imul(this.a ^ (this.a >>> 15), 1 | this.a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer from `from` to `to`, both included. */
  between(from: number, to: number): number {
    return from + this.int(to - from + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty pool');
    return items[this.int(items.length)]!;
  }

  /** `n` distinct items (fewer when the pool is smaller). */
  sample<T>(items: readonly T[], n: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, n);
  }
}
