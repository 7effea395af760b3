import type { LedgerAccountRow, LedgerEntryRow } from '../../db/repositories/ledger-reads.js';
import type { LedgerAccountKind, LedgerStatus } from '../../db/schema/index.js';
import { formatSigned } from './assets.js';

// How the ledger reads in the API (docs/ledger.md#reading-it): amounts signed, in the asset's units (decimal strings)
// and in base units, never floats.

export interface LedgerAssetView {
  /** CAIP-19: `eip155:8453/slip44:60`, `eip155:8453/erc20:0x…`, `iso4217:USD`. */
  code: string;
  symbol: string;
  decimals: number;
  chainId: number | null;
  /** ERC-20 tokens' contract (lower case); null otherwise. */
  tokenAddress: string | null;
}

/** Balances in the asset's units and in base units. */
export interface LedgerBalancesView {
  posted: string;
  pending: string;
  available: string;
  postedRaw: string;
  pendingRaw: string;
  availableRaw: string;
}

export interface LedgerEntryView {
  ledgerEntryId: string;
  ledgerTransactionId: string;
  ledgerAccountId: string;
  asset: LedgerAssetView;
  /** Signed: positive adds to the account. */
  amount: string;
  amountRaw: string;
  status: LedgerStatus;
  /** The account's balances right after this entry was written; absent for a service account's (a sum of balance slots). */
  balanceAfter?: LedgerBalancesView;
  /** What caused it: a transaction (its transactionId), a withdrawal's payout (the withdrawal's, and the payout's reference). */
  cause: { type: 'transaction' | 'payout' | 'opening' | 'adjustment'; transactionId: string | null; payoutReference: string | null };
  description: string;
  createdAt: string;
  postedAt: string | null;
  archivedAt: string | null;
}

export interface LedgerAccountView {
  ledgerAccountId: string;
  code: string;
  kind: LedgerAccountKind;
  asset: LedgerAssetView;
  integratorId: string | null;
  accountId: string | null;
  balances: LedgerBalancesView;
  version: number;
  updatedAt: string;
}

export function assetView(r: { asset: string; symbol: string; decimals: number; chainId: number | null; address: string | null }): LedgerAssetView {
  return { code: r.asset, symbol: r.symbol, decimals: Number(r.decimals), chainId: r.chainId, tokenAddress: r.address };
}

export function balancesView(b: { posted: string; pending: string; available: string }, decimals: number): LedgerBalancesView {
  const f = (raw: string) => formatSigned(BigInt(raw), decimals);
  return { posted: f(b.posted), pending: f(b.pending), available: f(b.available), postedRaw: BigInt(b.posted).toString(), pendingRaw: BigInt(b.pending).toString(), availableRaw: BigInt(b.available).toString() };
}

export function entryView(r: LedgerEntryRow): LedgerEntryView {
  const decimals = Number(r.decimals);
  return {
    ledgerEntryId: r.id,
    ledgerTransactionId: r.ledgerTransactionId,
    ledgerAccountId: r.ledgerAccountId,
    asset: assetView(r),
    amount: formatSigned(BigInt(r.amount), decimals),
    amountRaw: BigInt(r.amount).toString(),
    status: r.status,
    ...(r.postedAfter !== null && r.pendingAfter !== null && r.availableAfter !== null
      ? { balanceAfter: balancesView({ posted: r.postedAfter, pending: r.pendingAfter, available: r.availableAfter }, decimals) }
      : {}),
    cause: { type: r.causeType, transactionId: r.transactionId, payoutReference: r.payoutReference },
    description: r.description,
    createdAt: r.createdAt.toISOString(),
    postedAt: r.postedAt?.toISOString() ?? null,
    archivedAt: r.archivedAt?.toISOString() ?? null,
  };
}

export function accountView(r: LedgerAccountRow, balances: { posted: string; pending: string; available: string } = r): LedgerAccountView {
  return {
    ledgerAccountId: r.id,
    code: r.code,
    kind: r.kind,
    asset: assetView(r),
    integratorId: r.integratorId,
    accountId: r.accountId,
    balances: balancesView(balances, Number(r.decimals)),
    version: r.version,
    updatedAt: r.updatedAt.toISOString(),
  };
}
