import type { Address } from 'viem';
import { readBalances, type OwnerBalances } from '../../chain/balance-lens.js';
import type { ChainClient } from '../../chain/chain-client.js';

/**
 * Milliseconds between blocks of the chains this service knows by id (docs/tokens.md#balances): how long a figure
 * stays current. Any other chain (anvil's 31337, a test chain) is taken to seal a block a second.
 */
const BLOCK_TIMES_MS: Record<number, number> = { 1: 12_000, 11155111: 12_000, 8453: 2_000, 84532: 2_000, 10: 2_000, 137: 2_000, 43114: 2_000, 56: 3_000, 42161: 250 };

export const blockTimeMs = (chainId: number): number => BLOCK_TIMES_MS[chainId] ?? 1_000;

/** Wallets a chain's book keeps reading: the most recently asked, and only while asked within WATCH_MS. */
export const MAX_WATCHED = 5_000;
const WATCH_MS = 30_000;

interface Entry {
  reading: OwnerBalances;
  /** When the read that made it was sent (performance.now()). */
  sentAt: number;
  /** When a request last asked for it. */
  askedAt: number;
}

/**
 * One chain's balances of the wallets asked for, read at most once per block time for all of them together
 * (docs/tokens.md#balances). A figure is served from memory while younger than 1.5 block times; from one block time
 * on, a request that is served also starts the next read (of every watched wallet, in one HTTP request), so under
 * steady asking nobody waits for the node. A wallet without a current figure waits for the next read, which takes
 * every wallet waiting by then; one read is in flight at a time. A failed read fails its waiters and leaves the
 * figures to expire: nothing older than 1.5 block times is ever served.
 */
export class ChainBalanceBook {
  private readonly entries = new Map<string, Entry>();
  private waiting = new Map<string, { resolve: (r: OwnerBalances) => void; reject: (err: unknown) => void }[]>();
  /** The wallets of the read in flight, each resolving with its figures. */
  private inFlight = new Map<string, Promise<OwnerBalances>>();
  private readonly periodMs: number;

  constructor(
    private readonly chain: ChainClient,
    private readonly tokens: readonly Address[],
    private readonly now: () => number = () => performance.now(),
  ) {
    this.periodMs = blockTimeMs(chain.chainId);
  }

  /** The wallet's native and token balances (tokens in the order given), all of one block. Throws RpcFailure. */
  get(wallet: string): Promise<OwnerBalances> {
    const key = wallet.toLowerCase();
    const now = this.now();
    const entry = this.entries.get(key);
    if (entry) {
      // Map order is the eviction order: the least recently asked go first.
      this.entries.delete(key);
      entry.askedAt = now;
      this.entries.set(key, entry);
      const age = now - entry.sentAt;
      if (age < this.periodMs * 1.5) {
        if (age >= this.periodMs && this.inFlight.size === 0) this.send();
        return Promise.resolve(entry.reading);
      }
    }
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    return new Promise<OwnerBalances>((resolve, reject) => {
      const list = this.waiting.get(key);
      if (list) list.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      if (this.inFlight.size === 0) this.send();
    });
  }

  /**
   * One read: every waiting wallet, and every watched one whose figure is half a block time old or more (so wallets
   * first read at different moments fall into one read per block time).
   */
  private send(): void {
    const now = this.now();
    const waiters = this.waiting;
    this.waiting = new Map();
    for (const [key, entry] of this.entries) {
      if (now - entry.askedAt > WATCH_MS) this.entries.delete(key);
      else if (now - entry.sentAt >= this.periodMs / 2 && !waiters.has(key)) waiters.set(key, []);
    }
    if (waiters.size === 0) return;
    const owners = [...waiters.keys()];
    const read = readBalances(this.chain, owners as Address[], this.tokens);
    owners.forEach((key, i) => this.inFlight.set(key, read.then((all) => all[i]!)));
    read.then(
      (all) => {
        owners.forEach((key, i) => {
          const reading = all[i]!;
          const entry = this.entries.get(key);
          // A refreshed wallet keeps its place in the eviction order: only asking moves it.
          if (entry) Object.assign(entry, { reading, sentAt: now });
          else this.entries.set(key, { reading, sentAt: now, askedAt: now });
          for (const w of waiters.get(key)!) w.resolve(reading);
        });
        this.evict();
      },
      (err: unknown) => {
        for (const asked of waiters.values()) for (const w of asked) w.reject(err);
      },
    ).finally(() => {
      this.inFlight = new Map();
      if (this.waiting.size > 0) this.send();
    });
    // Each request awaits its own promise: this one's rejection is handled above.
    for (const p of this.inFlight.values()) p.catch(() => undefined);
  }

  private evict(): void {
    for (const key of this.entries.keys()) {
      if (this.entries.size <= MAX_WATCHED) break;
      this.entries.delete(key);
    }
  }
}
