import type { SecretBox } from '../../crypto/secret-box.js';
import { sealContexts } from '../../crypto/seal-contexts.js';
import type { Database, Executor, Tx } from '../../db/database.js';
import { findAnyBankAccount } from '../../db/repositories/bank-accounts.js';
import { findIntegratorName } from '../../db/repositories/integrators.js';
import { findTransaction, type TransactionRow } from '../../db/repositories/transactions.js';
import { insertTransaction, moveTransaction } from '../../db/repositories/transaction-writes.js';
import * as repo from '../../db/repositories/withdrawals.js';
import type { PayoutStatus } from '../../db/schema/index.js';
import { runMutation, type MutationContext } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { postLedger } from '../ledger/post.js';
import { payoutPostings } from '../ledger/payout-postings.js';
import { newPaymentReference } from '../references.js';
import { recordTransactionChange, type TransactionCause } from '../transactions/record-change.js';
import { toTransactionView, type StoredWithdrawal, type TransactionView } from '../transactions/transaction-view.js';

/**
 * The crypto arrived in the treasury: the fiat payout to the bank account is initiated (pending), with the bank
 * account's details as they are now. Called in the transaction that moves the withdrawal to funds_in_transfer.
 */
export async function initiatePayout(tx: Executor, row: TransactionRow, at: Date): Promise<void> {
  const withdrawal = row.withdrawal as StoredWithdrawal;
  const bank = await findAnyBankAccount(tx, withdrawal.bankAccountId);
  if (!bank) throw new Error(`withdrawal ${row.id}: bank account ${withdrawal.bankAccountId} is missing`);
  await repo.insertWithdrawalPayout(tx, {
    id: newId(),
    integratorId: row.integratorId,
    transactionRowId: row.id,
    bankAccountId: bank.id,
    reference: newPaymentReference('WDR'),
    rail: bank.rail,
    amount: withdrawal.amount,
    currency: withdrawal.currency,
    accountHolderName: bank.accountHolderName,
    last4: bank.last4,
    status: 'pending',
    createdAt: at,
    updatedAt: at,
  });
}

export type PayoutOutcome = 'sent' | 'settled' | 'returned';

const FROM: Record<PayoutOutcome, PayoutStatus[]> = { sent: ['pending'], settled: ['pending', 'sent'], returned: ['pending', 'sent'] };

/**
 * A payout's next step, in the caller's transaction (the withdrawal's payout row is locked first): sent (the bank
 * transfer left; no transaction state changes), settled (the withdrawal completes), or returned (the withdrawal
 * fails as payout_returned and a refund of its crypto is queued, paid from the treasury like a deposit).
 */
async function advancePayout(tx: Tx, row: TransactionRow, outcome: PayoutOutcome, cause: TransactionCause, at: Date): Promise<TransactionView> {
  const payout = await repo.findPayoutOfTransaction(tx, row.id, { lock: true });
  if (!payout || row.status !== 'funds_in_transfer') {
    throw new ApiError('invalid_transaction_state', `A withdrawal in ${row.status} has no payout in progress`, { extensions: { fromStatus: row.status, action: outcome } });
  }
  const moved = await repo.movePayout(tx, payout.id, FROM[outcome], {
    status: outcome,
    updatedAt: at,
    ...(outcome === 'sent' ? { sentAt: at } : outcome === 'settled' ? { settledAt: at } : { returnedAt: at, returnReason: cause.detail ?? null }),
  });
  if (!moved) throw new ApiError('invalid_transaction_state', `The payout is ${payout.status}: it cannot be marked ${outcome}`, { extensions: { fromStatus: row.status, action: outcome } });
  // The payout's postings go with the withdrawal's change: a database transaction posts once (docs/ledger.md#locking).
  const postings = payoutPostings(moved, row);
  if (outcome === 'sent') {
    await postLedger(tx, postings, at);
    return toTransactionView(row);
  }

  const to = outcome === 'settled' ? { status: 'completed' as const } : { status: 'failed' as const, failureReason: 'payout_returned' };
  const updated = await moveTransaction(tx, row.id, 'funds_in_transfer', { ...to, updatedAt: at });
  if (!updated) throw new ApiError('resource_busy', 'The withdrawal changed meanwhile; nothing was changed');
  const view = await recordTransactionChange(tx, updated, 'funds_in_transfer', { ...cause, detail: `payout ${payout.reference} ${outcome}${cause.detail ? `: ${cause.detail}` : ''}` }, at, [], { postings });
  if (outcome === 'returned') await queueRefund(tx, updated, at);
  return view;
}

/**
 * The refund of a returned withdrawal: a transaction of kind refund in funds_in_transfer, which the transaction
 * watcher pays from the treasury to the wallet exactly like a deposit's payout (signed and stored before it is
 * sent, re-sent after a crash, never paid twice). One per withdrawal (unique refund_of).
 */
