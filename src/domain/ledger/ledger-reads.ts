import type { Executor } from '../../db/database.js';
import { findAccount } from '../../db/repositories/accounts.js';
import * as reads from '../../db/repositories/ledger-reads.js';
import type { LedgerAccountKind, LedgerStatus } from '../../db/schema/index.js';
import { notFound } from '../errors.js';
import { formatSigned, nativeAsset, tokenAsset } from './assets.js';
import { accountView, entryView, type LedgerAccountView, type LedgerEntryView } from './ledger-view.js';

export interface LedgerEntryPage {
  data: LedgerEntryView[];
  hasMore: boolean;
}

/**
 * listLedgerEntries: an account's entries in every asset, newest first; `startingAfter` is the last ledgerEntryId of
 * the previous page. Another integrator's account is a 404, as a missing one.
 */
export async function listAccountLedgerEntries(db: Executor, integratorId: string, options: { accountId: string; limit: number; startingAfter?: string; asset?: string; status?: LedgerStatus }): Promise<LedgerEntryPage> {
  if (!(await findAccount(db, integratorId, options.accountId))) throw notFound('Account');
  const accounts = (await reads.customerLedgerAccounts(db, integratorId, options.accountId)).filter((a) => !options.asset || a.asset === options.asset);
  const ids = accounts.map((a) => a.id);
  if (options.startingAfter) {
    const cursor = await reads.findLedgerEntry(db, options.startingAfter);
    if (!cursor || !ids.includes(cursor.ledgerAccountId)) throw notFound('Ledger entry startingAfter');
  }
  const rows = await reads.listLedgerEntries(db, { ledgerAccountIds: ids, limit: options.limit, ...(options.status ? { status: options.status } : {}), ...(options.startingAfter ? { before: options.startingAfter } : {}) });
  return { data: rows.slice(0, options.limit).map(entryView), hasMore: rows.length > options.limit };
}

/** What get-account-balances shows beside the chain's figure: the ledger's posted, pending and available, by asset code. */
export async function customerLedgerBalances(db: Executor, integratorId: string, accountId: string): Promise<Map<string, LedgerAccountView>> {
  const accounts = await reads.customerLedgerAccounts(db, integratorId, accountId);
  return new Map(accounts.map((a) => [a.asset, accountView(a)]));
}

/** Operators: ledger accounts a page at a time (id order). */
export async function listLedgerAccounts(db: Executor, filter: { kind?: LedgerAccountKind; asset?: string; accountId?: string; after?: string; limit: number }): Promise<{ data: LedgerAccountView[]; hasMore: boolean }> {
  const rows = await reads.listLedgerAccounts(db, filter);
  return { data: rows.slice(0, filter.limit).map((r) => accountView(r)), hasMore: rows.length > filter.limit };
}

/** Operators: one account, its balances now or as of a past time (the last version at or before it). */
export async function getLedgerAccount(db: Executor, id: string, asOf?: Date): Promise<LedgerAccountView & { asOf: string | null }> {
  const row = await reads.findLedgerAccount(db, id);
  if (!row) throw notFound('Ledger account');
  if (!asOf) return { ...accountView(row), asOf: null };
  const then = (await reads.balanceAsOf(db, id, asOf)) ?? { posted: '0', pending: '0', available: '0', version: 0 };
  return { ...accountView(row, then), version: then.version, asOf: asOf.toISOString() };
}

/** Operators: an account's entries, newest first. */
export async function listLedgerAccountEntries(db: Executor, id: string, options: { limit: number; before?: string; status?: LedgerStatus }): Promise<LedgerEntryPage> {
  if (!(await reads.findLedgerAccount(db, id))) throw notFound('Ledger account');
  const rows = await reads.listLedgerEntries(db, { ledgerAccountIds: [id], limit: options.limit, ...(options.status ? { status: options.status } : {}), ...(options.before ? { before: options.before } : {}) });
  return { data: rows.slice(0, options.limit).map(entryView), hasMore: rows.length > options.limit };
}

