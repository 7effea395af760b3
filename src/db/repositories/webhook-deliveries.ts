import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../database.js';
import { webhookAttempts, webhookDeliveries } from '../schema/index.js';
import { dueRows } from './due-rows.js';
import { DELIVERY_CHANNEL } from './events.js';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

/** A delivery this worker holds: `token` proves the claim when its attempt is recorded or it is given back. */
export interface Claimed {
  id: string;
  token: string;
  subscriptionId: string;
  eventId: string;
  attempts: number;
  scheduleStep: number;
}

/**
 * Claims up to `limit` due deliveries for one worker: FOR UPDATE SKIP LOCKED so concurrent workers never take
 * the same row, and a lease (nextAttemptAt pushed to `leaseUntil`, a fresh claim token) so a worker that dies
 * mid-delivery leaves the row to be claimed again once the lease ends.
 */
export async function claimDueDeliveries(db: Executor, now: Date, leaseUntil: Date, token: string, limit: number): Promise<Claimed[]> {
  const rows = await selectRows<{ id: string; subscription_id: string; event_id: string; attempts: number; schedule_step: number }>(db, sql`
    with ${dueRows(webhookDeliveries, now, limit)}
    update webhook_deliveries d
    set next_attempt_at = ${leaseUntil.toISOString()}::timestamptz, claim_token = ${token}, updated_at = ${now.toISOString()}::timestamptz
    from due where d.id = due.id
    returning d.id, d.subscription_id, d.event_id, d.attempts, d.schedule_step`);
  return rows.map((r) => ({ id: r.id, token, subscriptionId: r.subscription_id, eventId: r.event_id, attempts: Number(r.attempts), scheduleStep: Number(r.schedule_step) }));
}

/** Gives claims back (due now, no token) while they are still this worker's; used by a stopping worker. */
export async function releaseClaims(db: Executor, claims: { id: string; token: string }[], now: Date): Promise<void> {
  const values = sql.join(
    claims.map((c) => sql`(${c.id}::uuid, ${c.token}::uuid)`),
    sql`, `,
  );
  await db.execute(sql`
    update webhook_deliveries d
    set next_attempt_at = ${now.toISOString()}::timestamptz, claim_token = null, updated_at = ${now.toISOString()}::timestamptz
    from (values ${values}) as v(id, token)
    where d.id = v.id and d.claim_token = v.token and d.status = 'pending'`);
}

/** The earliest time a pending delivery becomes due, to sleep until then. */
export async function nextDueAt(db: Executor): Promise<Date | undefined> {
  const [row] = await db
    .select({ at: webhookDeliveries.nextAttemptAt })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.status, 'pending'))
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(1);
  return row?.at;
}

export interface AttemptOutcome {
  attemptId: string;
  attemptedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  success: boolean;
}

/** The delivery after an attempt; `lastError` null once it succeeded. */
export interface DeliveryNext {
  status: 'pending' | 'succeeded' | 'failed';
  nextAttemptAt: Date;
  scheduleStep: number;
  lastError: string | null;
}

/**
 * Records an attempt and moves the delivery on, but only while this worker's claim still holds (the token
 * matches): after a lost lease another worker owns the row and this outcome is dropped. Returns false then.
 */
export async function finishAttempt(
  db: Executor,
  claim: { id: string; token: string; attempts: number },
  outcome: AttemptOutcome,
  next: DeliveryNext,
  now: Date,
): Promise<boolean> {
  const updated = await db
    .update(webhookDeliveries)
    .set({
      status: next.status,
      attempts: claim.attempts + 1,
      scheduleStep: next.scheduleStep,
      nextAttemptAt: next.nextAttemptAt,
      claimToken: null,
      lastError: next.lastError,
      updatedAt: now,
    })
    .where(and(eq(webhookDeliveries.id, claim.id), eq(webhookDeliveries.claimToken, claim.token)))
    .returning({ id: webhookDeliveries.id });
  if (updated.length === 0) return false;
  await db.insert(webhookAttempts).values({ id: outcome.attemptId, deliveryId: claim.id, attemptNumber: claim.attempts + 1, ...withoutId(outcome) });
  return true;
}

function withoutId(o: AttemptOutcome): Omit<AttemptOutcome, 'attemptId'> {
  const { attemptId: _, ...rest } = o;
  return rest;
}

/** Wakes the delivery workers (LISTEN on DELIVERY_CHANNEL) once the caller's transaction commits. */
export async function notifyDeliveryWorkers(db: Executor): Promise<void> {
  await db.execute(sql`select pg_notify(${DELIVERY_CHANNEL}, '')`);
}

/** Gives up every pending delivery of a subscription (it was disabled); `recover` can send them later. */
export async function failPendingDeliveries(db: Executor, subscriptionId: string, error: string, now: Date): Promise<number> {
  const rows = await db
    .update(webhookDeliveries)
    .set({ status: 'failed', claimToken: null, lastError: error, updatedAt: now })
    .where(and(eq(webhookDeliveries.subscriptionId, subscriptionId), eq(webhookDeliveries.status, 'pending')))
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}

