import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, numeric, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id } from './columns.js';
import { accountId, accounts } from './customers.js';
import { integratorId } from './integrators.js';

/**
 * Spending policies (docs/policies.md): an integrator's rules over all its accounts (`account_id` null) or one.
 * `rules` holds the rules as validated, each amount also in base units (`amountRaw`). Never updated: a change is a
 * new policy, and a deleted one keeps its row (`deleted_at`) so the rules a past decision was made under stay readable.
 */
export const spendingPolicies = pgTable(
  'spending_policies',
  {
    id: id(),
    integratorId: integratorId(),
    accountId: uuid('account_id').references(() => accounts.id),
    rules: jsonb('rules').notNull(),
    createdAt: createdAt(),
    deletedAt: at('deleted_at'),
  },
  (t) => [
    // The integrator's live policies, oldest first (list-policies).
    index('spending_policies_live_idx')
      .on(t.integratorId, t.id)
      .where(sql`${t.deletedAt} is null`),
    // The live policies covering one account: its own and the integrator-wide ones (account_id null), for evaluation.
    index('spending_policies_account_idx')
      .on(t.integratorId, t.accountId)
      .where(sql`${t.deletedAt} is null`),
  ],
);

/** The audit trail of policies: who created or deleted which, when. Written with the change and its event; never updated. */
export const spendingPolicyChanges = pgTable(
  'spending_policy_changes',
  {
    id: id(),
    integratorId: integratorId(),
    policyId: uuid('policy_id')
      .notNull()
      .references(() => spendingPolicies.id),
    action: text('action', { enum: ['created', 'deleted'] }).notNull(),
    actorType: text('actor_type', { enum: ['integrator', 'operator'] }).notNull(),
    /** The credential that signed the request (integrator), or the operator. */
    actorId: text('actor_id'),
    /** The entity owner whose approval the change took (docs/policies.md#who-may-change-a-policy), else null. */
    actingUserId: uuid('acting_user_id'),
    createdAt: createdAt(),
  },
  (t) => [index('spending_policy_changes_policy_idx').on(t.policyId, t.id), check('spending_policy_changes_action_check', sql`${t.action} in ('created', 'deleted')`)],
);

/**
 * An account's address book: destinations it means to send to, each usable from `usable_at` (the largest
 * new_destination_delay of the policies covering the account when it was added). One entry per address.
 */
export const addressBookEntries = pgTable(
  'address_book_entries',
  {
    id: id(),
    integratorId: integratorId(),
    accountId: accountId(),
    /** Lower case, so one address is one entry whatever its checksum casing. */
    address: text('address').notNull(),
    label: text('label').notNull(),
    usableAt: at('usable_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('address_book_entries_account_address_key').on(t.accountId, t.address),
    index('address_book_entries_account_idx').on(t.accountId, t.id),
    check('address_book_entries_address_check', sql`${t.address} ~ '^0x[0-9a-f]{40}$'`),
  ],
);

/**
 * What a transaction counts against an account's rolling windows (max_amount over 24h or 7d): reserved in the
 * database transaction that checks the window, released (`released_at`) when the transaction fails or its block
 * leaves the chain. One row per transaction and asset: the rules of every policy on that asset share the sum, so it
 * is not kept per rule. "Unreleased amounts of an account, asset and chain since T" is one range scan of the
 * partial index below. `transaction_id` has no foreign key: the reservation is taken before the transaction row exists.
 */
export const policyReservations = pgTable(
  'policy_reservations',
  {
    id: id(),
    integratorId: integratorId(),
    accountId: accountId(),
    chainId: integer('chain_id').notNull(),
    /** `native` for the chain's coin, else the token contract's address in lower case (symbols can be renamed in TOKENS). */
    asset: text('asset').notNull(),
    transactionId: uuid('transaction_id').notNull(),
    /** In base units (wei, or the token's smallest unit). */
    amount: numeric('amount', { precision: 78, scale: 0 }).notNull(),
    reservedAt: at('reserved_at').notNull(),
    releasedAt: at('released_at'),
  },
  (t) => [
    index('policy_reservations_window_idx')
      .on(t.accountId, t.chainId, t.asset, t.reservedAt)
      .where(sql`${t.releasedAt} is null`),
    // A transaction reserves an asset once: a retried check finds its own reservation instead of adding another.
    uniqueIndex('policy_reservations_transaction_key').on(t.transactionId, t.chainId, t.asset),
    check('policy_reservations_amount_check', sql`${t.amount} > 0`),
    check('policy_reservations_asset_check', sql`${t.asset} = 'native' or ${t.asset} ~ '^0x[0-9a-f]{40}$'`),
  ],
);
