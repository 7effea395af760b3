// The /admin/api shapes of the ledger (docs/ledger.md#reading-it), kept apart from types.ts and money-types.ts so that
// each stays short. Written out, not imported from src/: the console is built separately from the server. Every
// amount is a decimal string in the asset's units (signed where it can be negative), shown as it comes, never
// through a float; the `…Raw` base units are never shown.

export const LEDGER_ACCOUNT_KINDS = ['customer', 'treasury', 'fiat_clearing', 'exchange', 'fees_earned', 'payouts_in_transit', 'network_fees', 'external', 'opening_balances', 'adjustments'] as const;
export type LedgerAccountKind = (typeof LEDGER_ACCOUNT_KINDS)[number];

export const LEDGER_STATUSES = ['pending', 'posted', 'archived'] as const;
export type LedgerStatus = (typeof LEDGER_STATUSES)[number];

/** CAIP-19 `code`; `chainId` and `tokenAddress` null for fiat (and `tokenAddress` for a chain's coin). */
export interface LedgerAsset {
  code: string;
  symbol: string;
  decimals: number;
  chainId: number | null;
  tokenAddress: string | null;
}

export interface LedgerBalances {
  posted: string;
  pending: string;
  available: string;
  postedRaw: string;
  pendingRaw: string;
  availableRaw: string;
}

export interface LedgerAccount {
  ledgerAccountId: string;
  /** `<kind>:<asset>`, or `customer:<accountId>:<asset>`. */
  code: string;
  kind: LedgerAccountKind;
  asset: LedgerAsset;
  integratorId: string | null;
  accountId: string | null;
  balances: LedgerBalances;
  version: number;
  updatedAt: string;
}

/** GET /admin/api/ledger/accounts/{id}: `asOf` is the time asked for (null: the balances now). */
export interface LedgerAccountAsOf extends LedgerAccount {
  asOf: string | null;
}

export interface LedgerAccountPage {
  data: LedgerAccount[];
  hasMore: boolean;
  nextCursor: string | null;
}

export type LedgerCauseType = 'transaction' | 'payout' | 'opening' | 'adjustment';

/** What caused an entry: a transaction of an account (its id), a withdrawal's payout (its withdrawal and reference). */
export interface LedgerCause {
  type: LedgerCauseType;
  transactionId: string | null;
  payoutReference: string | null;
}

export interface LedgerEntry {
  ledgerEntryId: string;
  ledgerTransactionId: string;
  ledgerAccountId: string;
  asset: LedgerAsset;
  /** Signed: positive adds to the account. */
  amount: string;
  amountRaw: string;
  status: LedgerStatus;
  /** The account's balances right after this entry was written; absent on a service account's (a sum of balance slots). */
  balanceAfter?: LedgerBalances;
  cause: LedgerCause;
  description: string;
  createdAt: string;
  postedAt: string | null;
  archivedAt: string | null;
}

/** One page of an account's entries, newest first: the next page starts after the last entry's id (no cursor given). */
export interface LedgerEntryPage {
  data: LedgerEntry[];
  hasMore: boolean;
}

export interface LedgerLeg extends LedgerEntry {
  accountCode: string;
  accountKind: LedgerAccountKind;
}

export interface LedgerTransaction {
  ledgerTransactionId: string;
  status: LedgerStatus;
  cause: LedgerCause;
  description: string;
  createdAt: string;
  postedAt: string | null;
  archivedAt: string | null;
  /** Every leg; per asset they sum to zero. */
  entries: LedgerLeg[];
}

export interface TrialBalanceLine {
  kind: LedgerAccountKind;
  accounts: number;
  posted: string;
  pending: string;
}

export interface TrialBalanceAsset {
  /** The asset's CAIP-19 code (its chain is in it: no chainId here). */
  asset: string;
  symbol: string;
  decimals: number;
  /** Every account of the asset summed: zero when it balances. */
  posted: string;
  pending: string;
  balanced: boolean;
  byKind: TrialBalanceLine[];
}

export interface TrialBalance {
  balanced: boolean;
  assets: TrialBalanceAsset[];
}