/** Queues a delivery again from the start of the schedule (a manual retry). */
export async function requeueDelivery(db: Executor, id: string, now: Date): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', scheduleStep: 0, nextAttemptAt: now, claimToken: null, updatedAt: now })
    .where(eq(webhookDeliveries.id, id))
    .returning();
  return row;
}

/** Queues every failed delivery of the subscription created since `since` again; returns how many. */
export async function requeueFailedSince(db: Executor, subscriptionId: string, since: Date, now: Date): Promise<number> {
  const rows = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', scheduleStep: 0, nextAttemptAt: now, claimToken: null, updatedAt: now })
    .where(and(eq(webhookDeliveries.subscriptionId, subscriptionId), eq(webhookDeliveries.status, 'failed'), gte(webhookDeliveries.createdAt, since)))
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}

export async function findDelivery(db: Executor, subscriptionId: string, id: string): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.subscriptionId, subscriptionId)));
  return row;
}

export interface DeliveryPageQuery {
  subscriptionId?: string;
  eventId?: string;
  integratorId: string;
  status?: 'pending' | 'succeeded' | 'failed';
  /** Newest first; the page continues after this delivery id. */
  startingAfter?: string;
  limit: number;
}

/** One page (limit + 1 rows) of deliveries, newest first. */
export async function listDeliveries(db: Executor, q: DeliveryPageQuery): Promise<DeliveryRow[]> {
  const where = [eq(webhookDeliveries.integratorId, q.integratorId)];
  if (q.subscriptionId) where.push(eq(webhookDeliveries.subscriptionId, q.subscriptionId));
  if (q.eventId) where.push(eq(webhookDeliveries.eventId, q.eventId));
  if (q.status) where.push(eq(webhookDeliveries.status, q.status));
  if (q.startingAfter) where.push(lt(webhookDeliveries.id, q.startingAfter));
  return db
    .select()
    .from(webhookDeliveries)
    .where(and(...where))
    .orderBy(desc(webhookDeliveries.id))
    .limit(q.limit + 1);
}

/** The attempts of these deliveries, oldest first. */
export async function attemptsOf(db: Executor, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, deliveryIds))
    .orderBy(asc(webhookAttempts.deliveryId), asc(webhookAttempts.attemptNumber));
}

export interface SuccessRecord {
  claim: { id: string; token: string };
  subscriptionId: string;
  attemptedAt: Date;
  durationMs: number;
  responseStatus: number;
  responseBody: string | null;
  now: Date;
}

/**
 * Records many successful attempts in one statement: each delivery moves to succeeded (guarded by its claim
 * token) and its attempt row is inserted. The records travel as a handful of array parameters, so the
 * statement's text and planning cost do not grow with the group. Returns the deliveries recorded (a delivery
 * whose claim was lost meanwhile is left to its new owner) and the subscriptions among theirs that were in a
 * failing streak, for the caller to end once this commits (see lockSubscriptionsBeforeDeliveries).
 */
export async function finishSuccesses(db: Executor, records: SuccessRecord[]): Promise<{ recorded: Set<string>; failingSubscriptions: string[] }> {
  if (records.length === 0) return { recorded: new Set(), failingSubscriptions: [] };
  const column = <T>(pick: (r: SuccessRecord) => T) => sql.param(records.map(pick));
  const rows = await selectRows<{ id: string; subscription_id: string; failing: boolean }>(db, sql`
    with v as (
      select * from unnest(
        ${column((r) => r.claim.id)}::uuid[], ${column((r) => r.claim.token)}::uuid[], ${column((r) => r.now.toISOString())}::timestamptz[],
        ${column((r) => r.attemptedAt.toISOString())}::timestamptz[], ${column((r) => r.durationMs)}::int[],
        ${column((r) => r.responseStatus)}::smallint[], ${column((r) => r.responseBody)}::text[]
      ) as v(id, token, now, attempted_at, duration_ms, response_status, response_body)
    ), done as (
      update webhook_deliveries d
      set status = 'succeeded', attempts = d.attempts + 1, claim_token = null, last_error = null, next_attempt_at = v.now, updated_at = v.now
      from v where d.id = v.id and d.claim_token = v.token
      returning d.id, d.subscription_id, d.attempts
    ), attempt as (
      insert into webhook_attempts (id, delivery_id, attempt_number, attempted_at, duration_ms, response_status, response_body, error, success)
      select uuid_v7(v.attempted_at), done.id, done.attempts, v.attempted_at, v.duration_ms, v.response_status, v.response_body, null, true
      from done join v on v.id = done.id
    )
    select done.id, done.subscription_id, s.failing_since is not null as failing
    from done join webhook_subscriptions s on s.id = done.subscription_id`);
  return { recorded: new Set(rows.map((r) => r.id)), failingSubscriptions: [...new Set(rows.filter((r) => r.failing).map((r) => r.subscription_id))] };
}
