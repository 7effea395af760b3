import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.js';
import { integratorId } from './integrators.js';
import type { VerificationStatus } from './verification-status.js';

/**
 * Every verification status change: who or what caused it, why and when. Written in the same transaction as
 * the change and its `*.verification_status.changed` event; never updated or deleted.
 */
export const verificationTransitions = pgTable(
  'verification_transitions',
  {
    id: id(),
    integratorId: integratorId(),
    subjectType: text('subject_type', { enum: ['user', 'associated_person', 'entity'] }).notNull(),
    subjectId: uuid('subject_id').notNull(),
    fromStatus: text('from_status').$type<VerificationStatus>().notNull(),
    toStatus: text('to_status').$type<VerificationStatus>().notNull(),
    action: text('action').notNull(),
    actorType: text('actor_type', { enum: ['integrator', 'operator', 'system', 'sandbox'] }).notNull(),
    /** The credential, operator or component that acted. */
    actorId: text('actor_id'),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [index('verification_transitions_subject_idx').on(t.subjectType, t.subjectId, t.id)],
);
