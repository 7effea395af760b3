import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id } from './columns.js';
import { userId } from './customers.js';
import { integratorId } from './integrators.js';
import { transactions } from './transactions.js';

/**
 * One-time codes sent to a user (docs/otp.md). Only a keyed hash of the code is kept; `attempts` counts wrong
 * guesses (5 allowed); `consumed_at` is set when the code is verified or superseded by a newer one.
 */
export const otpCodes = pgTable(
  'otp_codes',
  {
    id: id(),
    integratorId: integratorId(),
    userId: userId(),
    channel: text('channel', { enum: ['email'] }).notNull(),
    /** Where the code went (the user's email address at the time). */
    destination: text('destination').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: at('expires_at').notNull(),
    consumedAt: at('consumed_at'),
    createdAt: createdAt(),
  },
  (t) => [index('otp_codes_user_idx').on(t.userId, t.createdAt), check('otp_codes_channel_check', sql`${t.channel} in ('email')`)],
);

/**
 * Approval tokens issued by a verified code: short-lived, single-use authorisations of one transaction.
 * Only SHA-256 of the token is kept; `used_at` and `transaction_row_id` are set in the transaction that uses it.
 */
export const otpApprovalTokens = pgTable(
  'otp_approval_tokens',
  {
    id: id(),
    integratorId: integratorId(),
    userId: userId(),
    otpCodeId: uuid('otp_code_id')
      .notNull()
      .references(() => otpCodes.id),
    tokenHash: text('token_hash').notNull(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    transactionRowId: uuid('transaction_row_id').references(() => transactions.id),
    /** A member action the token approved instead (docs/members.md): its operation and subject id. */
    activity: text('activity'),
    subjectId: uuid('subject_id'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('otp_approval_tokens_hash_key').on(t.tokenHash), index('otp_approval_tokens_user_idx').on(t.userId)],
);

/**
 * Sandbox only, when no SMTP_URL is configured: the messages that would have been emailed, readable at
 * GET /v1/sandbox/otp-outbox. Production never writes here.
 */
export const sandboxOtpOutbox = pgTable(
  'sandbox_otp_outbox',
  {
    id: id(),
    integratorId: integratorId(),
    userId: userId(),
    channel: text('channel', { enum: ['email'] }).notNull(),
    destination: text('destination').notNull(),
    subject: text('subject').notNull(),
    /** The message and its code, each sealed (sealContexts.otpOutbox): the integrator reads them opened, nobody else. */
    body: text('body').notNull(),
    code: text('code').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sandbox_otp_outbox_user_idx').on(t.userId, t.id)],
);
