import type { Executor } from '../../db/database.js';
import { findEvent } from '../../db/repositories/events.js';
import * as repo from '../../db/repositories/webhook-deliveries.js';
import { runMutation, type MutationContext } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { getSubscription, lockSubscription } from './subscriptions.js';

export interface AttemptView {
  attemptNumber: number;
  attemptedAt: string;
  durationMs: number;
  responseStatus: number | null;
  /** The first 1 KiB of the receiver's answer. */
  responseBody: string | null;
  error: string | null;
  success: boolean;
}

/** One event's delivery to one subscription, with every attempt made so far. */
export interface DeliveryView {
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attemptCount: number;
  /** When the next attempt is due (pending only). */
  nextAttemptAt: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  attempts: AttemptView[];
}

export interface DeliveryPage {
  data: DeliveryView[];
  hasMore: boolean;
}

function toAttemptView(a: repo.AttemptRow): AttemptView {
  return {
    attemptNumber: a.attemptNumber,
    attemptedAt: a.attemptedAt.toISOString(),
    durationMs: a.durationMs,
    responseStatus: a.responseStatus,
    responseBody: a.responseBody,
    error: a.error,
    success: a.success,
  };
}

function toDeliveryView(d: repo.DeliveryRow, attempts: repo.AttemptRow[]): DeliveryView {
  return {
    id: d.id,
    subscriptionId: d.subscriptionId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attemptCount: d.attempts,
    // While a worker holds the claim, nextAttemptAt is its lease end: still the time of the next look.
    nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
    lastError: d.lastError,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
    attempts: attempts.map(toAttemptView),
  };
}

async function page(db: Executor, q: repo.DeliveryPageQuery): Promise<DeliveryPage> {
  const rows = await repo.listDeliveries(db, q);
  const shown = rows.slice(0, q.limit);
  const attempts = await repo.attemptsOf(db, shown.map((d) => d.id));
  const byDelivery = new Map<string, repo.AttemptRow[]>();
  for (const a of attempts) byDelivery.set(a.deliveryId, [...(byDelivery.get(a.deliveryId) ?? []), a]);
  return { data: shown.map((d) => toDeliveryView(d, byDelivery.get(d.id) ?? [])), hasMore: rows.length > q.limit };
}

export interface DeliveryListOptions {
  limit: number;
  startingAfter?: string;
  status?: 'pending' | 'succeeded' | 'failed';
}

/** A subscription's delivery history, newest first. */
export async function listSubscriptionDeliveries(db: Executor, integratorId: string, subscriptionId: string, o: DeliveryListOptions): Promise<DeliveryPage> {
  await getSubscription(db, integratorId, subscriptionId);
  if (o.startingAfter && !(await repo.findDelivery(db, subscriptionId, o.startingAfter))) throw notFound('Delivery startingAfter');
  return page(db, { integratorId, subscriptionId, limit: o.limit, ...(o.startingAfter ? { startingAfter: o.startingAfter } : {}), ...(o.status ? { status: o.status } : {}) });
}

/** Every delivery of one event (one per subscription it was queued for). */
export async function listEventDeliveries(db: Executor, integratorId: string, eventId: string, o: DeliveryListOptions): Promise<DeliveryPage> {
  if (!(await findEvent(db, integratorId, eventId))) throw notFound('Event');
  return page(db, { integratorId, eventId, limit: o.limit, ...(o.startingAfter ? { startingAfter: o.startingAfter } : {}), ...(o.status ? { status: o.status } : {}) });
}

/** Sends a delivery again now, whatever its status, starting the retry schedule over. */
export async function retryDelivery(ctx: MutationContext, subscriptionId: string, deliveryId: string): Promise<DeliveryView> {
  return runMutation(ctx, async (tx) => {
    const subscription = await lockSubscription(tx, ctx.actor.integratorId, subscriptionId);
    if (!(await repo.findDelivery(tx, subscriptionId, deliveryId))) throw notFound('Delivery');
    if (!subscription.enabled) throw new ApiError('webhook_subscription_disabled', 'Enable the subscription (PATCH enabled: true) before retrying its deliveries');
    const row = (await repo.requeueDelivery(tx, deliveryId, ctx.now))!;
    await repo.notifyDeliveryWorkers(tx);
    return toDeliveryView(row, await repo.attemptsOf(tx, [row.id]));
  });
}

/** Queues again every failed delivery of the subscription created since `since`. */
export async function recoverSubscription(ctx: MutationContext, subscriptionId: string, since: Date): Promise<{ requeued: number }> {
  return runMutation(ctx, async (tx) => {
    const subscription = await lockSubscription(tx, ctx.actor.integratorId, subscriptionId);
    if (!subscription.enabled) throw new ApiError('webhook_subscription_disabled', 'Enable the subscription (PATCH enabled: true) before recovering its deliveries');
    const requeued = await repo.requeueFailedSince(tx, subscriptionId, since, ctx.now);
    if (requeued > 0) await repo.notifyDeliveryWorkers(tx);
    return { requeued };
  });
}
