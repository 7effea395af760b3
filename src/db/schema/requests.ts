import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { integrators } from './integrators.js';

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
