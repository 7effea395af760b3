import type { Executor } from '../../db/database.js';
import { failPendingDeliveries } from '../../db/repositories/webhook-deliveries.js';
import * as repo from '../../db/repositories/webhook-subscriptions.js';
import { recordEvent } from '../events/record-event.js';
import type { NextStep } from './retry-policy.js';
import { toSubscriptionView } from './subscription-view.js';

/**
 * A subscription's health: a failed attempt starts (or continues) a failing streak, a success ends it, and the
 * service disables a subscription whose endpoint is gone (410) or whose streak has lasted `disableAfterMs`.
 */

export type HealthVerdict = { kind: 'keep' } | { kind: 'disable'; reason: 'gone' | 'failing'; detail: string };

/**
 * What a failed attempt means for its subscription, given the subscription as it is once the streak has been
 * started (`failingSince` set). `lastError` is the attempt's failure as recorded on the delivery.
 */
export function verdictAfterFailure(
  subscription: Pick<repo.SubscriptionRow, 'enabled' | 'failingSince'>,
  step: NextStep['kind'],
  lastError: string,
  now: Date,
  disableAfterMs: number,
): HealthVerdict {
  if (!subscription.enabled) return { kind: 'keep' };
  if (step === 'gone') return { kind: 'disable', reason: 'gone', detail: 'the endpoint answered 410 Gone' };
  const since = subscription.failingSince;
  if (since && now.getTime() - since.getTime() >= disableAfterMs) {
    return { kind: 'disable', reason: 'failing', detail: `no successful delivery since ${since.toISOString()} (last: ${lastError})` };
  }
  return { kind: 'keep' };
}

/** Records a failed attempt against its subscription (inside the attempt's transaction), disabling it when due. */
export async function noteFailure(tx: Executor, subscriptionId: string, step: NextStep['kind'], lastError: string, now: Date, disableAfterMs: number): Promise<void> {
  const row = await repo.startFailingStreak(tx, subscriptionId, now);
  // Deleted meanwhile: nothing left to judge.
  if (!row) return;
  const verdict = verdictAfterFailure(row, step, lastError, now, disableAfterMs);
  if (verdict.kind === 'disable') await disableSubscription(tx, row, verdict.reason, verdict.detail, now);
}

/** Successes end these subscriptions' failing streaks (those not in one are left alone). */
export async function noteSuccesses(db: Executor, subscriptionIds: string[]): Promise<void> {
  await repo.endFailingStreaks(db, subscriptionIds);
}

/**
 * The service disables a subscription (endpoint gone, or failing too long): its pending deliveries fail (a
 * later `recover` resends them) and a webhook_subscription.disabled event records why.
 */
export async function disableSubscription(tx: Executor, subscription: repo.SubscriptionRow, reason: 'gone' | 'failing', detail: string, now: Date): Promise<void> {
  const row = await repo.updateSubscription(tx, subscription.id, { enabled: false, disabledReason: reason, updatedAt: now });
  await failPendingDeliveries(tx, subscription.id, `subscription_disabled: ${detail}`, now);
  await recordEvent(tx, {
    integratorId: row.integratorId,
    type: 'webhook_subscription.disabled',
    objectType: 'webhook_subscription',
    objectId: row.id,
    object: toSubscriptionView(row),
    previousAttributes: { enabled: true, updatedAt: subscription.updatedAt.toISOString() },
    extra: { reason, detail },
    at: now,
  });
}
