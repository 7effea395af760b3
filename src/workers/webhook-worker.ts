import { randomUUID, type KeyObject } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { WebhookConfig } from '../config.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { privateKeyFromRaw, signWebhook } from '../crypto/webhook-signature.js';
import type { Database, Executor } from '../db/database.js';
import { DELIVERY_CHANNEL, findEventsByIds } from '../db/repositories/events.js';
import { claimDueDeliveries, releaseClaims, finishAttempt, finishSuccesses, nextDueAt, type Claimed, type SuccessRecord } from '../db/repositories/webhook-deliveries.js';
import { endFailingStreaks, findSubscriptionsByIds, lockSubscriptionsBeforeDeliveries, signingKeysOf, type SigningKeyRow, type SubscriptionRow } from '../db/repositories/webhook-subscriptions.js';
import { webhookSubscriptions } from '../db/schema/index.js';
import { toEventView } from '../domain/events/event-view.js';
import { newId } from '../domain/ids.js';
import { isReservedHeader, openHeaders } from '../domain/webhooks/custom-headers.js';
import { isSuccess, nextStep } from '../domain/webhooks/retry-policy.js';
import { disableSubscription } from '../domain/webhooks/subscriptions.js';
import type { Resolver } from '../domain/webhooks/url-safety.js';
import { API_VERSION } from '../version.js';
import { Rounds } from './rounds.js';
import { WebhookSender, type SendResult } from './webhook-sender.js';
import { sealContexts } from '../crypto/seal-contexts.js';
import type { Log } from '../log.js';

export interface WebhookWorkerDeps {
  database: Database;
  secrets: SecretBox;
  clock: Clock;
  config: WebhookConfig;
  log: Log;
  /** Tests inject a resolver to exercise the connect-time address check. */
  resolve?: Resolver;
  /** Longest sleep between looks at the outbox when no NOTIFY arrives (a missed one, or a retry coming due). */
  pollIntervalMs?: number;
}

export interface WebhookWorker {
  /** Look at the outbox now (NOTIFY does this on its own). */
  kick(): void;
  /** Stops claiming, waits for deliveries in flight, releases connections. */
  stop(): Promise<void>;
}

const USER_AGENT = `IntegratorAPI-Webhooks/${API_VERSION}`;
const STOP_GRACE_MS = 2000;
const KEY_CACHE_LIMIT = 10_000;
/** Successful attempts are recorded together: up to this many per transaction, or after FLUSH_DELAY_MS. */
const SUCCESS_BATCH = 32;
const FLUSH_DELAY_MS = 2;

/**
 * Delivers the outbox. Each round claims due deliveries (up to the free concurrency), signs and POSTs each,
 * then records the attempt and the next step in one transaction guarded by the claim token. Wakes on NOTIFY
 * from committing transactions, on its own retries coming due, and on a poll interval as a safety net.
 */
