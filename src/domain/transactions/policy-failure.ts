import type { Executor } from '../../db/database.js';
import type { TransactionRow } from '../../db/repositories/transactions.js';
import { moveTransaction } from '../../db/repositories/transaction-writes.js';
import { recordTransactionChange, type TransactionCause } from './record-change.js';
import type { TransactionView } from './transaction-view.js';

/** The refused approval of a prepared transaction: kept on it, so the same request again is answered as a replay. */
export interface RefusedRequest {
  requestHash: string;
  signedBody: unknown;
}

/**
 * A transaction waiting in `created` that a spending policy refused (docs/policies.md#enforcement): created -> failed
 * (policy_denied), with its events; `request`: the approval it refused, recorded as the one that ended it. Its view,
 * or undefined when it moved meanwhile.
 */
export async function failCreated(tx: Executor, row: Pick<TransactionRow, 'id'>, cause: TransactionCause, at: Date, request?: RefusedRequest): Promise<TransactionView | undefined> {
  const moved = await moveTransaction(tx, row.id, 'created', { status: 'failed', failureReason: 'policy_denied', updatedAt: at, ...request });
  return moved && recordTransactionChange(tx, moved, 'created', cause, at);
}
