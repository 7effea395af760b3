import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db, Executor } from './database.js';

/**
 * Small statements of one kind from concurrent requests, sent together: while one batch is in flight the items that
 * arrive wait, and the next batch takes every waiting item (up to `maxBatch`). No timer: an item that finds nothing in
 * flight goes at once, so a quiet server answers as before and a busy one sends fewer, larger statements. On two
 * shared cores every statement's round trip (its socket write, the wake-up of PostgreSQL and of the event loop) cost
 * about 3 % of the request thread under bench:transactions (docs/benchmarks.md#transactions).
 *
 * `run` answers one result per item, in order; when it throws, every item of that batch rejects with its error (and
 * the next batch goes on).
 */
export class Coalescer<In, Out> {
  private waiting: { item: In; resolve: (out: Out) => void; reject: (err: unknown) => void }[] = [];
  private inFlight = 0;

  constructor(
    private readonly run: (items: In[]) => Promise<Out[]>,
    private readonly options: { maxBatch: number; maxInFlight: number } = { maxBatch: 100, maxInFlight: 2 },
  ) {}

  submit(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.options.maxBatch);
      this.inFlight++;
      void this.send(batch);
    }
  }

  private async send(batch: Coalescer<In, Out>['waiting']): Promise<void> {
    try {
      const outs = await this.run(batch.map((b) => b.item));
      if (outs.length !== batch.length) throw new Error(`a coalesced statement answered ${outs.length} results for ${batch.length} items`);
      batch.forEach((b, i) => b.resolve(outs[i]!));
    } catch (err) {
      for (const b of batch) b.reject(err);
    } finally {
      this.inFlight--;
      this.next();
    }
  }
}

/**
 * One Coalescer per database for `run`; inside a transaction the item runs by itself on the transaction's connection
 * (a batch shares no transaction). What repositories call.
 */
export function coalesced<In, Out>(run: (db: Executor, items: In[]) => Promise<Out[]>, options?: { maxBatch: number; maxInFlight: number }): (db: Executor, item: In) => Promise<Out> {
  const byDatabase = new WeakMap<Db, Coalescer<In, Out>>();
  return async (db, item) => {
    if (db instanceof PgTransaction) return (await run(db, [item]))[0]!;
    let coalescer = byDatabase.get(db);
    if (!coalescer) byDatabase.set(db, (coalescer = new Coalescer((items) => run(db, items), options)));
    return coalescer.submit(item);
  };
}
