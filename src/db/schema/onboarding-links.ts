import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, id, timestamps } from './columns.js';
import { users } from './customers.js';
import { integratorId } from './integrators.js';

export const ONBOARDING_LINK_TYPES = ['individual', 'entity'] as const;
export const ONBOARDING_LINK_STATUSES = ['pending', 'opened', 'completed', 'expired', 'revoked'] as const;
export type OnboardingLinkStatus = (typeof ONBOARDING_LINK_STATUSES)[number];

/**
 * Hosted onboarding links (docs/onboarding-links.md). The token is shown once, in the answer's url, and stored only
 * as a keyed hash (HMAC under the fingerprint key). `user_id` is the customer: the existing user the link was made
 * for, or the user the hosted flow created once it completed. `email_key` (lower-case email) finds the earlier link
 * of a new customer, which a new link for the same address revokes.
 */
export const onboardingLinks = pgTable(
  'onboarding_links',
  {
    id: id(),
    integratorId: integratorId(),
    type: text('type', { enum: ONBOARDING_LINK_TYPES }).notNull(),
    userId: uuid('user_id').references(() => users.id),
    email: text('email'),
    emailKey: text('email_key'),
    redirectUrl: text('redirect_url'),
    tokenHash: text('token_hash').notNull(),
    status: text('status', { enum: ONBOARDING_LINK_STATUSES }).notNull(),
    expiresAt: at('expires_at').notNull(),
    openedAt: at('opened_at'),
    completedAt: at('completed_at'),
    /**
     * The hosted flow's terms step, for a new customer before its user exists: when the terms were accepted and which
     * version (SERVICE_TERMS_VERSION); the details step makes the user with them (serviceTermsSignedAt, termsVersion).
     */
    termsAcceptedAt: at('terms_accepted_at'),
    termsVersion: text('terms_version'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('onboarding_links_token_hash_key').on(t.tokenHash),
    // A new link revokes the customer's live one: found by user, or by address for a new customer.
    index('onboarding_links_live_user_idx')
      .on(t.integratorId, t.userId)
      .where(sql`${t.status} in ('pending', 'opened')`),
    index('onboarding_links_live_email_idx')
      .on(t.integratorId, t.emailKey)
      .where(sql`${t.status} in ('pending', 'opened')`),
    // The mail sender's round expires live links past their date.
    index('onboarding_links_live_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} in ('pending', 'opened')`),
    check('onboarding_links_type_check', sql`${t.type} in ('individual', 'entity')`),
    check('onboarding_links_status_check', sql`${t.status} in ('pending', 'opened', 'completed', 'expired', 'revoked')`),
  ],
);
