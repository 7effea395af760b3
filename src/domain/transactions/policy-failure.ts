import type { Executor } from '../../db/database.js';
import type { TransactionRow } from '../../db/repositories/transactions.js';
import { moveTransaction } from '../../db/repositories/transaction-writes.js';
import { recordTransactionChange, type TransactionCause } from './record-change.js';
import type { TransactionView } from './transaction-view.js';

/**
 * A transaction waiting in `created` that a spending policy refused (docs/policies.md#enforcement): created -> failed
 * (policy_denied), with its events. Its view, or undefined when it moved meanwhile.
 */
export async function failCreated(tx: Executor, row: Pick<TransactionRow, 'id'>, cause: TransactionCause, at: Date): Promise<TransactionView | undefined> {
  const moved = await moveTransaction(tx, row.id, 'created', { status: 'failed', failureReason: 'policy_denied', updatedAt: at });
  return moved && recordTransactionChange(tx, moved, 'created', cause, at);
}
