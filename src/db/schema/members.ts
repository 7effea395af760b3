import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id, timestamps } from './columns.js';
import { accountId, authenticators, userId, users } from './customers.js';
import { integratorId } from './integrators.js';
import { transactions } from './transactions.js';

export const MEMBER_ROLES = ['owner', 'admin', 'approver', 'initiator', 'viewer'] as const;
const roleCheck = (column: unknown) => sql`${column} in ('owner', 'admin', 'approver', 'initiator', 'viewer')`;

/** The people who act for an entity account (docs/members.md): one role each, one row per account and user. */
export const accountMembers = pgTable(
  'account_members',
  {
    integratorId: integratorId(),
    accountId: accountId(),
    userId: userId(),
    role: text('role', { enum: MEMBER_ROLES }).notNull(),
    ...timestamps(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.userId] }), index('account_members_user_idx').on(t.userId), check('account_members_role_check', roleCheck(t.role))],
);

export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/**
 * Invitations to become a member (docs/members.md). The token is shown once, in the email, and stored only as a
 * keyed hash (HMAC under the fingerprint key). `invited_by_user_id` is null when the integrator alone invited the
 * first owner.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: id(),
    integratorId: integratorId(),
    accountId: accountId(),
    email: text('email').notNull(),
    role: text('role', { enum: MEMBER_ROLES }).notNull(),
    tokenHash: text('token_hash').notNull(),
    status: text('status', { enum: INVITATION_STATUSES }).notNull(),
    expiresAt: at('expires_at').notNull(),
    invitedByUserId: uuid('invited_by_user_id').references(() => users.id),
    acceptedUserId: uuid('accepted_user_id').references(() => users.id),
    sentCount: integer('sent_count').notNull().default(1),
    lastSentAt: at('last_sent_at').notNull(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('invitations_token_hash_key').on(t.tokenHash),
    index('invitations_account_idx').on(t.accountId, t.id),
    // The watcher expires pending invitations past their date.
    index('invitations_pending_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'pending'`),
    check('invitations_role_check', roleCheck(t.role)),
    check('invitations_status_check', sql`${t.status} in ('pending', 'accepted', 'revoked', 'expired')`),
  ],
);

/**
 * Email to send, written in the transaction of what it announces and sent by a worker after the commit (at least
 * once, retried with backoff). Subject and body are sealed (sealContexts.mailOutbox): an invitation's body holds
 * its token. In sandbox without SMTP_URL nothing is sent and the integrator reads its messages from
 * GET /v1/sandbox/mail-outbox.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    integratorId: integratorId(),
    /** What the message is about (an invitation's id), for the sandbox reader and operators. */
    kind: text('kind', { enum: ['invitation'] }).notNull(),
    subjectId: uuid('subject_id').notNull(),
    recipient: text('recipient').notNull(),
    subjectSealed: text('subject_sealed').notNull(),
    bodySealed: text('body_sealed').notNull(),
    /** pending: to send; sent; held: sandbox without a mailer (kept for the outbox reader); failed: gave up. */
    status: text('status', { enum: ['pending', 'sent', 'held', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull(),
    lastError: text('last_error'),
    sentAt: at('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('mail_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index('mail_outbox_integrator_idx').on(t.integratorId, t.id),
    check('mail_outbox_status_check', sql`${t.status} in ('pending', 'sent', 'held', 'failed')`),
  ],
);

/**
 * Members' approvals of a transaction from an entity wallet (docs/members.md#quorum): one per member, whoever
 * gave it twice. Whether it still counts is decided when counting (the member's current role).
 */
export const transactionApprovals = pgTable(
  'transaction_approvals',
  {
    integratorId: integratorId(),
    transactionRowId: uuid('transaction_row_id')
      .notNull()
      .references(() => transactions.id),
    userId: userId(),
    approval: text('approval', { enum: ['passkey', 'otp'] }).notNull(),
    authenticatorId: uuid('authenticator_id').references(() => authenticators.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.transactionRowId, t.userId] })],
);
