import type { ReceiptView } from '../../chain/chain-client.js';
import type { TransactionRow } from '../../db/repositories/transactions.js';
import type { TransactionStatus } from '../../db/schema/index.js';

/**
 * The spec's transaction (response of passkey submission) plus our documented extensions: accountId,
 * chainId, transactionHash, failureReason, createdAt, updatedAt (docs/transactions.md). `broadcastedAt` is
 * null and `transactionReceipt` absent until the transaction is completed, as the spec states.
 */
/** Why a broadcast transaction failed: reverted on chain, or no longer known to the node. */
export type FailureReason = 'reverted' | 'dropped';

export interface TransactionView {
  transactionId: string;
  status: TransactionStatus;
  broadcastedAt: string | null;
  transactionReceipt?: ReceiptView;
  accountId: string;
  chainId: number;
  transactionHash: string | null;
  failureReason?: FailureReason;
  createdAt: string;
  updatedAt: string;
}

export function transactionView(row: TransactionRow): TransactionView {
  const completed = row.status === 'completed';
  const view: TransactionView = {
    transactionId: row.transactionId,
    status: row.status,
    broadcastedAt: completed && row.broadcastedAt ? row.broadcastedAt.toISOString() : null,
    accountId: row.accountId,
    chainId: row.chainId,
    transactionHash: row.transactionHash,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
  if (completed && row.receipt) view.transactionReceipt = row.receipt as ReceiptView;
  if (row.failureReason) view.failureReason = row.failureReason as FailureReason;
  return view;
}