export async function startWebhookWorker(deps: WebhookWorkerDeps): Promise<WebhookWorker> {
  const { database, clock, config, log } = deps;
  const db = database.db;
  const sender = new WebhookSender({ timeoutMs: config.timeoutMs, allowPrivate: config.allowPrivate, ...(deps.resolve ? { resolve: deps.resolve } : {}) });
  const pollIntervalMs = deps.pollIntervalMs ?? 1000;
  // A claim outlives the slowest attempt by a margin (config: longer than timeoutMs); only then may another worker take it over.
  const leaseMs = config.leaseMs;
  const inFlight = new Set<Promise<void>>();
  /** Successes sent but not yet recorded (their group's transaction has not committed). */
  const unrecorded = new Set<Promise<void>>();
  // A worker holds at most 3 × concurrency claims: queued (claimed ahead), in flight, and sent but unrecorded.
  const RECORDING_LIMIT = config.concurrency;
  const rounds = new Rounds(() => look(), (err) => log.error({ err }, 'webhook worker round failed'), pollIntervalMs);
  const kick = rounds.kick;
  let stopping = false;

  const listener = await database.listen(DELIVERY_CHANNEL, { onMessage: () => kick(), onReset: () => kick() });

  /** Claimed deliveries waiting for a slot: claiming ahead keeps every slot busy while the next claim runs. */
  const queue: { claim: Claimed; token: string; batch: Batch }[] = [];

  function startQueued(): void {
    while (inFlight.size < config.concurrency && queue.length > 0) {
      const { claim, token, batch } = queue.shift()!;
      const p = deliver(claim, token, batch).catch((err: unknown) => log.error({ err, deliveryId: claim.id }, 'webhook delivery failed unexpectedly'));
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
    // Back-pressure: the database is not keeping up with recording successes.
    if (unrecorded.size >= RECORDING_LIMIT) return;
    // Claim ahead, up to a second round of slots, and in batches: once a quarter of that is missing, so one
    // claim and one load serve many deliveries instead of one each.
    const want = 2 * config.concurrency - inFlight.size - queue.length;
    if (want < Math.ceil(config.concurrency / 4)) return;
    const now = clock();
    const token = randomUUID();
    const claimed = await claimDueDeliveries(db, now, new Date(now.getTime() + leaseMs), token, want);
    if (claimed.length > 0) {
      const batch = await loadBatch(claimed, now);
      for (const claim of claimed) queue.push({ claim, token, batch });
      startQueued();
      if (claimed.length === want) rounds.again();
      return;
    }
    const due = await nextDueAt(db);
    rounds.wakeIn(due ? due.getTime() - clock().getTime() : pollIntervalMs);
  }

  interface Batch {
    events: Map<string, ReturnType<typeof toEventView>>;
    subscriptions: Map<string, SubscriptionRow>;
    keys: Map<string, SigningKeyRow[]>;
  }

  async function loadBatch(claimed: Claimed[], now: Date): Promise<Batch> {
    const subscriptionIds = [...new Set(claimed.map((c) => c.subscriptionId))];
    const [eventRows, subscriptionRows, keyRows] = await Promise.all([
      findEventsByIds(db, [...new Set(claimed.map((c) => c.eventId))]),
      findSubscriptionsByIds(db, subscriptionIds),
      signingKeysOf(db, subscriptionIds, now),
    ]);
    const keys = new Map<string, SigningKeyRow[]>();
    for (const k of keyRows) keys.set(k.subscriptionId, [...(keys.get(k.subscriptionId) ?? []), k]);
    return {
      events: new Map(eventRows.map((e) => [e.id, toEventView(e)])),
      subscriptions: new Map(subscriptionRows.map((s) => [s.id, s])),
      keys,
    };
  }

  /**
   * Importing an Ed25519 key costs OpenSSL's DER decoder about a millisecond; a key id's key never changes, so
   * each is opened and imported once per process (bounded: the cache is dropped when it grows past the limit).
   */
  const keyObjects = new Map<string, KeyObject>();
  function signingKey(k: SigningKeyRow): KeyObject {
    let key = keyObjects.get(k.id);
    if (!key) {
      if (keyObjects.size >= KEY_CACHE_LIMIT) keyObjects.clear();
      key = privateKeyFromRaw(deps.secrets.open(k.sealedPrivateKey, sealContexts.webhookSigningKey(k.id)));
      keyObjects.set(k.id, key);
    }
    return key;
  }

  function headersFor(subscription: SubscriptionRow, keys: SigningKeyRow[], eventId: string, body: string): Record<string, string> {
    const timestamp = Math.floor(clock().getTime() / 1000);
    // The active key first, then any rotated-out key still in its grace period.
    const ordered = [...keys].sort((a, b) => (a.id === subscription.activeSigningKeyId ? -1 : b.id === subscription.activeSigningKeyId ? 1 : 0));
    const privateKeys = ordered.map((k) => signingKey(k));
    const headers: Record<string, string> = {};
    // Sealed at rest (a legacy row not yet sealed by maintenance: its clear values).
    for (const [name, value] of Object.entries(openHeaders(deps.secrets, subscription))) if (!isReservedHeader(name)) headers[name.toLowerCase()] = value;
    return {
      ...headers,
      'user-agent': headers['user-agent'] ?? USER_AGENT,
      'content-type': 'application/json',
      'webhook-id': eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(privateKeys, eventId, timestamp, body),
    };
  }

  async function deliver(claim: Claimed, token: string, batch: Batch): Promise<void> {
    const event = batch.events.get(claim.eventId);
    const subscription = batch.subscriptions.get(claim.subscriptionId);
    const keys = batch.keys.get(claim.subscriptionId) ?? [];
    // Deleted with its subscription or purged with its event: the row is gone too (cascade); nothing to do.
    if (!event || !subscription || keys.length === 0) return;

    let result: SendResult;
    if (!subscription.enabled) {
      result = { status: null, body: null, retryAfter: undefined, error: 'subscription_disabled', durationMs: 0 };
    } else {
      const body = JSON.stringify(event);
      result = await sender.send(subscription.url, headersFor(subscription, keys, event.id, body), body);
    }
    const attemptedAt = new Date(clock().getTime() - result.durationMs);
    if (subscription.enabled && isSuccess(result.status)) {
      // The slot is free once the receiver answered: the success is recorded with the next group in the
      // background (the claim's lease keeps the delivery from being taken meanwhile).
      const success: SuccessRecord = { claim: { id: claim.id, token }, subscriptionId: subscription.id, attemptedAt, durationMs: result.durationMs, responseStatus: result.status!, responseBody: result.body, now: clock() };
      const recording = recordSuccess(success)
        .catch((err: unknown) => log.error({ err, deliveryId: claim.id }, 'webhook success not recorded; the delivery will be retried after its lease'))
        .finally(() => {
          unrecorded.delete(recording);
          if (unrecorded.size === RECORDING_LIMIT - 1) kick();
        });
      unrecorded.add(recording);
      return;
    }
    const outcome = { attemptId: newId(), attemptedAt, durationMs: result.durationMs, responseStatus: result.status, responseBody: result.body, error: result.error };
    await database.db.transaction(async (tx) => {
      await lockSubscriptionsBeforeDeliveries(tx, [subscription.id], 'update');
      const now = clock();
      const step = subscription.enabled ? nextStep({ status: result.status, retryAfter: result.retryAfter }, claim.scheduleStep, config.retryScheduleMs, now) : { kind: 'failed' as const };
      const next =
        step.kind === 'retry'
          ? { status: 'pending' as const, nextAttemptAt: new Date(now.getTime() + step.delayMs), scheduleStep: step.scheduleStep }
          : { status: step.kind === 'succeeded' ? ('succeeded' as const) : ('failed' as const), nextAttemptAt: now, scheduleStep: claim.scheduleStep };
      const recorded = await finishAttempt(tx, { id: claim.id, token, attempts: claim.attempts }, { ...outcome, success: step.kind === 'succeeded' }, next, now);
      if (!recorded) {
        log.warn({ deliveryId: claim.id }, 'webhook claim lost before the attempt was recorded (lease expired); another worker owns it');
        return;
      }
      if (subscription.enabled) await trackFailure(tx, subscription, step.kind, result, now);
    });
  }

  let successes: { record: SuccessRecord; done: () => void; failed: (err: unknown) => void }[] = [];
  let flushTimer: NodeJS.Timeout | undefined;

  function recordSuccess(record: SuccessRecord): Promise<void> {
    return new Promise<void>((done, failed) => {
      successes.push({ record, done, failed });
      if (successes.length >= SUCCESS_BATCH) flushSuccesses();
      else flushTimer ??= setTimeout(flushSuccesses, FLUSH_DELAY_MS);
    });
  }

  /**
   * One transaction records a group of successes: their subscriptions locked first (the API's lock order), then
   * one statement. Failing streaks end after the commit, so the worker never waits for a subscription while
   * holding deliveries that another worker disabling it needs.
   */
  function flushSuccesses(): void {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    const group = successes;
    successes = [];
    if (group.length === 0) return;
    const records = group.map((g) => g.record);
    database.db
      .transaction(async (tx) => {
        await lockSubscriptionsBeforeDeliveries(tx, records.map((r) => r.subscriptionId), 'share');
        return finishSuccesses(tx, records);
      })
      .then(async ({ recorded, failingSubscriptions }) => {
        if (recorded.size < group.length) log.warn({ lost: group.length - recorded.size }, 'webhook claims lost before their attempts were recorded (lease expired)');
        // Recorded either way: a streak left open ends with the next success.
        await endFailingStreaks(db, failingSubscriptions).catch((err: unknown) => log.error({ err, subscriptionIds: failingSubscriptions }, 'failing streak not ended'));
      })
      .then(
        () => group.forEach((g) => g.done()),
        (err: unknown) => group.forEach((g) => g.failed(err)),
      );
  }

  /** A failure starts or continues a failing streak; 410 or a streak longer than disableAfterMs disables the subscription. */
  async function trackFailure(tx: Executor, subscription: SubscriptionRow, outcome: string, result: SendResult, now: Date): Promise<void> {
    const [row] = await tx
      .update(webhookSubscriptions)
      .set({ failingSince: sql`coalesce(${webhookSubscriptions.failingSince}, ${now.toISOString()}::timestamptz)` })
      .where(eq(webhookSubscriptions.id, subscription.id))
      .returning();
    if (!row || !row.enabled) return;
    if (outcome === 'gone') {
      await disableSubscription(tx, row, 'gone', 'the endpoint answered 410 Gone', now);
    } else if (row.failingSince && now.getTime() - row.failingSince.getTime() >= config.disableAfterMs) {
      const detail = `no successful delivery since ${row.failingSince.toISOString()} (last: ${result.error ?? `HTTP ${result.status}`})`;
      await disableSubscription(tx, row, 'failing', detail, now);
    }
  }

  kick();
  return {
    kick,
    async stop() {
      stopping = true;
      await rounds.stop();
      // Claims not started yet go back to the outbox at once rather than after their lease.
      // Subscriptions first, as everywhere. If this fails (a lock conflict), the claims simply expire with their lease.
      const waiting = queue.splice(0);
      if (waiting.length > 0) {
        await db
          .transaction(async (tx) => {
            await lockSubscriptionsBeforeDeliveries(tx, waiting.map((q) => q.claim.subscriptionId), 'share');
            await releaseClaims(tx, waiting.map((q) => ({ id: q.claim.id, token: q.token })), clock());
          })
          .catch((err: unknown) => log.warn({ err, claims: waiting.length }, 'webhook claims not given back; they return to the outbox when their lease ends'));
      }
      // Deliveries in flight get a short grace; then their connections are cut and they are recorded as
      // failed attempts, to be retried (by this or another worker) like any other failure.
      const settled = Promise.allSettled([...inFlight]);
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([settled, new Promise((resolve) => (grace = setTimeout(resolve, Math.min(config.timeoutMs, STOP_GRACE_MS))))]);
      clearTimeout(grace);
      sender.close();
      flushSuccesses();
      await settled;
      flushSuccesses();
      await Promise.allSettled([...unrecorded]);
      await listener.close();
    },
  };
}
