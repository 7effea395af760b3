import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import { DELIVERY_CHANNEL } from '../db/repositories/events.js';
import { claimDueDeliveries, nextDueAt, releaseClaims, type Claimed } from '../db/repositories/webhook-deliveries.js';
import { lockSubscriptionsBeforeDeliveries } from '../db/repositories/webhook-subscriptions.js';
import type { Log } from '../log.js';
import { Rounds } from './rounds.js';

export interface ClaimLoopDeps<B> {
  database: Database;
  clock: Clock;
  log: Log;
  /** Deliveries in flight at once. */
  concurrency: number;
  /** How long a claim holds (longer than the slowest attempt, so no other worker takes it over meanwhile). */
  leaseMs: number;
  /** Longest sleep between looks at the outbox when no NOTIFY arrives (a missed one, or a retry coming due). */
  pollIntervalMs: number;
  /** Loads what a claim's deliveries need, once for all of them. */
  load(claimed: Claimed[], now: Date): Promise<B>;
  /** Makes one attempt and records it; the slot is busy until this settles. */
  deliver(claim: Claimed, batch: B): Promise<void>;
  /** True while claiming more would outrun the recording of what was sent (back-pressure). */
  holdBack(): boolean;
}

export interface ClaimLoop {
  /** Look at the outbox now (NOTIFY does this on its own). */
  kick(): void;
  /**
   * Stops claiming and gives back claims not started; waits up to `graceMs` for deliveries in flight, then calls
   * `cutOff` (which makes the rest end soon), waits for them all, and stops listening.
   */
  stop(graceMs: number, cutOff: () => void): Promise<void>;
}

/**
 * Claims due deliveries (FOR UPDATE SKIP LOCKED, under a lease) and runs up to `concurrency` of them at once.
 * Wakes on NOTIFY from committing transactions, on its own retries coming due, and on a poll interval as a
 * safety net.
 */
export async function startClaimLoop<B>(deps: ClaimLoopDeps<B>): Promise<ClaimLoop> {
  const { database, clock, log, concurrency, pollIntervalMs } = deps;
  const inFlight = new Set<Promise<void>>();
  /** Claimed deliveries waiting for a slot: claiming ahead keeps every slot busy while the next claim runs. */
  const queue: { claim: Claimed; batch: B }[] = [];
  const rounds = new Rounds(() => look(), (err) => log.error({ err }, 'webhook worker round failed'), pollIntervalMs);
  const kick = rounds.kick;
  let stopping = false;

  const listener = await database.listen(DELIVERY_CHANNEL, { onMessage: () => kick(), onReset: () => kick() });

  function startQueued(): void {
    while (inFlight.size < concurrency && queue.length > 0) {
      const { claim, batch } = queue.shift()!;
      const p = deps.deliver(claim, batch).catch((err: unknown) => log.error({ err, deliveryId: claim.id }, 'webhook delivery failed unexpectedly'));
      const tracked = p.finally(() => {
        inFlight.delete(tracked);
        if (!stopping) startQueued();
        kick();
      });
      inFlight.add(tracked);
    }
  }

  async function look(): Promise<void> {
    startQueued();
    if (deps.holdBack()) return;
    // Claim ahead, up to a second round of slots, and in batches: once a quarter of that is missing, so one
    // claim and one load serve many deliveries instead of one each.
    const want = 2 * concurrency - inFlight.size - queue.length;
    if (want < Math.ceil(concurrency / 4)) return;
    const now = clock();
    const claimed = await claimDueDeliveries(database.db, now, new Date(now.getTime() + deps.leaseMs), randomUUID(), want);
    if (claimed.length > 0) {
      const batch = await deps.load(claimed, now);
      for (const claim of claimed) queue.push({ claim, batch });
      startQueued();
      if (claimed.length === want) rounds.again();
      return;
    }
    const due = await nextDueAt(database.db);
    rounds.wakeIn(due ? due.getTime() - clock().getTime() : pollIntervalMs);
  }

  /** Claims not started go back to the outbox at once rather than after their lease. */
  async function giveBack(waiting: Claimed[]): Promise<void> {
    if (waiting.length === 0) return;
    // Subscriptions first, as everywhere. If this fails (a lock conflict), the claims simply expire with their lease.
    await database.db
      .transaction(async (tx) => {
        await lockSubscriptionsBeforeDeliveries(tx, waiting.map((c) => c.subscriptionId), 'share');
        await releaseClaims(tx, waiting, clock());
      })
      .catch((err: unknown) => log.warn({ err, claims: waiting.length }, 'webhook claims not given back; they return to the outbox when their lease ends'));
  }

  kick();
  return {
    kick,
    async stop(graceMs, cutOff) {
      stopping = true;
      await rounds.stop();
      await giveBack(queue.splice(0).map((q) => q.claim));
      // Deliveries in flight get a short grace; then they are cut off and recorded as failed attempts, to be
      // retried (by this or another worker) like any other failure.
      const settled = Promise.allSettled([...inFlight]);
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([settled, new Promise((resolve) => (grace = setTimeout(resolve, graceMs)))]);
      clearTimeout(grace);
      cutOff();
      await settled;
      await listener.close();
    },
  };
}
