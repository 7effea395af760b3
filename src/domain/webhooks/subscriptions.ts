import type { Executor } from '../../db/database.js';
import { failPendingDeliveries } from '../../db/repositories/webhook-deliveries.js';
import * as repo from '../../db/repositories/webhook-subscriptions.js';
import { generateEd25519KeyPair, PUBLIC_KEY_PREFIX } from '../../crypto/webhook-signature.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { runMutation, type MutationContext } from '../context.js';
import { ApiError, invalidFields, notFound, type FieldError } from '../errors.js';
import { isSubscribableType } from '../events/catalogue.js';
import { recordEvent } from '../events/record-event.js';
import { newId } from '../ids.js';
import { assertCustomHeaders, keepMaskedValues, maskHeaders, openHeaders, sameHeaders, sealHeaders } from './custom-headers.js';
import { checkEndpoint, systemResolver, type EndpointSafety, type Resolver, type SafetyRules } from './url-safety.js';
import { sealContexts } from '../../crypto/seal-contexts.js';

export const ALGORITHM = 'ed25519';
/** After a rotation the previous key keeps signing this long, so receivers can switch without a gap. */
export const ROTATION_GRACE_MS = 24 * 3600 * 1000;

export interface SubscriptionView {
  id: string;
  integratorId: string;
  url: string;
  enabled: boolean;
  eventTypes: string[];
  endpointSafetyMetadata: EndpointSafety;
  httpHeaders: Record<string, string>;
  createdAt: string;
  updatedAt: string;
  name: string;
  activeSigningKeyId: string;
}

/** The spec's listing item: the subscription with its active public key. */
export interface SubscriptionListing {
  subscription: SubscriptionView;
  publicKey: string;
  algorithm: typeof ALGORITHM;
}

/**
 * The subscription as the API and events show it. Custom header values are always masked: they often hold a
 * receiver's secret, and are stored only sealed (a legacy row not yet sealed is masked here all the same).
 */
export function toView(row: repo.SubscriptionRow): SubscriptionView {
  return {
    id: row.id,
    integratorId: row.integratorId,
    url: row.url,
    enabled: row.enabled,
    eventTypes: row.eventTypes,
    endpointSafetyMetadata: row.endpointSafetyMetadata as EndpointSafety,
    httpHeaders: maskHeaders(row.httpHeaders),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    name: row.name,
    activeSigningKeyId: row.activeSigningKeyId,
  };
}

function toListing(row: repo.SubscriptionRow, publicKey: string): SubscriptionListing {
  return { subscription: toView(row), publicKey: `${PUBLIC_KEY_PREFIX}${publicKey}`, algorithm: ALGORITHM };
}

export interface WebhookEnvironment {
  rules: SafetyRules;
  resolve?: Resolver;
}

export interface SubscriptionInput {
  name: string;
  url: string;
  /** Catalogue types, `<prefix>.*` or `*`; the text `*` alone means every type. */
  eventTypes: string[] | '*';
  httpHeaders?: Record<string, string>;
  enabled?: boolean;
}

function normaliseEventTypes(eventTypes: string[] | '*'): string[] {
  const list = eventTypes === '*' ? ['*'] : eventTypes;
  const errors: FieldError[] = [];
  list.forEach((t, i) => {
    if (!isSubscribableType(t)) {
      errors.push({ pointer: `/eventTypes/${i}`, code: 'unknown_event_type', detail: `${t} is not an event type (see docs/event-types.md), a prefix wildcard like user.* or *` });
    }
  });
  if (errors.length > 0) throw invalidFields(errors);
  return [...new Set(list)];
}

/** Parses and checks a URL (resolving its host outside any transaction); refuses it with 422 when unsafe. */
async function safeEndpoint(url: string, env: WebhookEnvironment, now: Date): Promise<EndpointSafety> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidFields([{ pointer: '/url', code: 'invalid_format', detail: 'must be an absolute https URL' }], 'url is not an absolute URL');
  }
  const safety = await checkEndpoint(parsed, env.rules, now, env.resolve ?? systemResolver);
  if (!safety.allowed) {
    throw new ApiError('webhook_url_not_allowed', `The webhook URL is not allowed: ${safety.reason}`, {
      errors: [{ pointer: '/url', code: 'url_not_allowed', detail: safety.reason! }],
    });
  }
  return safety;
}

function newSigningKey(secrets: SecretBox, subscriptionId: string, now: Date) {
  const pair = generateEd25519KeyPair();
  const id = newId();
  return {
    row: { id, subscriptionId, publicKey: pair.publicKey, sealedPrivateKey: secrets.seal(pair.privateKey, sealContexts.webhookSigningKey(id)), createdAt: now },
    publicKey: pair.publicKey,
  };
}