export interface LedgerTransactionView {
  ledgerTransactionId: string;
  status: LedgerStatus;
  cause: LedgerEntryView['cause'];
  description: string;
  createdAt: string;
  postedAt: string | null;
  archivedAt: string | null;
  /** Every leg, with its account's code and kind. */
  entries: (LedgerEntryView & { accountCode: string; accountKind: LedgerAccountKind })[];
}

/** Operators: a ledger transaction with all its legs. */
export async function getLedgerTransaction(db: Executor, id: string): Promise<LedgerTransactionView> {
  const rows = await reads.ledgerTransactionEntries(db, id);
  const first = rows[0];
  if (!first) throw notFound('Ledger transaction');
  const view = entryView(first);
  return {
    ledgerTransactionId: id,
    status: first.status,
    cause: view.cause,
    description: first.description,
    createdAt: view.createdAt,
    postedAt: view.postedAt,
    archivedAt: view.archivedAt,
    entries: rows.map((r) => ({ ...entryView(r), accountCode: r.accountCode, accountKind: r.accountKind })),
  };
}

/** Operators: the ledger transactions a transaction or payout (its row id) caused. */
export async function ledgerTransactionsOf(db: Executor, causeId: string): Promise<LedgerTransactionView[]> {
  const ids = await reads.ledgerTransactionIdsOf(db, causeId);
  return Promise.all(ids.map((id) => getLedgerTransaction(db, id)));
}

export interface TrialBalanceView {
  assets: {
    asset: string;
    symbol: string;
    decimals: number;
    /** Posted and pending summed over every account of the asset: zero in a balanced ledger. */
    posted: string;
    pending: string;
    balanced: boolean;
    byKind: { kind: LedgerAccountKind; accounts: number; posted: string; pending: string }[];
  }[];
  balanced: boolean;
}

/** Operators: every asset's balances summed per kind of account; each asset sums to zero. */
export async function trialBalanceView(db: Executor): Promise<TrialBalanceView> {
  const byAsset = new Map<string, TrialBalanceView['assets'][number]>();
  for (const row of await reads.trialBalance(db)) {
    const asset = byAsset.get(row.asset) ?? { asset: row.asset, symbol: row.symbol, decimals: row.decimals, posted: '0', pending: '0', balanced: true, byKind: [] };
    asset.byKind.push({ kind: row.kind, accounts: row.accounts, posted: formatSigned(BigInt(row.posted), row.decimals), pending: formatSigned(BigInt(row.pending), row.decimals) });
    asset.posted = (BigInt(asset.posted) + BigInt(row.posted)).toString();
    asset.pending = (BigInt(asset.pending) + BigInt(row.pending)).toString();
    byAsset.set(row.asset, asset);
  }
  const assets = [...byAsset.values()].map((a) => ({ ...a, balanced: a.posted === '0' && a.pending === '0', posted: formatSigned(BigInt(a.posted), a.decimals), pending: formatSigned(BigInt(a.pending), a.decimals) }));
  return { assets, balanced: assets.every((a) => a.balanced) };
}

/** get-account-balances with the ledger's figures beside each chain figure (null where nothing was posted in the asset). */
export async function withLedgerFigures<B extends { chainId: number; tokenAddress: string | null; symbol: string; decimals: number }>(
  db: Executor,
  integratorId: string,
  view: { accountId: string; balances: B[] },
): Promise<(B & { ledger: LedgerAccountView['balances'] | null })[]> {
  const ledger = await customerLedgerBalances(db, integratorId, view.accountId);
  return view.balances.map((b) => {
    const code = b.tokenAddress ? tokenAsset(b.chainId, { address: b.tokenAddress, symbol: b.symbol, decimals: b.decimals }).code : nativeAsset(b.chainId).code;
    return { ...b, ledger: ledger.get(code)?.balances ?? null };
  });
}
