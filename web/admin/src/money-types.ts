// The /admin/api shapes of deposits and the treasury (docs/deposits.md, docs/tokens.md#the-treasury-for-operators),
// kept apart from types.ts so that each stays short. Written out, not imported from src/: the console is built
// separately from the server.

import type { Transaction, TransactionStatus } from './types';

/** What a deposit moves on chain: the asset and the amount in its units (and in base units, never shown). */
export interface DepositDetails {
  amount: string;
  currency: string;
  reference: string;
  receivedAmount: string | null;
  expiresAt: string | null;
  /** Why the last payout attempt failed, while it is retried (e.g. the treasury lacks the token). */
  payoutError?: string;
  asset: string;
  cryptoAmount: string;
  cryptoAmountRaw: string;
  rate?: string;
}

export interface DepositHistoryEntry {
  fromStatus: TransactionStatus | null;
  toStatus: TransactionStatus;
  actorType: 'integrator' | 'operator' | 'system' | 'sandbox';
  actorId: string | null;
  detail: string | null;
  at: string;
}

/** GET /admin/api/deposits/{reference}: the integrators' transaction view, its integrator and its audit trail. */
export interface DepositAudit extends Omit<Transaction, 'kind'> {
  kind: 'deposit';
  deposit: DepositDetails;
  integratorId: string;
  history: DepositHistoryEntry[];
}

/** The statuses a deposit goes through (docs/deposits.md), which the list filters on. */
export const DEPOSIT_STATUSES = ['waiting_for_funds', 'funds_in_transfer', 'processing', 'completed', 'failed'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

/** A row of GET /admin/api/deposits: the deposit as its page shows it, less the history, with the integrator's name. */
export interface DepositListItem extends Omit<DepositAudit, 'history'> {
  integratorName: string;
}

/** A page of the list, newest first; `nextCursor` is the next page's startingAfter. */
export interface DepositPage {
  data: DepositListItem[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** The treasury's holding of one asset on one chain; `amount` absent (and `error` set) when the chain did not answer. */
export interface TreasuryBalance {
  chainId: number;
  symbol: string;
  tokenAddress: string | null;
  decimals: number;
  amount?: string;
  amountRaw?: string;
  error?: string;
}

/** A deposit's or refund's payout whose last attempt failed and that waits, with why. */
export interface WaitingPayout {
  transactionId: string;
  kind: 'deposit' | 'refund';
  chainId: number;
  reference: string | null;
  asset: string;
  cryptoAmount: string;
  cryptoAmountRaw: string;
  payoutError: string;
  attempts: number;
  since: string;
}

export interface Treasury {
  address: string | null;
  chainIds: number[];
  balances: TreasuryBalance[];
  waitingPayouts: WaitingPayout[];
}