async function queueRefund(tx: Executor, withdrawal: TransactionRow, at: Date): Promise<void> {
  const id = newId();
  const refund = await insertTransaction(tx, {
    id,
    integratorId: withdrawal.integratorId,
    transactionId: id,
    accountId: withdrawal.accountId,
    walletId: withdrawal.walletId,
    kind: 'refund',
    chainId: withdrawal.chainId,
    status: 'funds_in_transfer',
    requestHash: `refund:${withdrawal.id}`,
    toAddress: withdrawal.fromAddress,
    // The same crypto back: the wei, or the token's base units the withdrawal took (fee included).
    value: withdrawal.value,
    token: withdrawal.token,
    tokenAmount: withdrawal.tokenAmount,
    refundOf: withdrawal.id,
    createdAt: at,
    updatedAt: at,
  });
  if (!refund) throw new Error(`refund id collision for ${withdrawal.id}`);
  await recordTransactionChange(tx, refund, null, { actorType: 'system', actorId: 'withdrawals', detail: `refund of withdrawal ${withdrawal.transactionId}` }, at);
}

function expectWithdrawal(row: TransactionRow | undefined): TransactionRow {
  if (!row || row.kind !== 'withdrawal') throw notFound('Withdrawal');
  return row;
}

/** Sandbox: simulate-withdrawal, the integrator's own withdrawal by its transactionId. */
export function simulateWithdrawal(ctx: MutationContext, input: { transactionId: string; outcome: 'completed' | 'returned' }): Promise<TransactionView> {
  return runMutation(ctx, async (tx) => {
    const row = expectWithdrawal(await findTransaction(tx, ctx.actor.integratorId, input.transactionId));
    const cause: TransactionCause = { actorType: 'sandbox', ...(ctx.actor.publicKey ? { actorId: ctx.actor.publicKey } : {}) };
    return advancePayout(tx, row, input.outcome === 'completed' ? 'settled' : 'returned', input.outcome === 'returned' ? { ...cause, detail: 'returned in the sandbox' } : cause, ctx.now);
  });
}

/** Operators (or a bank-rail integration): a payout's next step, by its reference. */
export function advancePayoutAsOperator(db: Database, input: { reference: string; outcome: PayoutOutcome; reason?: string }, operatorId: string, at: Date): Promise<TransactionView> {
  return db.db.transaction(async (tx) => {
    const found = await repo.findPayoutByReference(tx, input.reference);
    if (!found) throw notFound('Withdrawal payout');
    return advancePayout(tx, found.transaction, input.outcome, { actorType: 'operator', actorId: operatorId, ...(input.reason ? { detail: input.reason } : {}) }, at);
  });
}

export interface PayoutView {
  reference: string;
  status: PayoutStatus;
  integratorId: string;
  integratorName: string;
  transaction: TransactionView;
  amount: string;
  currency: 'USD' | 'EUR';
  rail: 'ach' | 'sepa';
  /** What the bank transfer needs; the number is opened for operators only (never sent to integrators). */
  beneficiary: { accountHolderName: string; accountNumber: string | null; routingNumber: string | null; accountType: string | null; iban: string | null; bic: string | null };
  sentAt: string | null;
  settledAt: string | null;
  returnedAt: string | null;
  returnReason: string | null;
  createdAt: string;
}

/** Operators: a payout by reference, with the beneficiary's full details to make the transfer. */
export async function payoutByReference(db: Executor, secrets: SecretBox, reference: string): Promise<PayoutView> {
  const found = await repo.findPayoutByReference(db, reference);
  if (!found) throw notFound('Withdrawal payout');
  return toPayoutView(db, secrets, found.payout, found.transaction);
}

/** Operators: the payouts to make (pending) or to confirm (sent), oldest first, one more than `limit` asked for. */
export async function listPayouts(db: Executor, secrets: SecretBox, options: { status: ('pending' | 'sent')[]; limit: number }): Promise<{ data: PayoutView[]; hasMore: boolean }> {
  const rows = await repo.listOpenPayouts(db, options.status, options.limit + 1);
  const data: PayoutView[] = [];
  for (const row of rows.slice(0, options.limit)) data.push(await toPayoutView(db, secrets, row.payout, row.transaction));
  return { data, hasMore: rows.length > options.limit };
}

async function toPayoutView(db: Executor, secrets: SecretBox, payout: repo.WithdrawalPayoutRow, transaction: TransactionRow): Promise<PayoutView> {
  const bank = await findAnyBankAccount(db, payout.bankAccountId);
  if (!bank) throw new Error(`payout ${payout.id}: bank account missing`);
  const number = secrets.open(bank.numberSealed, sealContexts.bankAccountNumber(bank.id)).toString('utf8');
  const ach = bank.rail === 'ach';
  const at = (d: Date | null) => d?.toISOString() ?? null;
  return {
    reference: payout.reference,
    status: payout.status,
    integratorId: payout.integratorId,
    integratorName: (await findIntegratorName(db, payout.integratorId)) ?? '',
    transaction: toTransactionView(transaction),
    amount: payout.amount,
    currency: payout.currency,
    rail: payout.rail,
    beneficiary: {
      accountHolderName: payout.accountHolderName,
      accountNumber: ach ? number : null,
      routingNumber: bank.routingNumber,
      accountType: bank.accountType,
      iban: ach ? null : number,
      bic: bank.bic,
    },
    sentAt: at(payout.sentAt),
    settledAt: at(payout.settledAt),
    returnedAt: at(payout.returnedAt),
    returnReason: payout.returnReason,
    createdAt: payout.createdAt.toISOString(),
  };
}