export async function createSubscription(ctx: MutationContext, input: SubscriptionInput, env: WebhookEnvironment): Promise<SubscriptionListing> {
  const eventTypes = normaliseEventTypes(input.eventTypes);
  const httpHeaders = input.httpHeaders ?? {};
  assertCustomHeaders(httpHeaders);
  const safety = await safeEndpoint(input.url, env, ctx.now);
  return runMutation(ctx, async (tx) => {
    const id = newId();
    const key = newSigningKey(ctx.secrets, id, ctx.now);
    const row = await repo.insertSubscription(tx, {
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
    await recordEvent(tx, { integratorId: row.integratorId, type: 'webhook_subscription.created', objectType: 'webhook_subscription', objectId: id, object: toView(row), at: ctx.now });
    return toListing(row, key.publicKey);
  });
}

export async function listSubscriptions(db: Executor, integratorId: string): Promise<{ subscriptions: SubscriptionListing[] }> {
  return { subscriptions: (await repo.listSubscriptions(db, integratorId)).map((r) => toListing(r, r.activePublicKey)) };
}

export async function getSubscription(db: Executor, integratorId: string, id: string): Promise<SubscriptionListing> {
  const row = await repo.findSubscription(db, integratorId, id);
  if (!row) throw notFound('Webhook subscription');
  return toListing(row, row.activePublicKey);
}

/** The subscription, row-locked for the caller's transaction; 404 when missing or another integrator's. */
export async function lockSubscription(tx: Executor, integratorId: string, id: string): Promise<repo.SubscriptionWithKey> {
  const row = await repo.findSubscription(tx, integratorId, id, true);
  if (!row) throw notFound('Webhook subscription');
  return row;
}

export type SubscriptionPatch = Partial<SubscriptionInput>;

export async function updateSubscription(ctx: MutationContext, id: string, patch: SubscriptionPatch, env: WebhookEnvironment): Promise<SubscriptionListing> {
  const eventTypes = patch.eventTypes !== undefined ? normaliseEventTypes(patch.eventTypes) : undefined;
  if (patch.httpHeaders !== undefined) assertCustomHeaders(patch.httpHeaders);
  // Existence first, so another integrator's id is a 404 even when the new URL would be refused.
  await getSubscription(ctx.db.db, ctx.actor.integratorId, id);
  const safety = patch.url !== undefined ? await safeEndpoint(patch.url, env, ctx.now) : undefined;
  return runMutation(ctx, async (tx) => {
    const current = await lockSubscription(tx, ctx.actor.integratorId, id);
    const before = toView(current);
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
    if (Object.keys(changes).length === 0) return toListing(current, current.activePublicKey);
    const row = await repo.updateSubscription(tx, id, { ...changes, updatedAt: ctx.now });
    if (changes.enabled === false) await failPendingDeliveries(tx, id, 'subscription_disabled', ctx.now);
    const after = toView(row);
    const previousAttributes: Record<string, unknown> = { updatedAt: before.updatedAt };
    for (const k of Object.keys(changes) as (keyof SubscriptionView)[]) {
      // httpHeadersSealed is no attribute of the view; httpHeaders there are masked already.
      if (k in before) previousAttributes[k] = before[k];
    }
    await recordEvent(tx, { integratorId: row.integratorId, type: 'webhook_subscription.updated', objectType: 'webhook_subscription', objectId: id, object: after, previousAttributes, at: ctx.now });
    return toListing(row, current.activePublicKey);
  });
}

export async function deleteSubscription(ctx: MutationContext, id: string): Promise<void> {
  await runMutation(ctx, async (tx) => {
    const current = await lockSubscription(tx, ctx.actor.integratorId, id);
    await repo.deleteSubscription(tx, id);
    await recordEvent(tx, { integratorId: current.integratorId, type: 'webhook_subscription.deleted', objectType: 'webhook_subscription', objectId: id, object: toView(current), at: ctx.now });
  });
}

/** A new active key; the previous one keeps signing for ROTATION_GRACE_MS (both signatures in the header). */
export async function rotateSigningKey(ctx: MutationContext, id: string): Promise<SubscriptionListing> {
  return runMutation(ctx, async (tx) => {
    const current = await lockSubscription(tx, ctx.actor.integratorId, id);
    const key = newSigningKey(ctx.secrets, id, ctx.now);
    await repo.insertSigningKey(tx, key.row);
    await repo.retireSigningKey(tx, current.activeSigningKeyId, new Date(ctx.now.getTime() + ROTATION_GRACE_MS));
    const row = await repo.updateSubscription(tx, id, { activeSigningKeyId: key.row.id, updatedAt: ctx.now });
    await recordEvent(tx, {
      integratorId: row.integratorId,
      type: 'webhook_subscription.key_rotated',
      objectType: 'webhook_subscription',
      objectId: id,
      object: toView(row),
      previousAttributes: { activeSigningKeyId: current.activeSigningKeyId, updatedAt: current.updatedAt.toISOString() },
      at: ctx.now,
    });
    return toListing(row, key.publicKey);
  });
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
    object: toView(row),
    previousAttributes: { enabled: true, updatedAt: subscription.updatedAt.toISOString() },
    extra: { reason, detail },
    at: now,
  });
}
