import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bankAccounts } from './bank-accounts.js';
import { at, id, timestamps } from './columns.js';
import { integratorId } from './integrators.js';
import { transactions } from './transactions.js';

/** docs/withdrawals.md: pending (initiated), sent to the bank, settled, or returned by the bank. */
export const PAYOUT_STATUSES = ['pending', 'sent', 'settled', 'returned'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/**
 * The fiat side of a withdrawal: one payout to the bank account, created when the crypto arrived in the treasury
 * (funds_in_transfer). Operators, a bank-rail integration or the sandbox move it; the bank account's details at
 * the time are kept here (holder, rail, last4), so a later removal of the bank account changes nothing.
 */
export const withdrawalPayouts = pgTable(
  'withdrawal_payouts',
  {
    id: id(),
    integratorId: integratorId(),
    transactionRowId: uuid('transaction_row_id')
      .notNull()
      .references(() => transactions.id),
    bankAccountId: uuid('bank_account_id')
      .notNull()
      .references(() => bankAccounts.id),
    /** WDR- and 12 Crockford base32 characters, quoted on the bank transfer and used by operators. */
    reference: text('reference').notNull(),
    rail: text('rail', { enum: ['ach', 'sepa'] }).notNull(),
    amount: text('amount').notNull(),
    currency: text('currency', { enum: ['USD', 'EUR'] }).notNull(),
    accountHolderName: text('account_holder_name').notNull(),
    last4: text('last4').notNull(),
    status: text('status').$type<PayoutStatus>().notNull(),
    sentAt: at('sent_at'),
    settledAt: at('settled_at'),
    returnedAt: at('returned_at'),
    returnReason: text('return_reason'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('withdrawal_payouts_transaction_key').on(t.transactionRowId),
    uniqueIndex('withdrawal_payouts_reference_key').on(t.reference),
    index('withdrawal_payouts_open_idx')
      .on(t.createdAt)
      .where(sql`${t.status} in ('pending', 'sent')`),
    check('withdrawal_payouts_status_check', sql`${t.status} in ('pending', 'sent', 'settled', 'returned')`),
  ],
);
