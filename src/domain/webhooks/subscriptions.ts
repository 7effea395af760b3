import type { Executor } from '../../db/database.js';
import { failPendingDeliveries } from '../../db/repositories/webhook-deliveries.js';
import * as repo from '../../db/repositories/webhook-subscriptions.js';
import { runMutation, type MutationContext } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { recordEvent } from '../events/record-event.js';
import { newId } from '../ids.js';
import { assertCustomHeaders, keepMaskedValues, openHeaders, sameHeaders, sealHeaders } from './custom-headers.js';
import { newSigningKey, ROTATION_GRACE_MS } from './signing-keys.js';
import { normalizeEventTypes, safeEndpoint, type SubscriptionInput, type SubscriptionPatch, type WebhookEnvironment } from './subscription-input.js';
import { toSubscriptionListing, toSubscriptionView, type SubscriptionListing, type SubscriptionView } from './subscription-view.js';

/** The integrator's subscriptions: create, read, change, delete, rotate the signing key. Each change records its event. */

export async function createSubscription(ctx: MutationContext, input: SubscriptionInput, env: WebhookEnvironment): Promise<SubscriptionListing> {
  const eventTypes = normalizeEventTypes(input.eventTypes);
  const httpHeaders = input.httpHeaders ?? {};
  assertCustomHeaders(httpHeaders);
  const safety = await safeEndpoint(input.url, env, ctx.now);
  return runMutation(ctx, async (tx) => {
    const id = newId();
    const algorithm = input.algorithm ?? 'ed25519';
    const key = newSigningKey(ctx.secrets, id, ctx.now, algorithm);
    const row = await repo.insertSubscription(tx, {
      algorithm,
      id,
      integratorId: ctx.actor.integratorId,
      name: input.name,
      url: input.url,
      enabled: input.enabled ?? true,
      eventTypes,
      ...sealHeaders(ctx.secrets, id, httpHeaders),
      endpointSafetyMetadata: safety,
      activeSigningKeyId: key.row.id,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    });
    await repo.insertSigningKey(tx, key.row);
    await recordEvent(tx, { integratorId: row.integratorId, type: 'webhook_subscription.created', objectType: 'webhook_subscription', objectId: id, object: toSubscriptionView(row), at: ctx.now });
    return toSubscriptionListing(row, key.publicKey, key.signingSecret);
  });
}

export async function listSubscriptions(db: Executor, integratorId: string): Promise<{ subscriptions: SubscriptionListing[] }> {
  return { subscriptions: (await repo.listSubscriptions(db, integratorId)).map((r) => toSubscriptionListing(r, r.activePublicKey)) };
}

export async function getSubscription(db: Executor, integratorId: string, id: string): Promise<SubscriptionListing> {
  const row = await repo.findSubscription(db, integratorId, id);
  if (!row) throw notFound('Webhook subscription');
  return toSubscriptionListing(row, row.activePublicKey);
}

/** The subscription, row-locked for the caller's transaction; 404 when missing or another integrator's. */
export async function lockSubscription(tx: Executor, integratorId: string, id: string): Promise<repo.SubscriptionWithKey> {
  const row = await repo.findSubscription(tx, integratorId, id, true);
  if (!row) throw notFound('Webhook subscription');
  return row;
}

