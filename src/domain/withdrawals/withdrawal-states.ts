import type { Database, Executor } from '../../db/database.js';
import { moveTransaction, type TransactionRow } from '../../db/repositories/transactions.js';
import { recordTransactionChange, type TransactionCause } from '../transactions/record-change.js';
import type { StoredWithdrawal, TransactionView } from '../transactions/transaction-view.js';

/** A withdrawal still waiting for the end user's approval. */
export function isPendingWithdrawal(row: TransactionRow): boolean {
  return row.kind === 'withdrawal' && row.status === 'created';
}

export function quoteExpired(row: TransactionRow, now: Date): boolean {
  const withdrawal = row.withdrawal as StoredWithdrawal | null;
  return withdrawal !== null && now.getTime() >= Date.parse(withdrawal.quoteExpiresAt);
}

/** created -> failed (quote_expired) with its events; undefined when it was approved or expired meanwhile. */
export async function expireQuote(db: Executor, row: TransactionRow, cause: TransactionCause, at: Date): Promise<TransactionView | undefined> {
  const moved = await moveTransaction(db, row.id, 'created', { status: 'failed', failureReason: 'quote_expired', updatedAt: at });
  return moved ? recordTransactionChange(db, moved, 'created', { ...cause, detail: 'the quote expired before the approval' }, at) : undefined;
}

/** Expires in its own transaction (the approval path answers 409 after it). */
export function expireQuoteNow(database: Database, row: TransactionRow, cause: TransactionCause, at: Date): Promise<TransactionView | undefined> {
  return database.db.transaction((tx) => expireQuote(tx, row, cause, at));
}
