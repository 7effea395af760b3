import type { ReceiptView } from '../../chain/receipts.js';
import type { BankDetails } from '../deposits/deposit-config.js';
import type { TransactionRow } from '../../db/repositories/transactions.js';
import type { TransactionKind, TransactionStatus } from '../../db/schema/index.js';
import type { ApprovalsView } from './approvals-view.js';
import { cryptoAmountOf, type CryptoAmountView } from '../tokens/transaction-asset.js';
import type { TokenTransferView } from '../tokens/token-transfer.js';
import type { IncomingView } from '../incoming/incoming-view.js';

/**
 * The spec's transaction (response of passkey submission) plus our documented extensions: accountId,
 * chainId, transactionHash, failureReason, createdAt, updatedAt (docs/transactions.md). `broadcastedAt` is
 * null and `transactionReceipt` absent until the transaction is completed, as the spec states.
 */
/**
 * Why a transaction failed: reverted on chain, no longer known to the node, a deposit cancelled by an operator, a
 * withdrawal approved too late or whose fiat payout the bank returned, an entity's proposal rejected by a member or
 * left unapproved for 24 hours.
 */
export type FailureReason = 'reverted' | 'dropped' | 'cancelled' | 'quote_expired' | 'bank_account_unavailable' | 'payout_returned' | 'rejected' | 'expired' | 'refused' | 'reorged' | 'policy_denied';

/** The spec's fiatDepositInstructions: the deployment's bank details for the currency, plus our `reference` (docs/deposits.md). */
export type FiatDepositInstructions = BankDetails & { currency: string; reference: string };

/** Extension: what a deposit expects and what arrived, and the crypto it pays (docs/tokens.md#deposits-and-withdrawals). */
export interface DepositView extends CryptoAmountView {
  /** Token deposits: whole units of the token per unit of the currency, as quoted at creation. */
  rate?: string;
  amount: string;
  currency: string;
  reference: string;
  receivedAmount: string | null;
  /** The bank transfer must arrive before this (null: made before deposits expired). */
  expiresAt: string | null;
  /** Why the last payout attempt failed, while it is retried (funds_in_transfer). */
  payoutError?: string;
}

/** Extension: a withdrawal's quote as issued (docs/withdrawals.md); the crypto it takes (asset, cryptoAmount...). */
export interface WithdrawalView extends CryptoAmountView {
  /** Fiat paid to the bank account, decimal. */
  amount: string;
  currency: 'USD' | 'EUR';
  /** The service's fee in the same currency, on top of the amount. */
  fee: string;
  /** Native-coin withdrawals: wei taken from the wallet, (amount + fee) at the configured rate. */
  cryptoAmountWei?: string;
  /** Token withdrawals: whole units of the token per unit of the currency, the rate applied to amount + fee (absent on quotes made before it was shown). */
  rate?: string;
  bankAccountId: string;
  last4: string;
  quoteExpiresAt: string;
}

/** What is stored with a withdrawal: its view plus the unsigned transfer the end user approves (the crypto fields since tokens). */
export type StoredWithdrawal = Omit<WithdrawalView, keyof CryptoAmountView> & Partial<CryptoAmountView> & { unsignedTransaction: string };

/** The calls a vault transaction makes: the asset's ERC-20 approve, or the vault's ERC-4626 deposit, withdraw, redeem. */
export type VaultCall = 'approve' | 'deposit' | 'withdraw' | 'redeem';

/** Extension: a vault call as prepared (docs/products.md#vaults). Amounts are decimal strings in whole units. */
export interface VaultCallView {
  vaultId: string;
  call: VaultCall;
  /** Its place among the transactions prepared together (1-based), and how many there are: approve them in order. */
  step: number;
  steps: number;
  /** Assets in the asset's units: deposited (approve, deposit), withdrawn (withdraw), or previewed (redeem). */
  assets: string;
  /** Shares in the vault's units: previewed (deposit, withdraw) or redeemed (redeem); null for approve. */
  shares: string | null;
  /** Once completed: what the vault's Deposit or Withdraw event recorded. */
  settled?: { assets: string; shares: string };
  /** Approved after this, it fails as quote_expired (its fees and nonce would be stale). */
  expiresAt: string;
}

