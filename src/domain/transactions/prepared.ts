import type { Database, Executor } from '../../db/database.js';
import { type TransactionRow } from '../../db/repositories/transactions.js';
import { moveTransaction } from '../../db/repositories/transaction-writes.js';
import type { TransactionKind } from '../../db/schema/index.js';
import { ApiError } from '../errors.js';
import type { ProductId } from '../products/catalogue.js';
import { BANK_ACCOUNT_UNAVAILABLE, unpayableProblemOf } from '../withdrawals/withdrawal-payee.js';
import { recordTransactionChange, type TransactionCause } from './record-change.js';
import type { StoredVaultCall, StoredWithdrawal, TransactionView } from './transaction-view.js';

/**
 * Transactions this service prepares for the end user to approve under their own transactionId (withdrawals, vault
 * calls): each carries the exact unsigned transaction to approve and an expiry (docs/transactions.md).
 */
export const PREPARED_KINDS: readonly TransactionKind[] = ['withdrawal', 'vault_deposit', 'vault_withdrawal'];

/** A prepared transaction still waiting for its approval. */
export function isPrepared(row: TransactionRow): boolean {
  return PREPARED_KINDS.includes(row.kind) && row.status === 'created';
}

/** The unsigned transaction (serialised hex) the approval must be for. */
export function preparedUnsignedTransaction(row: TransactionRow): string {
  const stored = (row.kind === 'withdrawal' ? row.withdrawal : row.vault) as StoredWithdrawal | StoredVaultCall | null;
  return stored?.unsignedTransaction ?? '';
}

export function preparationExpired(row: TransactionRow, now: Date): boolean {
  return row.expiresAt !== null && now.getTime() >= row.expiresAt.getTime();
}

/** The product an operation of this kind belongs to (its gate: docs/products.md). */
export function productOfKind(kind: TransactionKind): ProductId {
  if (kind === 'withdrawal') return 'fiat_withdrawals';
  if (kind === 'vault_deposit' || kind === 'vault_withdrawal') return 'yield_vaults';
  return 'custodial_wallet';
}

export function preparationExpiredProblem(row: TransactionRow): ApiError {
  return row.kind === 'withdrawal'
    ? new ApiError('quote_expired', 'The withdrawal’s quote expired before this approval; nothing was signed. Create a new withdrawal')
    : new ApiError('quote_expired', 'The prepared vault transaction expired before this approval (its fees and nonce are stale); nothing was signed. Prepare it again');
}

/**
 * The problem an approval of a prepared transaction gets once it failed before any approval moved it: expired (by the
 * watcher, or an earlier approval that came too late) is quote_expired, its bank account gone is that bank account's
 * problem (withdrawal-payee.ts), as the approval that failed it was answered; not transaction_id_reused, which is for
 * an id used by another request. Undefined for anything else.
 */
export async function endedPreparationProblem(db: Executor, row: TransactionRow): Promise<ApiError | undefined> {
  if (!PREPARED_KINDS.includes(row.kind) || row.status !== 'failed') return undefined;
  if (row.failureReason === 'quote_expired') return preparationExpiredProblem(row);
  if (row.failureReason === BANK_ACCOUNT_UNAVAILABLE) return unpayableProblemOf(db, row);
  return undefined;
}

/** created -> failed (quote_expired) with its events; undefined when it was approved or expired meanwhile. */
export async function expirePreparation(db: Executor, row: TransactionRow, cause: TransactionCause, at: Date): Promise<TransactionView | undefined> {
  const moved = await moveTransaction(db, row.id, 'created', { status: 'failed', failureReason: 'quote_expired', updatedAt: at });
  const detail = row.kind === 'withdrawal' ? 'the quote expired before the approval' : 'the prepared transaction expired before the approval';
  return moved ? recordTransactionChange(db, moved, 'created', { ...cause, detail }, at) : undefined;
}

/** Expires in its own transaction (the approval path answers 409 after it). */
export function expirePreparationNow(database: Database, row: TransactionRow, cause: TransactionCause, at: Date): Promise<TransactionView | undefined> {
  return database.db.transaction((tx) => expirePreparation(tx, row, cause, at));
}
