import { setTimeout as sleep } from 'node:timers/promises';
import type { Anvil } from '../../test/harness/anvil.js';
import type { RpcProxy } from '../../test/harness/rpc-proxy.js';

/** Wall-clock milliseconds since the epoch, at performance.now()'s resolution. */
export const epochNow = () => performance.timeOrigin + performance.now();

/** Every height's first appearance on anvil, with the proxy's counters then (read straight from anvil, every ~10 ms). */
export class BlockClock {
  readonly seen = new Map<number, { at: number; requests: number; calls: number }>();
  last = -1;
  private running = true;
  private readonly listeners = new Set<(height: number) => void>();
  private readonly loop: Promise<void>;

  constructor(
    private readonly anvil: Anvil,
    private readonly proxy: RpcProxy,
  ) {
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        const height = Number(await this.anvil.rpc<string>('eth_blockNumber'));
        if (height > this.last) {
          const mark = { at: epochNow(), requests: this.proxy.requests, calls: this.proxy.calls.length };
          // Heights skipped between two looks (none at 1 s blocks) share the later look's moment.
          for (let h = this.last < 0 ? height : this.last + 1; h <= height; h++) this.seen.set(h, mark);
          this.last = height;
          this.listeners.forEach((l) => l(height));
        }
      } catch {
        // anvil stopping: the loop ends with `stop`
      }
      await sleep(10);
    }
  }

  /** Resolves with the next height to appear after the current one. */
  next(): Promise<number> {
    return new Promise((resolve) => {
      const once = (height: number) => {
        this.listeners.delete(once);
        resolve(height);
      };
      this.listeners.add(once);
    });
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}

