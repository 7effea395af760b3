import { sql, type SQL } from 'drizzle-orm';
import { selectRows, type Executor } from '../database.js';
import type { LedgerAccountKind, LedgerStatus } from '../schema/index.js';

// The ledger's reads (docs/ledger.md#reading-it): accounts with their maintained balances, balances as of a past time
// (the last version at or before it), entries newest first in keyset pages, a transaction's legs, the trial balance.

export interface LedgerAccountRow {
  id: string;
  code: string;
  kind: LedgerAccountKind;
  asset: string;
  integratorId: string | null;
  accountId: string | null;
  posted: string;
  pending: string;
  available: string;
  version: number;
  symbol: string;
  decimals: number;
  chainId: number | null;
  address: string | null;
  updatedAt: Date;
}

// A service account's balances are its own row's (what it held before balance slots) plus its slots'
// (docs/ledger.md#locking); a customer's account has no slots. Slot rows are never listed as accounts.
const ACCOUNT_COLUMNS = sql`la.id, la.code, la.kind, la.asset, la.integrator_id as "integratorId", la.account_id as "accountId",
  (la.posted_balance + coalesce(s.posted, 0))::text as posted, (la.pending_balance + coalesce(s.pending, 0))::text as pending,
  (la.available_balance + coalesce(s.available, 0))::text as available, la.version + coalesce(s.version, 0) as version,
  a.symbol, a.decimals, a.chain_id as "chainId", a.address, greatest(la.updated_at, s.updated_at) as "updatedAt"`;

const ACCOUNT_FROM = sql`ledger_accounts la join ledger_assets a on a.code = la.asset
  left join lateral (select sum(posted_balance) as posted, sum(pending_balance) as pending, sum(available_balance) as available, sum(version) as version, max(updated_at) as updated_at
    from ledger_accounts x where x.slot_of = la.id and la.kind <> 'customer') s on true`;

const toAccount = (r: LedgerAccountRow): LedgerAccountRow => ({ ...r, version: Number(r.version), chainId: r.chainId === null ? null : Number(r.chainId), updatedAt: new Date(r.updatedAt) });

/** A customer account's ledger accounts (one per asset it ever held), by asset. */
export async function customerLedgerAccounts(db: Executor, integratorId: string, accountId: string): Promise<LedgerAccountRow[]> {
  const rows = await selectRows<LedgerAccountRow>(
    db,
    sql`select ${ACCOUNT_COLUMNS} from ${ACCOUNT_FROM}
        where la.account_id = ${accountId} and la.integrator_id = ${integratorId} order by la.asset`,
  );
  return rows.map(toAccount);
}

export async function findLedgerAccount(db: Executor, id: string): Promise<LedgerAccountRow | undefined> {
  const [row] = await selectRows<LedgerAccountRow>(db, sql`select ${ACCOUNT_COLUMNS} from ${ACCOUNT_FROM} where la.id = ${id} and la.slot_of is null`);
  return row && toAccount(row);
}

/** Accounts in id order after `after`, optionally of one kind, asset or customer account: one more than `limit`. */
export async function listLedgerAccounts(db: Executor, filter: { kind?: LedgerAccountKind; asset?: string; accountId?: string; after?: string; limit: number }): Promise<LedgerAccountRow[]> {
  const where: SQL[] = [sql`la.slot_of is null`];
  if (filter.kind) where.push(sql`la.kind = ${filter.kind}`);
  if (filter.asset) where.push(sql`la.asset = ${filter.asset}`);
  if (filter.accountId) where.push(sql`la.account_id = ${filter.accountId}`);
  if (filter.after) where.push(sql`la.id > ${filter.after}`);
  const rows = await selectRows<LedgerAccountRow>(
    db,
    sql`select ${ACCOUNT_COLUMNS} from ${ACCOUNT_FROM} where ${sql.join(where, sql` and `)} order by la.id limit ${filter.limit + 1}`,
  );
  return rows.map(toAccount);
}

export interface BalanceVersionRow {
  posted: string;
  pending: string;
  available: string;
  version: number;
  at: Date;
}

/** An account's balances as they were at `at`: the last version then of its row and of each of its slots, summed (none: it was still empty). */
export async function balanceAsOf(db: Executor, ledgerAccountId: string, at: Date): Promise<BalanceVersionRow | undefined> {
  const [row] = await selectRows<{ posted: string | null; pending: string | null; available: string | null; version: string | number | null; at: Date | string | null }>(
    db,
    sql`select sum(posted)::text as posted, sum(pending)::text as pending, sum(available)::text as available, sum(version) as version, max(at) as at from (
          select distinct on (v.ledger_account_id) v.posted_balance as posted, v.pending_balance as pending, v.available_balance as available, v.version, v.at
          from ledger_balance_versions v
          where v.ledger_account_id in (select id from ledger_accounts where id = ${ledgerAccountId} or slot_of = ${ledgerAccountId}) and v.at <= ${at.toISOString()}::timestamptz
          order by v.ledger_account_id, v.at desc, v.version desc) last`,
  );
  if (!row || row.version === null) return undefined;
  return { posted: row.posted!, pending: row.pending!, available: row.available!, version: Number(row.version), at: new Date(row.at!) };
}

