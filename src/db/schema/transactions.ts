import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id, timestamps, updatedAt } from './columns.js';
import { accountId, authenticators, wallets } from './customers.js';
import { integratorId } from './integrators.js';

/** The states of a transaction (docs/transactions.md). waiting_for_funds and funds_in_transfer are for deposits. */
export const TRANSACTION_STATUSES = ['created', 'waiting_for_funds', 'funds_in_transfer', 'processing', 'completed', 'failed'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export const TRANSACTION_KINDS = ['transfer', 'deposit', 'withdrawal', 'refund', 'vault_deposit', 'vault_withdrawal', 'incoming'] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

/**
 * On-chain transactions submitted by integrators (send-transaction-passkey). `transaction_id` is the
 * integrator's own id and idempotency key (unique per integrator); `id` is ours (UUIDv7, creation order).
 * `request_hash` is SHA-256 of the canonical request, to tell a replay from a reuse of the id.
 */
export const transactions = pgTable(
  'transactions',
  {
    id: id(),
    integratorId: integratorId(),
    transactionId: uuid('transaction_id').notNull(),
    accountId: accountId(),
    /** The custody wallet that signs (transfers), or receives (deposits to custodial accounts); null for a deposit to a self-custodial wallet. */
    walletId: uuid('wallet_id').references(() => wallets.id),
    authenticatorId: uuid('authenticator_id').references(() => authenticators.id),
    chainId: bigint('chain_id', { mode: 'number' }).notNull(),
    /**
     * transfer: signed from the account's custody wallet; deposit: a fiat onramp paid out from the treasury;
     * withdrawal: crypto from the custody wallet to the treasury, then fiat to a bank account; refund: a returned
     * withdrawal's crypto paid back from the treasury (like a deposit's payout); vault_deposit and vault_withdrawal:
     * the calls to an ERC-4626 vault prepared by this service (docs/products.md#vaults); incoming: a transfer to the
     * account's wallet from outside, seen on chain by the incoming watcher (docs/incoming.md).
     */
    kind: text('kind', { enum: TRANSACTION_KINDS }).notNull().default('transfer'),
    /** How a transfer was approved: passkey (a stamp) or otp (an approval token). Null for deposits. */
    approval: text('approval', { enum: ['passkey', 'otp'] }),
    status: text('status').$type<TransactionStatus>().notNull(),
    requestHash: text('request_hash').notNull(),
    /** The signedBody as received (the stamped object); null for deposits. */
    signedBody: jsonb('signed_body'),
    /** The sending address; for a deposit the treasury's, known once it is paid out. */
    fromAddress: text('from_address'),
    toAddress: text('to_address'),
    /** Wei, decimal. */
    value: text('value').notNull(),
    nonce: bigint('nonce', { mode: 'number' }),
    transactionHash: text('transaction_hash'),
    broadcastedAt: at('broadcasted_at'),
    /** The spec's transactionReceipt (toReceiptView), once mined. */
    receipt: jsonb('receipt'),
    /** failed only: reverted, dropped. */
    failureReason: text('failure_reason'),
    /** Deposits: the fiat amount expected (decimal string), its currency, and what actually arrived. */
    depositAmount: text('deposit_amount'),
    depositCurrency: text('deposit_currency', { enum: ['USD', 'EUR'] }),
    receivedAmount: text('received_amount'),
    /** Deposits: the unique payment reference the sender must quote (also inside the instructions). */
    depositReference: text('deposit_reference'),
    /** Deposits: the spec's fiatDepositInstructions, as issued. */
    fiatDepositInstructions: jsonb('fiat_deposit_instructions'),
    /**
     * Deposits: the signed payout from the treasury, kept from signing until the node accepted it, so a retry
     * re-sends the same transaction (same nonce) and can never pay twice.
     */
    payoutRaw: text('payout_raw'),
    /**
     * Transfers, withdrawals and vault calls: the end user's approved transaction signed with the custody key,
     * committed before it goes to the node and sent after the commit (by the request, or by the watcher after a
     * crash or while the node is unreachable: docs/transactions.md#sending). Null once the node accepted it.
     */
    signedRaw: text('signed_raw'),
    /** Deposits: why the last payout attempt failed (the watcher retries with backoff), and how many failed. */
    payoutError: text('payout_error'),
    payoutAttempts: integer('payout_attempts').notNull().default(0),
    /** Withdrawals: the quote as issued (amounts, fee, bank account snapshot, expiry, the unsigned transfer). */
    withdrawal: jsonb('withdrawal'),
    /** Vault calls: which vault, which call (approve, deposit, withdraw, redeem), the amounts and the unsigned transaction. */
    vault: jsonb('vault'),
    /**
     * Transfers whose call is a listed token's ERC-20 transfer: the transfer as decoded at submission (symbol, token,
     * recipient, amounts), kept so the view stays what was approved if TOKENS changes (docs/tokens.md#transfers).
     */
    tokenTransfer: jsonb('token_transfer'),
    /**
     * Transactions this service prepared for the end user's approval (withdrawals, vault calls): approved after
     * this, they fail as quote_expired.
     */
    expiresAt: at('expires_at'),
    /** Entity wallets: the member who proposed the transaction (docs/members.md#quorum). */
    proposedByUserId: uuid('proposed_by_user_id'),
    /**
     * An entity transaction's quorum raised by a spending policy's require_approvals (docs/policies.md#step-up): the
     * largest step-up judged so far; null when none applied. The quorum is the larger of this and the account's.
     */
    requiredApprovals: integer('required_approvals'),
    /** Refunds: the withdrawal (its row id, which is also its transactionId) whose crypto this pays back; one refund each. */
    refundOf: uuid('refund_of'),
    /**
     * Deposits, withdrawals and refunds in a listed ERC-20 (docs/tokens.md#deposits-and-withdrawals): the token as it was
     * then ({symbol, address, decimals}), and the base units moved (`value` is then 0: the call moves the token).
     * Null for the native coin.
     */
    token: jsonb('token'),
    tokenAmount: text('token_amount'),
    /** Token deposits: the fiat-to-token rate quoted at creation (whole units per unit of fiat), applied to what arrives. */
    depositRate: text('deposit_rate'),
    /**
     * Incoming transfers (docs/incoming.md): the block they were seen in (moved if a reorg mines them again elsewhere),
     * the log's index in it (-1 for a native-coin transfer, which has no log), and what arrived as the view shows it.
     */
    blockNumber: bigint('block_number', { mode: 'number' }),
    blockHash: text('block_hash'),
    logIndex: integer('log_index'),
    incoming: jsonb('incoming'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('transactions_integrator_transaction_key').on(t.integratorId, t.transactionId),
    index('transactions_account_idx').on(t.accountId, t.id),
    uniqueIndex('transactions_deposit_reference_key').on(t.depositReference),
    // The watcher's receipts; incoming transfers wait for confirmations instead (the index below).
    index('transactions_processing_idx')
      .on(t.updatedAt)
      .where(sql`${t.status} = 'processing' and ${t.kind} <> 'incoming'`),
    // One record per transfer and receiving account, whichever process saw it first (docs/incoming.md); one that
    // failed as reorged does not count: mined again later, it is a new record.
    uniqueIndex('transactions_incoming_key')
      .on(t.accountId, t.chainId, t.transactionHash, t.logIndex)
      .where(sql`${t.kind} = 'incoming' and ${t.status} <> 'failed'`),
    index('transactions_incoming_pending_idx')
      .on(t.chainId, t.blockNumber)
      .where(sql`${t.kind} = 'incoming' and ${t.status} = 'processing'`),
    // The incoming watcher leaves out what this service itself sent to the account (payouts, refunds, vault calls).
    index('transactions_hash_idx')
      .on(t.transactionHash)
      .where(sql`${t.transactionHash} is not null`),
    // Withdrawals waiting for their approval and entity proposals waiting for their quorum, to expire them.
    index('transactions_created_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'created'`),
    // Deposits waiting for their bank transfer, to expire them.
    index('transactions_waiting_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'waiting_for_funds'`),
    index('transactions_payout_idx')
      .on(t.updatedAt)
      .where(sql`${t.status} = 'funds_in_transfer'`),
    uniqueIndex('transactions_refund_of_key').on(t.refundOf),
    check('transactions_kind_check', sql`${t.kind} in ('transfer', 'deposit', 'withdrawal', 'refund', 'vault_deposit', 'vault_withdrawal', 'incoming')`),
    check('transactions_status_check', sql`${t.status} in ('created', 'waiting_for_funds', 'funds_in_transfer', 'processing', 'completed', 'failed')`),
  ],
);

/**
 * Stamp challenges already used (docs/passkeys.md: a stamp is single-use). Written in the transaction that
 * records what the stamp authorised, and only then: a refused attempt does not use its stamp up.
 */
export const usedStampChallenges = pgTable(
  'used_stamp_challenges',
  {
    challenge: text('challenge').notNull(),
    integratorId: integratorId(),
    authenticatorId: uuid('authenticator_id')
      .notNull()
      .references(() => authenticators.id),
    /** The transaction the stamp approved (proposal or approval); null for a member action. */
    transactionRowId: uuid('transaction_row_id').references(() => transactions.id),
    /** A member action (docs/members.md): its operation and the id of what it changed (account or invitation). */
    activity: text('activity'),
    subjectId: uuid('subject_id'),
    createdAt: createdAt(),
  },
  // Per integrator: whether another integrator used a stamp is none of this one's business (no cross-tenant oracle).
  (t) => [primaryKey({ columns: [t.integratorId, t.challenge] })],
);

/**
 * Every status change of a transaction: who or what caused it (the integrator's credential, an operator, the
 * sandbox, or the service itself) and a detail (the approval, the amount received, the reason). Written in the same
 * database transaction as the change and its event; never updated or deleted.
 */
export const transactionTransitions = pgTable(
  'transaction_transitions',
  {
    id: id(),
    integratorId: integratorId(),
    transactionRowId: uuid('transaction_row_id')
      .notNull()
      .references(() => transactions.id),
    /** Null for the creation. */
    fromStatus: text('from_status').$type<TransactionStatus>(),
    toStatus: text('to_status').$type<TransactionStatus>().notNull(),
    actorType: text('actor_type', { enum: ['integrator', 'operator', 'system', 'sandbox'] }).notNull(),
    actorId: text('actor_id'),
    detail: text('detail'),
    createdAt: createdAt(),
  },
  (t) => [index('transaction_transitions_transaction_idx').on(t.transactionRowId, t.id)],
);

/**
 * Where the incoming watcher stands on each chain (docs/incoming.md): the last block whose transfers are recorded, and
 * its hash, against which the next block's parent is checked (a reorg). Advanced only by compare-and-set in the
 * transaction that records the range, so processes sharing a database never record a range twice.
 */
export const chainScanCursors = pgTable('chain_scan_cursors', {
  chainId: bigint('chain_id', { mode: 'number' }).primaryKey(),
  blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
  blockHash: text('block_hash').notNull(),
  updatedAt: updatedAt(),
});
