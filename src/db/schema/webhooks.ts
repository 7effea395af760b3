import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, smallint, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id, timestamps } from './columns.js';
import { events } from './events.js';
import { integratorId } from './integrators.js';

/** An integrator's outbound webhook endpoint. `eventTypes` is a JSON array of types, `["*"]` for all. */
export const webhookSubscriptions = pgTable(
  'webhook_subscriptions',
  {
    id: id(),
    integratorId: integratorId(),
    name: text('name').notNull(),
    url: text('url').notNull(),
    enabled: boolean('enabled').notNull(),
    eventTypes: jsonb('event_types').$type<string[]>().notNull(),
    /** Header names with masked values (what views show); the values themselves are only in httpHeadersSealed. */
    httpHeaders: jsonb('http_headers').$type<Record<string, string>>().notNull(),
    /** The custom headers (JSON object) sealed with AES-256-GCM, context `webhook-headers:{id}`; null when there are none. */
    httpHeadersSealed: text('http_headers_sealed'),
    endpointSafetyMetadata: jsonb('endpoint_safety_metadata').notNull(),
    activeSigningKeyId: uuid('active_signing_key_id').notNull(),
    /**
     * How deliveries are signed (docs/webhooks.md#signatures): `ed25519` (Standard Webhooks `v1a`, the default) or
     * `hmac-sha256` (Standard Webhooks `v1`, what the `standardwebhooks` and `svix` libraries verify). Fixed at creation.
     */
    algorithm: text('algorithm', { enum: ['ed25519', 'hmac-sha256'] }).notNull().default('ed25519'),
    /** Why the service disabled it (`gone`, `failing`); null when enabled or disabled by the integrator. */
    disabledReason: text('disabled_reason'),
    /** First failure of the current failing streak; cleared by any success. */
    failingSince: at('failing_since'),
    ...timestamps(),
  },
  (t) => [index('webhook_subscriptions_integrator_idx').on(t.integratorId, t.id), check('webhook_subscriptions_algorithm_check', sql`${t.algorithm} in ('ed25519', 'hmac-sha256')`)],
);

/**
 * Signing keys: Ed25519 key pairs, or HMAC secrets (the subscription's algorithm). The active one signs alone; after
 * a rotation the previous one keeps signing until `retiresAt` so receivers can switch keys without missing a
 * delivery. Private keys and secrets sealed at rest.
 */
export const webhookSigningKeys = pgTable(
  'webhook_signing_keys',
  {
    id: id(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    /** Raw 32-byte public key, base64 (shown as `whpk_<base64>`); empty for an HMAC secret, which has none. */
    publicKey: text('public_key').notNull(),
    sealedPrivateKey: text('sealed_private_key').notNull(),
    retiresAt: at('retires_at'),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_signing_keys_subscription_idx').on(t.subscriptionId)],
);

/**
 * The outbox: one row per (event, subscription), written in the event's own transaction. Workers claim due
 * rows with FOR UPDATE SKIP LOCKED and lease them by pushing `nextAttemptAt` forward and stamping
 * `claimToken`; a worker that dies mid-delivery leaves the row to be claimed again when the lease ends.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    integratorId: uuid('integrator_id').notNull(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    /** pending (to be attempted), succeeded, failed (schedule exhausted or subscription disabled). */
    status: text('status').$type<'pending' | 'succeeded' | 'failed'>().notNull(),
    /** Attempts made so far, over the delivery's life. */
    attempts: integer('attempts').notNull().default(0),
    /** Position in the retry schedule; a manual retry or recovery starts the schedule again. */
    scheduleStep: smallint('schedule_step').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull(),
    claimToken: uuid('claim_token'),
    lastError: text('last_error'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_subscription_key').on(t.eventId, t.subscriptionId),
    // The worker's claim query: due pending rows in time order.
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index('webhook_deliveries_subscription_idx').on(t.subscriptionId, t.id),
    index('webhook_deliveries_failed_idx').on(t.subscriptionId, t.createdAt).where(sql`status = 'failed'`),
    // GET /v1/events?deliverySuccess=…: the few deliveries not (yet) succeeded, by event. Without it the planner
    // read every delivery to find them once the table outgrew a few pages (test/db/query-plans.test.ts).
    index('webhook_deliveries_unsucceeded_idx').on(t.eventId).where(sql`status <> 'succeeded'`),
  ],
);

/** Every HTTP attempt of a delivery, for the integrator's delivery history. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: id(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptNumber: integer('attempt_number').notNull(),
    attemptedAt: at('attempted_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    /** null when no HTTP response arrived (connection refused, timeout, blocked address). */
    responseStatus: smallint('response_status'),
    /** The first 1 KiB of the response body, as text. */
    responseBody: text('response_body'),
    error: text('error'),
    success: boolean('success').notNull(),
  },
  (t) => [uniqueIndex('webhook_attempts_delivery_attempt_key').on(t.deliveryId, t.attemptNumber)],
);