/** What is stored with a vault call: its view plus the unsigned transaction the end user approves and the decimals. */
export interface StoredVaultCall extends VaultCallView {
  unsignedTransaction: string;
  assetDecimals: number;
  shareDecimals: number;
  /** The contracts and symbols the ledger posts in (docs/ledger.md); absent on calls prepared before the ledger. */
  ledger?: { vaultAddress: string; assetAddress: string; assetSymbol: string; shareSymbol: string };
}

export interface TransactionView {
  transactionId: string;
  status: TransactionStatus;
  broadcastedAt: string | null;
  transactionReceipt?: ReceiptView;
  fiatDepositInstructions?: FiatDepositInstructions;
  kind: TransactionKind;
  deposit?: DepositView;
  withdrawal?: WithdrawalView;
  vault?: VaultCallView;
  /**
   * Withdrawals: the EIP-1559 transfer (serialised hex) from the account's wallet to the treasury to approve; vault
   * transactions: the call to approve.
   */
  unsignedTransaction?: string;
  /** Refunds: the withdrawal whose crypto is paid back. */
  refund?: { withdrawalTransactionId: string } & CryptoAmountView;
  /** Transfers of a listed token: the ERC-20 transfer decoded at submission (docs/tokens.md#transfers). */
  transfer?: TokenTransferView;
  /** Incoming transfers: what arrived, from whom (docs/incoming.md). */
  incoming?: IncomingView;
  /** Incoming transfers: the block the transfer is in (it may move in a reorg until confirmed). */
  blockNumber?: number;
  accountId: string;
  chainId: number;
  transactionHash: string | null;
  failureReason?: FailureReason;
  /** Entity wallets: the quorum so far (docs/members.md#quorum). */
  approvals?: ApprovalsView;
  createdAt: string;
  updatedAt: string;
}

/** The view of a row; `approvals` for a transaction of an entity's members (approvalsOf). */
export function toTransactionView(row: TransactionRow, approvals?: ApprovalsView): TransactionView {
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
    view.deposit = {
      amount: row.depositAmount ?? '',
      currency: row.depositCurrency ?? '',
      reference: row.depositReference ?? '',
      receivedAmount: row.receivedAmount,
      expiresAt: row.expiresAt?.toISOString() ?? null,
      ...cryptoAmountOf(row),
      ...(row.depositRate ? { rate: row.depositRate } : {}),
    };
    if (row.payoutError && row.status === 'funds_in_transfer') view.deposit.payoutError = row.payoutError;
  }
  if (row.kind === 'withdrawal' && row.withdrawal) {
    const { unsignedTransaction, ...withdrawal } = row.withdrawal as StoredWithdrawal;
    view.withdrawal = { ...withdrawal, ...cryptoAmountOf(row) };
    view.unsignedTransaction = unsignedTransaction;
  }
  if ((row.kind === 'vault_deposit' || row.kind === 'vault_withdrawal') && row.vault) {
    const { unsignedTransaction, assetDecimals: _a, shareDecimals: _s, ledger: _l, ...vault } = row.vault as StoredVaultCall;
    view.vault = vault;
    view.unsignedTransaction = unsignedTransaction;
  }
  if (row.kind === 'refund' && row.refundOf) view.refund = { withdrawalTransactionId: row.refundOf, ...cryptoAmountOf(row) };
  if (row.tokenTransfer) view.transfer = row.tokenTransfer as TokenTransferView;
  if (row.kind === 'incoming' && row.incoming) {
    view.incoming = row.incoming as IncomingView;
    if (row.blockNumber !== null) view.blockNumber = row.blockNumber;
  }
  if (approvals) view.approvals = approvals;
  return view;
}