export async function updateSubscription(ctx: MutationContext, id: string, patch: SubscriptionPatch, env: WebhookEnvironment): Promise<SubscriptionListing> {
  const eventTypes = patch.eventTypes !== undefined ? normalizeEventTypes(patch.eventTypes) : undefined;
  if (patch.httpHeaders !== undefined) assertCustomHeaders(patch.httpHeaders);
  // Existence first, so another integrator's id is a 404 even when the new URL would be refused.
  await getSubscription(ctx.db.db, ctx.actor.integratorId, id);
  const safety = patch.url !== undefined ? await safeEndpoint(patch.url, env, ctx.now) : undefined;
  return runMutation(ctx, async (tx) => {
    const current = await lockSubscription(tx, ctx.actor.integratorId, id);
    const before = toSubscriptionView(current);
    const changes: Partial<repo.SubscriptionRow> = {};
    if (patch.name !== undefined && patch.name !== current.name) changes.name = patch.name;
    if (patch.url !== undefined && patch.url !== current.url) {
      changes.url = patch.url;
      changes.endpointSafetyMetadata = safety;
    }
    if (eventTypes !== undefined && JSON.stringify(eventTypes) !== JSON.stringify(current.eventTypes)) changes.eventTypes = eventTypes;
    if (patch.httpHeaders !== undefined) {
      // Compared by their real values: the stored clear column holds only masks.
      const currentHeaders = openHeaders(ctx.secrets, current);
      const nextHeaders = keepMaskedValues(patch.httpHeaders, currentHeaders);
      if (!sameHeaders(nextHeaders, currentHeaders)) Object.assign(changes, sealHeaders(ctx.secrets, id, nextHeaders));
    }
    if (patch.enabled !== undefined && patch.enabled !== current.enabled) {
      changes.enabled = patch.enabled;
      // Re-enabling starts a fresh failure streak; disabling by hand is not a failure.
      changes.disabledReason = null;
      changes.failingSince = null;
    }
    if (Object.keys(changes).length === 0) return toSubscriptionListing(current, current.activePublicKey);
    const row = await repo.updateSubscription(tx, id, { ...changes, updatedAt: ctx.now });
    if (changes.enabled === false) await failPendingDeliveries(tx, id, 'subscription_disabled', ctx.now);
    const after = toSubscriptionView(row);
    const previousAttributes: Record<string, unknown> = { updatedAt: before.updatedAt };
    for (const k of Object.keys(changes) as (keyof SubscriptionView)[]) {
      // httpHeadersSealed is no attribute of the view; httpHeaders there are masked already.
      if (k in before) previousAttributes[k] = before[k];
    }
    await recordEvent(tx, { integratorId: row.integratorId, type: 'webhook_subscription.updated', objectType: 'webhook_subscription', objectId: id, object: after, previousAttributes, at: ctx.now });
    return toSubscriptionListing(row, current.activePublicKey);
  });
}

export async function deleteSubscription(ctx: MutationContext, id: string): Promise<void> {
  await runMutation(ctx, async (tx) => {
    const current = await lockSubscription(tx, ctx.actor.integratorId, id);
    await repo.deleteSubscription(tx, id);
    await recordEvent(tx, { integratorId: current.integratorId, type: 'webhook_subscription.deleted', objectType: 'webhook_subscription', objectId: id, object: toSubscriptionView(current), at: ctx.now });
  });
}

/** A new active key; the previous one keeps signing for ROTATION_GRACE_MS (both signatures in the header). */
export async function rotateSigningKey(ctx: MutationContext, id: string): Promise<SubscriptionListing> {
  return runMutation(ctx, async (tx) => {
    const current = await lockSubscription(tx, ctx.actor.integratorId, id);
    const key = newSigningKey(ctx.secrets, id, ctx.now, current.algorithm);
    await repo.insertSigningKey(tx, key.row);
    await repo.retireSigningKey(tx, current.activeSigningKeyId, new Date(ctx.now.getTime() + ROTATION_GRACE_MS));
    const row = await repo.updateSubscription(tx, id, { activeSigningKeyId: key.row.id, updatedAt: ctx.now });
    await recordEvent(tx, {
      integratorId: row.integratorId,
      type: 'webhook_subscription.key_rotated',
      objectType: 'webhook_subscription',
      objectId: id,
      object: toSubscriptionView(row),
      previousAttributes: { activeSigningKeyId: current.activeSigningKeyId, updatedAt: current.updatedAt.toISOString() },
      at: ctx.now,
    });
    return toSubscriptionListing(row, key.publicKey, key.signingSecret);
  });
}

/**
 * Sends a `webhook.test` event to this subscription only (whatever its eventTypes), through the outbox like any
 * event: signed, retried, in the delivery history. A disabled subscription receives nothing: 409.
 */
export async function sendTestEvent(ctx: MutationContext, id: string): Promise<{ eventId: string; subscriptionId: string }> {
  return runMutation(ctx, async (tx) => {
    const current = await lockSubscription(tx, ctx.actor.integratorId, id);
    if (!current.enabled) throw new ApiError('webhook_subscription_disabled', 'The subscription is disabled: enable it (PATCH enabled: true) to receive deliveries, tests included');
    const event = await recordEvent(tx, {
      integratorId: current.integratorId,
      type: 'webhook.test',
      objectType: 'webhook_subscription',
      objectId: id,
      object: toSubscriptionView(current),
      extra: { test: true },
      at: ctx.now,
      onlySubscriptionId: id,
    });
    return { eventId: event.id, subscriptionId: id };
  });
}