export interface LedgerEntryRow {
  id: string;
  ledgerTransactionId: string;
  ledgerAccountId: string;
  accountCode: string;
  accountKind: LedgerAccountKind;
  asset: string;
  symbol: string;
  decimals: number;
  chainId: number | null;
  address: string | null;
  amount: string;
  status: LedgerStatus;
  /** Null for a service account's entries (its balances are a sum of slots). */
  postedAfter: string | null;
  pendingAfter: string | null;
  availableAfter: string | null;
  accountVersion: number | null;
  causeType: 'transaction' | 'payout' | 'opening' | 'adjustment';
  causeId: string | null;
  /** The integrator's transactionId of the transaction that caused it (for a payout: its withdrawal's). */
  transactionId: string | null;
  payoutReference: string | null;
  description: string;
  createdAt: Date;
  postedAt: Date | null;
  archivedAt: Date | null;
}

const ENTRY_COLUMNS = sql`e.id, e.ledger_transaction_id as "ledgerTransactionId", e.ledger_account_id as "ledgerAccountId", la.code as "accountCode",
  la.kind as "accountKind", e.asset, a.symbol, a.decimals, a.chain_id as "chainId", a.address, e.amount::text as amount, e.status,
  e.posted_after::text as "postedAfter", e.pending_after::text as "pendingAfter", e.available_after::text as "availableAfter",
  e.account_version as "accountVersion", t.cause_type as "causeType", t.cause_id as "causeId",
  coalesce(tx.transaction_id, ptx.transaction_id) as "transactionId", p.reference as "payoutReference", t.description,
  e.created_at as "createdAt", t.posted_at as "postedAt", t.archived_at as "archivedAt"`;

const ENTRY_FROM = sql`ledger_entries e join ledger_transactions t on t.id = e.ledger_transaction_id
  join ledger_accounts la on la.id = e.ledger_account_id join ledger_assets a on a.code = e.asset
  left join transactions tx on t.cause_type = 'transaction' and tx.id = t.cause_id
  left join withdrawal_payouts p on t.cause_type = 'payout' and p.id = t.cause_id
  left join transactions ptx on ptx.id = p.transaction_row_id`;

const toEntry = (r: LedgerEntryRow): LedgerEntryRow => ({
  ...r,
  accountVersion: r.accountVersion === null ? null : Number(r.accountVersion),
  chainId: r.chainId === null ? null : Number(r.chainId),
  createdAt: new Date(r.createdAt),
  postedAt: r.postedAt && new Date(r.postedAt),
  archivedAt: r.archivedAt && new Date(r.archivedAt),
});

/** Entries of the given ledger accounts, newest first, before the entry `before`: one more than `limit`. */
export async function listLedgerEntries(db: Executor, filter: { ledgerAccountIds: string[]; status?: LedgerStatus; before?: string; limit: number }): Promise<LedgerEntryRow[]> {
  if (filter.ledgerAccountIds.length === 0) return [];
  const where: SQL[] = [sql`e.ledger_account_id in (${sql.join(filter.ledgerAccountIds.map((id) => sql`${id}`), sql`, `)})`];
  if (filter.status) where.push(sql`e.status = ${filter.status}`);
  if (filter.before) where.push(sql`e.id < ${filter.before}`);
  const rows = await selectRows<LedgerEntryRow>(db, sql`select ${ENTRY_COLUMNS} from ${ENTRY_FROM} where ${sql.join(where, sql` and `)} order by e.id desc limit ${filter.limit + 1}`);
  return rows.map(toEntry);
}

/** One entry, to check a cursor against. */
export async function findLedgerEntry(db: Executor, id: string): Promise<{ id: string; ledgerAccountId: string } | undefined> {
  const [row] = await selectRows<{ id: string; ledgerAccountId: string }>(db, sql`select id, ledger_account_id as "ledgerAccountId" from ledger_entries where id = ${id}`);
  return row;
}

/** A ledger transaction's legs (every entry, every account). */
export async function ledgerTransactionEntries(db: Executor, ledgerTransactionId: string): Promise<LedgerEntryRow[]> {
  const rows = await selectRows<LedgerEntryRow>(db, sql`select ${ENTRY_COLUMNS} from ${ENTRY_FROM} where e.ledger_transaction_id = ${ledgerTransactionId} order by la.code`);
  return rows.map(toEntry);
}

/** The ledger transactions a cause (a transactions or withdrawal_payouts row) posted. */
export async function ledgerTransactionIdsOf(db: Executor, causeId: string): Promise<string[]> {
  const rows = await selectRows<{ id: string }>(db, sql`select id from ledger_transactions where cause_id = ${causeId} order by id`);
  return rows.map((r) => r.id);
}

export interface TrialBalanceRow {
  asset: string;
  symbol: string;
  decimals: number;
  kind: LedgerAccountKind;
  accounts: number;
  posted: string;
  pending: string;
}

/** Every asset's balances summed per kind of account (each asset's posted and pending sum to zero). */
export async function trialBalance(db: Executor): Promise<TrialBalanceRow[]> {
  const rows = await selectRows<TrialBalanceRow>(
    db,
    sql`select la.asset, a.symbol, a.decimals, la.kind, (count(*) filter (where la.slot_of is null))::int as accounts, sum(la.posted_balance)::text as posted, sum(la.pending_balance)::text as pending
        from ledger_accounts la join ledger_assets a on a.code = la.asset group by la.asset, a.symbol, a.decimals, la.kind order by la.asset, la.kind`,
  );
  return rows.map((r) => ({ ...r, accounts: Number(r.accounts), decimals: Number(r.decimals) }));
}
