import type { Executor, Tx } from '../../db/database.js';
import { findBankAccount, findBankAccountShared, type BankAccountRow } from '../../db/repositories/bank-accounts.js';
import { type TransactionRow } from '../../db/repositories/transactions.js';
import { moveTransaction } from '../../db/repositories/transaction-writes.js';
import { ApiError } from '../errors.js';
import { recordTransactionChange, type TransactionCause } from '../transactions/record-change.js';
import type { FailureReason, StoredWithdrawal } from '../transactions/transaction-view.js';

/** A withdrawal whose bank account could no longer be paid when it was approved fails with this failureReason. */
export const BANK_ACCOUNT_UNAVAILABLE = 'bank_account_unavailable' satisfies FailureReason;

/** What an approval of a withdrawal to this bank account (not verified, or gone) is answered. */
export function unpayableProblem(bank: Pick<BankAccountRow, 'status'> | undefined): ApiError {
  if (!bank || bank.status === 'removed') {
    return new ApiError('bank_account_removed', 'The withdrawal’s bank account was removed after its quote: nothing was signed, and the withdrawal failed (bank_account_unavailable). Quote a new withdrawal to another bank account');
  }
  return new ApiError('bank_account_not_verified', `The withdrawal’s bank account is ${bank.status}, not verified: nothing was signed, and the withdrawal failed (bank_account_unavailable)`);
}

/**
 * Every approval of a withdrawal (an individual's passkey or OTP, a member's proposal, a member's approve-transaction)
 * checks, in the database transaction that would move it out of `created` and sign it, that the bank account its
 * quote named is still `verified`; the bank account's row stays share-locked until that transaction commits, so a
 * removal or a review racing the approval either committed first and is seen here, or waits until the withdrawal is
 * signed (after which removing it changes nothing about the payout: docs/withdrawals.md#the-fiat-payout).
 *
 * When it is not, the withdrawal fails (bank_account_unavailable) with its events in that transaction, and the
 * problem to answer is returned: the caller commits, then throws it. Undefined when it may be paid, for any other kind,
 * and when the row left `created` meanwhile (the caller's own guarded move then answers).
 */
export async function refuseUnpayable(tx: Tx, row: TransactionRow, cause: TransactionCause, at: Date): Promise<ApiError | undefined> {
  if (row.kind !== 'withdrawal') return undefined;
  const stored = row.withdrawal as StoredWithdrawal;
  const bank = await findBankAccountShared(tx, row.integratorId, stored.bankAccountId);
  if (bank?.status === 'verified') return undefined;
  const moved = await moveTransaction(tx, row.id, 'created', { status: 'failed', failureReason: BANK_ACCOUNT_UNAVAILABLE, updatedAt: at });
  if (!moved) return undefined;
  await recordTransactionChange(tx, moved, 'created', { ...cause, detail: `the bank account ****${stored.last4} is ${bank?.status ?? 'gone'}: not paid` }, at);
  return unpayableProblem(bank);
}

/** The problem for a later approval of a withdrawal that failed as bank_account_unavailable (its bank account as it is now). */
export async function unpayableProblemOf(db: Executor, row: TransactionRow): Promise<ApiError> {
  return unpayableProblem(await findBankAccount(db, row.integratorId, (row.withdrawal as StoredWithdrawal).bankAccountId));
}
