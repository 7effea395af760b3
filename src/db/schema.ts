import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const integrators = pgTable('integrators', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

export const credentials = pgTable(
  'credentials',
  {
    id: uuid('id').primaryKey(),
    integratorId: uuid('integrator_id')
      .notNull()
      .references(() => integrators.id),
    /** Compressed SEC1 P-256 key, lower-case hex with 0x: the identity a request signs with. */
    publicKey: text('public_key').notNull(),
    label: text('label').notNull(),
    scope: text('scope', { enum: ['read_write', 'read_only'] }).notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('credentials_public_key_key').on(t.publicKey),
    index('credentials_integrator_idx').on(t.integratorId, t.id),
    check('credentials_scope_check', sql`${t.scope} in ('read_write', 'read_only')`),
  ],
);

/**
 * Every state change writes one row here in the same transaction as the change. `sequence` counts per
 * object so receivers can order; the unique index makes two writers of one object collide, not interleave.
 */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey(),
    integratorId: uuid('integrator_id')
      .notNull()
      .references(() => integrators.id),
    type: text('type').notNull(),
    objectType: text('object_type').notNull(),
    objectId: text('object_id').notNull(),
    sequence: integer('sequence').notNull(),
    apiVersion: text('api_version').notNull(),
    /** `{object, previousAttributes?}` as the API returns the resource. */
    data: jsonb('data').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('events_object_sequence_key').on(t.objectId, t.sequence),
    index('events_integrator_idx').on(t.integratorId, t.id),
  ],
);

/** Stripe-style idempotency records, one per (integrator, key), kept 24 h. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    integratorId: uuid('integrator_id')
      .notNull()
      .references(() => integrators.id),
    key: text('key').notNull(),
    /** SHA-256 of method, path and raw body: a different request under the same key is refused. */
    fingerprint: text('fingerprint').notNull(),
    // in_progress -> committed (in the mutation's own transaction) -> completed (response stored).
    state: text('state', { enum: ['in_progress', 'committed', 'completed'] }).notNull(),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    responseContentType: text('response_content_type'),
    lockedAt: timestamp('locked_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.integratorId, t.key] }), index('idempotency_keys_expires_idx').on(t.expiresAt)],
);

/** Replay guard: hashes of signed mutating requests seen while their timestamp is still acceptable. */
export const requestNonces = pgTable(
  'request_nonces',
  {
    publicKey: text('public_key').notNull(),
    messageHash: text('message_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.publicKey, t.messageHash] }), index('request_nonces_expires_idx').on(t.expiresAt)],
);
