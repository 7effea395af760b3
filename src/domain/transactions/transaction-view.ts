import type { ReceiptView } from '../../chain/chain-client.js';
import type { BankDetails } from '../deposits/deposit-config.js';
import type { TransactionRow } from '../../db/repositories/transactions.js';
import type { TransactionStatus } from '../../db/schema/index.js';

/**
 * The spec's transaction (response of passkey submission) plus our documented extensions: accountId,
 * chainId, transactionHash, failureReason, createdAt, updatedAt (docs/transactions.md). `broadcastedAt` is
 * null and `transactionReceipt` absent until the transaction is completed, as the spec states.
 */
/** Why a transaction failed: reverted on chain, no longer known to the node, or a deposit cancelled by an operator. */
export type FailureReason = 'reverted' | 'dropped' | 'cancelled';

/** The spec's fiatDepositInstructions: the deployment's bank details for the currency, plus our `reference` (docs/deposits.md). */
export type FiatDepositInstructions = BankDetails & { currency: string; reference: string };

/** Extension: what a deposit expects and what arrived. */
export interface DepositView {
  amount: string;
  currency: string;
  reference: string;
  receivedAmount: string | null;
  /** Why the last payout attempt failed, while it is retried (funds_in_transfer). */
  payoutError?: string;
}

export interface TransactionView {
  transactionId: string;
  status: TransactionStatus;
  broadcastedAt: string | null;
  transactionReceipt?: ReceiptView;
  fiatDepositInstructions?: FiatDepositInstructions;
  kind: 'transfer' | 'deposit';
  deposit?: DepositView;
  accountId: string;
  chainId: number;
  transactionHash: string | null;
  failureReason?: FailureReason;
  createdAt: string;
  updatedAt: string;
}

export function toTransactionView(row: TransactionRow): TransactionView {
  const completed = row.status === 'completed';
  const view: TransactionView = {
    transactionId: row.transactionId,
    status: row.status,
    broadcastedAt: completed && row.broadcastedAt ? row.broadcastedAt.toISOString() : null,
    kind: row.kind,
    accountId: row.accountId,
    chainId: row.chainId,
    transactionHash: row.transactionHash,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
  if (completed && row.receipt) view.transactionReceipt = row.receipt as ReceiptView;
  if (row.failureReason) view.failureReason = row.failureReason as FailureReason;
  if (row.kind === 'deposit') {
    if (row.fiatDepositInstructions) view.fiatDepositInstructions = row.fiatDepositInstructions as FiatDepositInstructions;
    view.deposit = { amount: row.depositAmount ?? '', currency: row.depositCurrency ?? '', reference: row.depositReference ?? '', receivedAmount: row.receivedAmount };
    if (row.payoutError && row.status === 'funds_in_transfer') view.deposit.payoutError = row.payoutError;
  }
  return view;
}
