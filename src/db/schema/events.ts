import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.js';
import { integratorId } from './integrators.js';

/**
 * Every state change writes one row here in the same transaction as the change. `sequence` counts per
 * object so receivers can order; the unique index makes two writers of one object collide, not interleave.
 */
export const events = pgTable(
  'events',
  {
    id: id(),
    integratorId: integratorId(),
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
    // created_at too: a listing with a wide created-at window finds its page's ids in this index alone
    // (repositories/events.ts wideWindowPage).
    index('events_integrator_idx').on(t.integratorId, t.id, t.createdAt),
    // GET /v1/events?type=… and the retention purge.
    index('events_integrator_type_idx').on(t.integratorId, t.type, t.id),
    index('events_created_idx').on(t.createdAt),
    // GET /v1/events?createdGte=…: a created-at window's ids, index only (repositories/events.ts smallWindowPage).
    index('events_integrator_created_idx').on(t.integratorId, t.createdAt, t.id),
  ],
);

/**
 * The last sequence number given to each object's events. Kept apart from `events` so that purging old events
 * never lets a number be given twice (a receiver that stored sequence 7 must never see a new event numbered 1),
 * and the upsert's row lock orders concurrent writers of one object.
 */
export const eventSequences = pgTable('event_sequences', {
  objectId: text('object_id').primaryKey(),
  last: integer('last').notNull(),
});
