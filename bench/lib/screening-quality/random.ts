import { mulberry32 } from '../mulberry32.js';

/** A seeded pseudo-random stream (bench/lib/mulberry32.ts), with the few draws the generators need. */
export class Rng {
  /** 0 (included) to 1 (excluded). */
  readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer from `from` to `to`, both included. */
  between(from: number, to: number): number {
    return from + this.int(to - from + 1);
  }

  /** 0 to max inclusive, small counts likelier. */
  few(max: number): number {
    return Math.min(max, Math.floor(-Math.log(1 - this.next()) * (max / 3)));
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
