import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bytea } from './bytea.js';
import { createdAt, id } from './columns.js';
import { integratorId } from './integrators.js';

/**
 * Verification documents of users, entities and associated persons. The bytes are sealed with AES-256-GCM
 * (`content_sealed`). One row per document as submitted: the same bytes under another type (a certificate that is
 * also the trust agreement), number, country or description are another row; the same submission again (a retry)
 * is the row it was (docs/onboarding.md#documents).
 */
export const documents = pgTable(
  'documents',
  {
    id: id(),
    integratorId: integratorId(),
    ownerType: text('owner_type', { enum: ['user', 'entity', 'associated_person'] }).notNull(),
    ownerId: uuid('owner_id').notNull(),
    documentType: text('document_type').notNull(),
    issuingCountry: text('issuing_country').notNull(),
    documentNumber: text('document_number'),
    description: text('description'),
    mediaType: text('media_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    /** SHA-256 of the plaintext bytes, hex: duplicate detection without decrypting. */
    sha256: text('sha256').notNull(),
    contentSealed: bytea('content_sealed').notNull(),
    warnings: jsonb('warnings').$type<string[]>(),
    errors: jsonb('errors').$type<string[]>(),
    createdAt: createdAt(),
  },
  (t) => [
    // A description may be 1,000 characters, past what a btree entry holds: compared by its md5 (a collision would only
    // merge two submissions of the same bytes, type, number and country for one owner).
    uniqueIndex('documents_owner_submission_key').on(
      t.ownerType,
      t.ownerId,
      t.sha256,
      t.documentType,
      t.issuingCountry,
      sql`coalesce(${t.documentNumber}, '')`,
      sql`md5(coalesce(${t.description}, ''))`,
    ),
    index('documents_owner_idx').on(t.ownerType, t.ownerId, t.id),
    index('documents_integrator_sha_idx').on(t.integratorId, t.sha256),
  ],
);
