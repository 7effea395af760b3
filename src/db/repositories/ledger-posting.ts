import { sql } from 'drizzle-orm';
import { nullableArrayLiteral, textArrayLiteral } from '../array-literal.js';
import { selectRows, type Executor } from '../database.js';
import type { LedgerStatus } from '../schema/index.js';
import type { NewLedgerAccount, NewLedgerTransaction } from './ledger-writes.js';

/** One leg of a new posting: its account (created if new), its entry's id, the amount and what it adds to the balances. */
export interface NewLeg {
  account: NewLedgerAccount;
  entryId: string;
  amount: bigint;
  posted: bigint;
  pending: bigint;
  available: bigint;
}

/**
 * A new ledger transaction in ONE statement (docs/ledger.md#balances): the transaction (unless its cause is there, or
 * its block is in the chain's opening balances), its assets and accounts created or their balances moved (an upsert in
 * account id order: the lock order every posting keeps), each account's new version, and the entries with the balances
 * after them. One round trip under the accounts' locks instead of four. Answers the new transaction's id, or undefined
 * when nothing was written (the cause's transaction is there: the caller moves it on).
 */
export async function insertPosting(db: Executor, t: NewLedgerTransaction, legs: NewLeg[], at: Date): Promise<string | undefined> {
  const iso = at.toISOString();
  const sorted = [...legs].sort((a, b) => (a.account.id < b.account.id ? -1 : 1));
  const assets = [...new Map(sorted.map((l) => [l.account.asset.code, l.account.asset])).values()];
  const opened = t.minedIn === null || t.causeType !== 'transaction' ? sql`false` : sql`exists (select 1 from ledger_openings o where o.chain_id = ${t.chainId} and o.block_number >= ${t.minedIn})`;
  const list = (values: string[]) => textArrayLiteral(values);
  const [row] = await selectRows<{ id: string | null }>(
    db,
    sql`with new_assets as (
        insert into ledger_assets (code, chain_id, address, symbol, decimals)
        select * from unnest(${list(assets.map((a) => a.code))}::text[], ${nullableArrayLiteral(assets.map((a) => (a.chainId === null ? null : String(a.chainId))))}::bigint[],
          ${nullableArrayLiteral(assets.map((a) => a.address))}::text[], ${list(assets.map((a) => a.symbol))}::text[], ${list(assets.map((a) => String(a.decimals)))}::int[])
        on conflict (code) do nothing),
      t as (
        insert into ledger_transactions (id, cause_key, cause_type, cause_id, integrator_id, description, status, chain_id, block_number, mined_in, effective_at, posted_at, created_at, updated_at)
        select ${t.id}, ${t.causeKey}, ${t.causeType}, ${t.causeId}, ${t.integratorId}, ${t.description}, ${t.status}, ${t.chainId}::bigint, ${t.blockNumber}::bigint, ${t.minedIn}::bigint,
          ${iso}::timestamptz, ${t.status === 'posted' ? iso : null}::timestamptz, ${iso}::timestamptz, ${iso}::timestamptz
        where not ${opened}
        on conflict (cause_key) do nothing returning id),
      moved as (
        insert into ledger_accounts (id, code, kind, asset, integrator_id, account_id, posted_balance, pending_balance, available_balance, version, created_at, updated_at)
        select n.id, n.code, n.kind, n.asset, n.integrator_id, n.account_id, n.posted, n.pending, n.available, 1, ${iso}::timestamptz, ${iso}::timestamptz
        from unnest(${list(sorted.map((l) => l.account.id))}::uuid[], ${list(sorted.map((l) => l.account.code))}::text[], ${list(sorted.map((l) => l.account.kind))}::text[],
          ${list(sorted.map((l) => l.account.asset.code))}::text[], ${nullableArrayLiteral(sorted.map((l) => l.account.integratorId))}::uuid[], ${nullableArrayLiteral(sorted.map((l) => l.account.accountId))}::uuid[],
          ${list(sorted.map((l) => l.posted.toString()))}::numeric[], ${list(sorted.map((l) => l.pending.toString()))}::numeric[], ${list(sorted.map((l) => l.available.toString()))}::numeric[])
          as n(id, code, kind, asset, integrator_id, account_id, posted, pending, available)
        where exists (select 1 from t)
        order by n.id
        on conflict (code) do update set posted_balance = ledger_accounts.posted_balance + excluded.posted_balance, pending_balance = ledger_accounts.pending_balance + excluded.pending_balance,
          available_balance = ledger_accounts.available_balance + excluded.available_balance, version = ledger_accounts.version + 1, updated_at = excluded.updated_at
        returning id, posted_balance, pending_balance, available_balance, version),
      entries as (
        insert into ledger_entries (id, ledger_transaction_id, ledger_account_id, asset, amount, status, posted_after, pending_after, available_after, account_version, created_at, updated_at)
        select x.entry_id, t.id, m.id, x.asset, x.amount, ${t.status}, m.posted_balance, m.pending_balance, m.available_balance, m.version, ${iso}::timestamptz, ${iso}::timestamptz
        from unnest(${list(sorted.map((l) => l.entryId))}::uuid[], ${list(sorted.map((l) => l.account.id))}::uuid[], ${list(sorted.map((l) => l.account.asset.code))}::text[],
          ${list(sorted.map((l) => l.amount.toString()))}::numeric[]) as x(entry_id, account_id, asset, amount)
        join moved m on m.id = x.account_id cross join t),
      versions as (
        insert into ledger_balance_versions (ledger_account_id, version, posted_balance, pending_balance, available_balance, at)
        select id, version, posted_balance, pending_balance, available_balance, ${iso}::timestamptz from moved)
    select (select id from t) as id`,
  );
  return row?.id ?? undefined;
}

export type { LedgerStatus };
