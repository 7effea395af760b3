import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id, timestamps } from './columns.js';
import { accountId } from './customers.js';
import { integratorId } from './integrators.js';

/** docs/bank-accounts.md. `removed` is a soft delete: withdrawals keep pointing at the row. */
export const BANK_ACCOUNT_STATUSES = ['verified', 'pending_review', 'rejected', 'removed'] as const;
export type BankAccountStatus = (typeof BANK_ACCOUNT_STATUSES)[number];

/**
 * External bank accounts of an account, where withdrawals are paid. The account number (ACH) or IBAN (SEPA) is
 * sealed (AES-256-GCM, bound to the row) and only its last four characters stay readable; `number_fingerprint`
 * is a keyed hash of the rail and the number, to refuse the same number twice on one account without decrypting.
 */
export const bankAccounts = pgTable(
  'bank_accounts',
  {
    id: id(),
    integratorId: integratorId(),
    accountId: accountId(),
    currency: text('currency', { enum: ['USD', 'EUR'] }).notNull(),
    rail: text('rail', { enum: ['ach', 'sepa'] }).notNull(),
    accountHolderName: text('account_holder_name').notNull(),
    bankName: text('bank_name'),
    /** ACH only: the ABA routing number (a public bank identifier, kept in clear) and the account type. */
    routingNumber: text('routing_number'),
    accountType: text('account_type', { enum: ['checking', 'savings'] }),
    /** SEPA only: the IBAN's country (alpha-2) and the BIC when given. */
    ibanCountry: text('iban_country'),
    bic: text('bic'),
    numberSealed: text('number_sealed').notNull(),
    numberFingerprint: text('number_fingerprint').notNull(),
    last4: text('last4').notNull(),
    /** The holder's address (the spec's Address), when given. */
    address: jsonb('address'),
    status: text('status').$type<BankAccountStatus>().notNull(),
    /** Whether the holder name matched the KYC or company name when the account was added. */
    nameMatched: text('name_matched', { enum: ['match', 'mismatch'] }).notNull(),
    rejectionReason: text('rejection_reason'),
    removedAt: at('removed_at'),
    ...timestamps(),
  },
  (t) => [
    index('bank_accounts_account_idx').on(t.accountId, t.id),
    // The same number twice on one account is refused while the first is live (a removed one may be added again).
    uniqueIndex('bank_accounts_live_number_key')
      .on(t.accountId, t.numberFingerprint)
      .where(sql`${t.removedAt} is null`),
    // The operators' review queue, oldest first.
    index('bank_accounts_pending_idx')
      .on(t.updatedAt, t.id)
      .where(sql`${t.status} = 'pending_review'`),
    check('bank_accounts_status_check', sql`${t.status} in ('verified', 'pending_review', 'rejected', 'removed')`),
    check('bank_accounts_rail_check', sql`(${t.rail} = 'ach' and ${t.currency} = 'USD') or (${t.rail} = 'sepa' and ${t.currency} = 'EUR')`),
  ],
);

/**
 * Every status change of a bank account: who made it (the integrator's credential, an operator, the sandbox, or
 * the service's name check) and why. Written with the change and its event; never updated or deleted.
 */
export const bankAccountTransitions = pgTable(
  'bank_account_transitions',
  {
    id: id(),
    integratorId: integratorId(),
    bankAccountId: uuid('bank_account_id')
      .notNull()
      .references(() => bankAccounts.id),
    /** Null for the creation. */
    fromStatus: text('from_status').$type<BankAccountStatus>(),
    toStatus: text('to_status').$type<BankAccountStatus>().notNull(),
    actorType: text('actor_type', { enum: ['integrator', 'operator', 'system', 'sandbox'] }).notNull(),
    actorId: text('actor_id'),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [index('bank_account_transitions_bank_account_idx').on(t.bankAccountId, t.id)],
);
