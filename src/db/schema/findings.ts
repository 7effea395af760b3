import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.js';
import { integratorId } from './integrators.js';

/**
 * Results of the automated verification checks, replaced on every run. Findings about a document are also
 * written into that document's `warnings` / `errors` (the spec's fields); findings about the record (a shared SSN,
 * a watch-list hit) live here and show in the operator's case.
 */
export const verificationFindings = pgTable(
  'verification_findings',
  {
    id: id(),
    integratorId: integratorId(),
    subjectType: text('subject_type', { enum: ['user', 'associated_person', 'entity'] }).notNull(),
    subjectId: uuid('subject_id').notNull(),
    documentId: uuid('document_id'),
    severity: text('severity', { enum: ['warning', 'error'] }).notNull(),
    code: text('code').notNull(),
    message: text('message').notNull(),
    /** The screening hit a watch-list finding reports (its disposition removes a false positive's finding). */
    hitId: uuid('hit_id'),
    /** The other record a duplicate finding points to (same file, same document number, same SSN). */
    related: jsonb('related').$type<{ subjectType: 'user' | 'associated_person' | 'entity'; subjectId: string }>(),
    createdAt: createdAt(),
  },
  (t) => [index('verification_findings_subject_idx').on(t.subjectType, t.subjectId)],
);
