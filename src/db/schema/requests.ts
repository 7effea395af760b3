import { boolean, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt } from './columns.js';
import { integratorId } from './integrators.js';

/** Stripe-style idempotency records, one per (integrator, key), kept 24 h. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    integratorId: integratorId(),
    key: text('key').notNull(),
    /** SHA-256 of method, path and raw body: a different request under the same key is refused. */
    fingerprint: text('fingerprint').notNull(),
    // in_progress -> committed (in the mutation's own transaction) -> completed (response stored).
    state: text('state', { enum: ['in_progress', 'committed', 'completed'] }).notNull(),
    responseStatus: integer('response_status'),
    /** Only rows written before responses were sealed (they expire within 24 h of the upgrade); new rows use responseSealed. */
    responseBody: text('response_body'),
    /** The response body sealed with AES-256-GCM (context `idempotency:{integratorId}:{key}`): it may carry secrets and PII. */
    responseSealed: text('response_sealed'),
    /** The credential that made the request: a response carrying a secret is replayed to it alone. */
    credentialId: uuid('credential_id'),
    /** Whether the stored response carries a secret (a private key, an approval token). */
    responseSecret: boolean('response_secret').notNull().default(false),
    responseContentType: text('response_content_type'),
    lockedAt: at('locked_at').notNull(),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.integratorId, t.key] }), index('idempotency_keys_expires_idx').on(t.expiresAt)],
);

/** Replay guard: hashes of signed mutating requests seen while their timestamp is still acceptable. */
export const requestNonces = pgTable(
  'request_nonces',
  {
    publicKey: text('public_key').notNull(),
    messageHash: text('message_hash').notNull(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.publicKey, t.messageHash] }), index('request_nonces_expires_idx').on(t.expiresAt)],
);
