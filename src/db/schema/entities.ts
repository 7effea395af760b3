import { check, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { at, id, timestamps } from './columns.js';
import { statusCheck, type VerificationStatus } from './verification-status.js';
import { integratorId } from './integrators.js';

/** Companies. `entity_info` is the spec's entity info object, deep-merged on update. */
export const entities = pgTable(
  'entities',
  {
    id: id(),
    integratorId: integratorId(),
    entityInfo: jsonb('entity_info').notNull(),
    serviceTermsSignedAt: at('service_terms_signed_at').notNull(),
    verificationStatus: text('verification_status').$type<VerificationStatus>().notNull(),
    /** The requirements as last announced (requirements.updated is written when they change; docs/onboarding-links.md). */
    requirements: jsonb('requirements'),
    ...timestamps(),
  },
  (t) => [
    index('entities_integrator_idx').on(t.integratorId, t.id),
    index('entities_status_idx').on(t.verificationStatus, t.updatedAt, t.id),
    check('entities_status_check', statusCheck(t.verificationStatus)),
  ],
);

/** Beneficiaries and representatives of an entity (the spec's "associated persons"). */
export const associatedPersons = pgTable(
  'associated_persons',
  {
    id: id(),
    integratorId: integratorId(),
    entityId: uuid('entity_id')
      .notNull()
      .references(() => entities.id),
    userInfo: jsonb('user_info').notNull(),
    ssnSealed: text('ssn_sealed'),
    ssnLast4: text('ssn_last4'),
    ssnFingerprint: text('ssn_fingerprint'),
    beneficiaryDetails: jsonb('beneficiary_details').notNull(),
    verificationStatus: text('verification_status').$type<VerificationStatus>().notNull(),
    /** Removed persons stay for the audit trail but are invisible to the API. */
    removedAt: at('removed_at'),
    ...timestamps(),
  },
  (t) => [
    index('associated_persons_entity_idx').on(t.entityId),
    index('associated_persons_integrator_idx').on(t.integratorId, t.id),
    index('associated_persons_status_idx').on(t.verificationStatus, t.updatedAt, t.id),
    check('associated_persons_status_check', statusCheck(t.verificationStatus)),
  ],
);
