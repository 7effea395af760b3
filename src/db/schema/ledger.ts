import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, numeric, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id, timestamps } from './columns.js';

// The double-entry ledger (docs/ledger.md): accounts per holder and asset, transactions whose entries sum to zero per
// asset, balances maintained on the account row (read in constant time) and kept per version for reads as of a past
// time. Amounts are integers in the asset's base units (numeric: a uint256 does not fit a bigint), never floats.

export const LEDGER_STATUSES = ['pending', 'posted', 'archived'] as const;
export type LedgerStatus = (typeof LEDGER_STATUSES)[number];

/** What an account holds or stands for (docs/ledger.md#accounts). */
export const LEDGER_ACCOUNT_KINDS = ['customer', 'treasury', 'fiat_clearing', 'exchange', 'fees_earned', 'payouts_in_transit', 'network_fees', 'external', 'opening_balances', 'adjustments'] as const;
export type LedgerAccountKind = (typeof LEDGER_ACCOUNT_KINDS)[number];

/**
 * The assets entries are in: a chain's native coin (`eip155:<chainId>/slip44:60`), an ERC-20 token
 * (`eip155:<chainId>/erc20:<address>`), a fiat currency (`iso4217:USD`): CAIP-19's shape. Registered as they are
 * first posted and from the configured tokens at start (symbol and decimals for the views).
 */
export const ledgerAssets = pgTable('ledger_assets', {
  code: text('code').primaryKey(),
  chainId: bigint('chain_id', { mode: 'number' }),
  /** ERC-20 tokens: lower case. */
  address: text('address'),
  symbol: text('symbol').notNull(),
  decimals: integer('decimals').notNull(),
  createdAt: createdAt(),
});

export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    /** Derived from the code (uuid v5-like), so processes creating the same account agree on its id. */
    id: id(),
    /**
     * `<kind>:<asset>` or `customer:<accountId>:<asset>`: unique because the id is derived from it, so the primary key is
     * the one unique index. A second one would break the balance upsert: `on conflict (id) do update` arbitrates on one
     * index, and two postings creating the same slot row at once met on the other with 23505 (docs/ledger.md#locking).
     */
    code: text('code').notNull(),
    kind: text('kind', { enum: LEDGER_ACCOUNT_KINDS }).notNull(),
    asset: text('asset').notNull(),
    /** Customer accounts: the integrator and its account (accounts.id). */
    integratorId: uuid('integrator_id'),
    accountId: uuid('account_id'),
    posted: numeric('posted_balance').notNull().default('0'),
    pending: numeric('pending_balance').notNull().default('0'),
    available: numeric('available_balance').notNull().default('0'),
    /** Bumped by every change of the balances (the version lock of Modern Treasury's ledgers). */
    version: bigint('version', { mode: 'number' }).notNull().default(0),
    /**
     * A balance slot of a service account (docs/ledger.md#locking): its code `<account code>#<n>`, the account it is a
     * part of here. A service account's balances are the sum of its slots' (its own row stays at zero), so concurrent
     * postings through it lock different rows; its entries name the account itself.
     */
    slotOf: uuid('slot_of'),
    ...timestamps(),
  },
  (t) => [
    index('ledger_accounts_code_idx').on(t.code),
    index('ledger_accounts_account_idx').on(t.accountId).where(sql`${t.accountId} is not null`),
    index('ledger_accounts_slot_of_idx').on(t.slotOf).where(sql`${t.slotOf} is not null`),
  ],
);

/**
 * A balanced set of entries and what caused it. `cause_key` makes posting idempotent: a retry, a restart or a second
 * process posting the same cause finds it there.
 */
export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: id(),
    causeKey: text('cause_key').notNull(),
    /** transaction (a transactions row), payout (a withdrawal_payouts row), opening, adjustment. */
    causeType: text('cause_type', { enum: ['transaction', 'payout', 'opening', 'adjustment'] }).notNull(),
    causeId: uuid('cause_id'),
    integratorId: uuid('integrator_id'),
    description: text('description').notNull(),
    status: text('status').$type<LedgerStatus>().notNull(),
    /** On-chain legs: the chain, and the block the movement is in once mined (posted when the block is final). */
    chainId: bigint('chain_id', { mode: 'number' }),
    blockNumber: bigint('block_number', { mode: 'number' }),
    /**
     * The block the movement was mined in, once known (an incoming transfer's from the start, which may still leave the
     * chain): what the chain reconciliation compares at a block (docs/reconciliation.md#against-the-chain).
     */
    minedIn: bigint('mined_in', { mode: 'number' }),
    effectiveAt: at('effective_at').notNull(),
    postedAt: at('posted_at'),
    archivedAt: at('archived_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('ledger_transactions_cause_key').on(t.causeKey),
    index('ledger_transactions_cause_idx').on(t.causeId),
    // The finalizer's question: which mined movements of a chain are final now.
    // The chain reconciliation's questions: what of a chain was mined after the block it reads, and what is still pending.
    index('ledger_transactions_chain_mined_idx').on(t.chainId, t.minedIn).where(sql`${t.minedIn} is not null`),
    index('ledger_transactions_pending_idx').on(t.chainId).where(sql`${t.status} = 'pending'`),
    index('ledger_transactions_unfinal_idx')
      .on(t.chainId, t.blockNumber)
      .where(sql`${t.status} = 'pending' and ${t.blockNumber} is not null`),
    check('ledger_transactions_status_check', sql`${t.status} in ('pending', 'posted', 'archived')`),
  ],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: id(),
    ledgerTransactionId: uuid('ledger_transaction_id')
      .notNull()
      .references(() => ledgerTransactions.id),
    ledgerAccountId: uuid('ledger_account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    asset: text('asset').notNull(),
    /** Signed base units: positive adds to the account's balance. */
    amount: numeric('amount').notNull(),
    status: text('status').$type<LedgerStatus>().notNull(),
    /**
     * The account's balances right after this entry was written, and its version then; null for a service account,
     * whose balances are the sum of slots moved concurrently (no one figure is "right after" an entry).
     */
    postedAfter: numeric('posted_after'),
    pendingAfter: numeric('pending_after'),
    availableAfter: numeric('available_after'),
    accountVersion: bigint('account_version', { mode: 'number' }),
    ...timestamps(),
  },
  (t) => [
    // An account's entries newest first (keyset pages on the id, a UUIDv7).
    index('ledger_entries_account_idx').on(t.ledgerAccountId, t.id),
    index('ledger_entries_transaction_idx').on(t.ledgerTransactionId),
    check('ledger_entries_status_check', sql`${t.status} in ('pending', 'posted', 'archived')`),
  ],
);

/** Every version of an account's balances, for reads as of a past time (the last version at or before it). */
export const ledgerBalanceVersions = pgTable(
  'ledger_balance_versions',
  {
    ledgerAccountId: uuid('ledger_account_id').notNull(),
    version: bigint('version', { mode: 'number' }).notNull(),
    posted: numeric('posted_balance').notNull(),
    pending: numeric('pending_balance').notNull(),
    available: numeric('available_balance').notNull(),
    at: at('at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ledgerAccountId, t.version] }), index('ledger_balance_versions_at_idx').on(t.ledgerAccountId, t.at)],
);

/** Per chain: the block at which the ledger started (opening balances read there); one row each, first writer wins. */
export const ledgerOpenings = pgTable('ledger_openings', {
  chainId: bigint('chain_id', { mode: 'number' }).primaryKey(),
  blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
  createdAt: createdAt(),
});
