import { doublePrecision, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id } from './columns.js';
import { integratorId } from './integrators.js';

type SubjectType = 'user' | 'associated_person' | 'entity';
const SUBJECT_TYPES = ['user', 'associated_person', 'entity'] as const;

/** A row about one customer record of one integrator. */
const aboutSubject = () => ({
  id: id(),
  integratorId: integratorId(),
  subjectType: text('subject_type', { enum: SUBJECT_TYPES }).notNull(),
  subjectId: uuid('subject_id').notNull(),
});

/**
 * A person or company found on a screening list (docs/back-office.md#hits): what matched, both sides' data as
 * they were, and the operator's disposition. One row per (subject, matchKey): the key hashes the list entry and
 * the customer's screened data, so a false positive is not raised again until either side changes.
 */
export const screeningHits = pgTable(
  'screening_hits',
  {
    ...aboutSubject(),
    matchKey: text('match_key').notNull(),
    list: text('list').notNull(),
    entryNumber: text('entry_number').notNull(),
    score: doublePrecision('score').notNull(),
    /** The hit as the engine gave it, the entry's names, and the customer's screened data (ScreeningHit + more). */
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
    /** open until an operator decides; cleared when the customer's data changed and no longer matches. */
    status: text('status', { enum: ['open', 'true_match', 'false_positive', 'cleared'] }).notNull().default('open'),
    dispositionNote: text('disposition_note'),
    dispositionBy: uuid('disposition_by'),
    dispositionAt: at('disposition_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('screening_hits_match_key').on(t.subjectId, t.matchKey), index('screening_hits_open_idx').on(t.subjectId, t.status)],
);

/**
 * An operator case's working state, beside the record's verification status: who holds it, the proposed decision
 * waiting for a second operator, and whether it was opened on a customer outside review (a new hit after a list
 * changed, money from a listed address). A row exists once anything of this was ever set.
 */
export const reviewCases = pgTable(
  'review_cases',
  {
    subjectId: uuid('subject_id').primaryKey(),
    subjectType: text('subject_type', { enum: SUBJECT_TYPES }).notNull(),
    integratorId: integratorId(),
    assigneeId: uuid('assignee_id'),
    assignedAt: at('assigned_at'),
    openReason: text('open_reason', { enum: ['screening_hit', 'incoming_from_listed_address'] }),
    openedAt: at('opened_at'),
    proposedDecision: text('proposed_decision', { enum: ['approve', 'reject', 'request_resubmission', 'deactivate', 'reactivate', 'reopen'] }),
    proposedReasons: jsonb('proposed_reasons').$type<string[]>(),
    proposedBy: uuid('proposed_by'),
    proposedAt: at('proposed_at'),
  },
  (t) => [index('review_cases_open_idx').on(t.openedAt)],
);

/** A case's append-only log of operator work: notes, claims, proposals, dispositions, openings (the timeline). */
export const caseActivity = pgTable(
  'case_activity',
  {
    ...aboutSubject(),
    kind: text('kind').notNull(),
    /** null for the service itself (a hit raised by re-screening, a case opened). */
    operatorId: uuid('operator_id'),
    summary: text('summary').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index('case_activity_subject_idx').on(t.subjectId, t.createdAt)],
);

export type CaseSubjectType = SubjectType;
