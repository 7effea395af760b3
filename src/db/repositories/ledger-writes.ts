import { sql } from 'drizzle-orm';
import { nullableArrayLiteral, textArrayLiteral } from '../array-literal.js';
import { selectRows, type Executor } from '../database.js';
import type { LedgerAccountKind, LedgerStatus } from '../schema/index.js';

// The ledger's writes (docs/ledger.md): accounts and assets created as first used, a transaction and its entries, and
// the balances they move, each account row locked in id order (no two postings wait on each other in a cycle).

export interface NewLedgerAccount {
  id: string;
  code: string;
  kind: LedgerAccountKind;
  asset: { code: string; chainId: number | null; address: string | null; symbol: string; decimals: number };
  integratorId: string | null;
  accountId: string | null;
}

/** Creates the accounts and their assets not there yet, in one statement. */
export async function ensureLedgerAccounts(db: Executor, accounts: NewLedgerAccount[], at: Date): Promise<void> {
  const assets = [...new Map(accounts.map((a) => [a.asset.code, a.asset])).values()];
  await db.execute(sql`
    with assets as (
      insert into ledger_assets (code, chain_id, address, symbol, decimals)
      select * from unnest(${textArrayLiteral(assets.map((a) => a.code))}::text[], ${nullableArrayLiteral(assets.map((a) => (a.chainId === null ? null : String(a.chainId))))}::bigint[],
        ${nullableArrayLiteral(assets.map((a) => a.address))}::text[], ${textArrayLiteral(assets.map((a) => a.symbol))}::text[], ${textArrayLiteral(assets.map((a) => String(a.decimals)))}::int[])
      on conflict (code) do nothing
    )
    insert into ledger_accounts (id, code, kind, asset, integrator_id, account_id, created_at, updated_at)
    select id, code, kind, asset, integrator_id, account_id, ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz
    from unnest(${textArrayLiteral(accounts.map((a) => a.id))}::uuid[], ${textArrayLiteral(accounts.map((a) => a.code))}::text[], ${textArrayLiteral(accounts.map((a) => a.kind))}::text[],
      ${textArrayLiteral(accounts.map((a) => a.asset.code))}::text[], ${nullableArrayLiteral(accounts.map((a) => a.integratorId))}::uuid[], ${nullableArrayLiteral(accounts.map((a) => a.accountId))}::uuid[])
      as n(id, code, kind, asset, integrator_id, account_id)
    on conflict (code) do nothing`);
}

export interface LedgerTransactionHead {
  id: string;
  status: LedgerStatus;
  blockNumber: number | null;
}

export interface NewLedgerTransaction {
  id: string;
  causeKey: string;
  causeType: 'transaction' | 'payout' | 'opening' | 'adjustment';
  causeId: string | null;
  integratorId: string | null;
  description: string;
  status: LedgerStatus;
  chainId: number | null;
  blockNumber: number | null;
  /** The block the movement was mined in, when known: no transaction's is posted if the opening balances hold it already. */
  minedIn: number | null;
}

/** The transaction posted for a cause, locked until the caller's transaction ends; undefined when there is none. */
export async function lockLedgerTransaction(db: Executor, causeKey: string): Promise<LedgerTransactionHead | undefined> {
  const [found] = await selectRows<{ id: string; status: LedgerStatus; blockNumber: string | number | null }>(
    db,
    sql`select id, status, block_number as "blockNumber" from ledger_transactions where cause_key = ${causeKey} for update`,
  );
  return found && { id: found.id, status: found.status, blockNumber: found.blockNumber === null ? null : Number(found.blockNumber) };
}

/** How one account's balances move: posted, pending and available deltas in base units. */
export interface BalanceDelta {
  accountId: string;
  posted: bigint;
  pending: bigint;
  available: bigint;
}

export interface MovedBalance {
  accountId: string;
  posted: string;
  pending: string;
  available: string;
  version: number;
}

/**
 * Moves the balances of the accounts (locked in id order first: a hot account, the treasury, is waited on in the same
 * order by every posting) and records each account's new version, in one statement. The balances after, per account.
 */
export async function moveBalances(db: Executor, deltas: BalanceDelta[], at: Date): Promise<Map<string, MovedBalance>> {
  const sorted = [...deltas].sort((a, b) => (a.accountId < b.accountId ? -1 : 1));
  const ids = textArrayLiteral(sorted.map((d) => d.accountId));
  const rows = await selectRows<MovedBalance & { version: string | number }>(
    db,
    sql`with locked as materialized (select id from ledger_accounts where id = any(${ids}::uuid[]) order by id for update),
      d as (select * from unnest(${ids}::uuid[], ${textArrayLiteral(sorted.map((d) => d.posted.toString()))}::numeric[],
        ${textArrayLiteral(sorted.map((d) => d.pending.toString()))}::numeric[], ${textArrayLiteral(sorted.map((d) => d.available.toString()))}::numeric[]) as d(id, posted, pending, available)),
      moved as (
        update ledger_accounts a set posted_balance = a.posted_balance + d.posted, pending_balance = a.pending_balance + d.pending,
          available_balance = a.available_balance + d.available, version = a.version + 1, updated_at = ${at.toISOString()}::timestamptz
        from d join locked on locked.id = d.id where a.id = d.id
        returning a.id, a.posted_balance::text as posted, a.pending_balance::text as pending, a.available_balance::text as available, a.version),
      versions as (insert into ledger_balance_versions (ledger_account_id, version, posted_balance, pending_balance, available_balance, at)
        select id, version, posted::numeric, pending::numeric, available::numeric, ${at.toISOString()}::timestamptz from moved)
    select id as "accountId", posted, pending, available, version from moved`,
  );
  if (rows.length !== sorted.length) throw new Error(`ledger: ${sorted.length - rows.length} of the accounts to move are missing`);
  return new Map(rows.map((r) => [r.accountId, { ...r, version: Number(r.version) }]));
}

export interface StoredEntry {
  id: string;
  ledgerAccountId: string;
  amount: bigint;
}

/** A transaction's entries (to post, archive or revise them). */
export async function entriesOf(db: Executor, transactionId: string): Promise<StoredEntry[]> {
  const rows = await selectRows<{ id: string; ledgerAccountId: string; amount: string }>(
    db,
    sql`select id, ledger_account_id as "ledgerAccountId", amount::text as amount from ledger_entries where ledger_transaction_id = ${transactionId}`,
  );
  return rows.map((r) => ({ ...r, amount: BigInt(r.amount) }));
}

/** Moves a pending transaction and its entries to posted or archived, or only sets its block (and the block it was mined in). */
export async function settleLedgerTransaction(db: Executor, id: string, to: { status: LedgerStatus; blockNumber: number | null; minedIn: number | null }, at: Date): Promise<void> {
  const iso = at.toISOString();
  await db.execute(sql`
    with t as (
      update ledger_transactions set status = ${to.status}, block_number = ${to.blockNumber}::bigint, mined_in = coalesce(${to.minedIn}::bigint, mined_in), updated_at = ${iso}::timestamptz,
        posted_at = case when ${to.status} = 'posted' then ${iso}::timestamptz else posted_at end,
        archived_at = case when ${to.status} = 'archived' then ${iso}::timestamptz else archived_at end
      where id = ${id} returning id)
    update ledger_entries set status = ${to.status}, updated_at = ${iso}::timestamptz where ledger_transaction_id in (select id from t)`);
}

/** A pending entry's amount revised (a vault call's settled amounts). */
export async function reviseLedgerEntry(db: Executor, id: string, amount: bigint, at: Date): Promise<void> {
  await db.execute(sql`update ledger_entries set amount = ${amount.toString()}::numeric, updated_at = ${at.toISOString()}::timestamptz where id = ${id}`);
}

/** Pending mined transactions of a chain at or below a final block, oldest block first, locked (skipping those locked elsewhere). */
export async function lockFinalLedgerTransactions(db: Executor, chainId: number, finalBlock: number, limit: number): Promise<LedgerTransactionHead[]> {
  const rows = await selectRows<{ id: string; blockNumber: string | number }>(
    db,
    sql`select id, block_number as "blockNumber" from ledger_transactions
        where status = 'pending' and chain_id = ${chainId} and block_number is not null and block_number <= ${finalBlock}
        order by block_number, id limit ${limit} for update skip locked`,
  );
  return rows.map((r) => ({ id: r.id, status: 'pending' as const, blockNumber: Number(r.blockNumber) }));
}

/** The chain's opening block, if the ledger opened on it. */
export async function ledgerOpeningOf(db: Executor, chainId: number): Promise<number | undefined> {
  const [row] = await selectRows<{ blockNumber: string | number }>(db, sql`select block_number as "blockNumber" from ledger_openings where chain_id = ${chainId}`);
  return row && Number(row.blockNumber);
}

/** Records the chain's opening at `block`; false when another process opened it first (its opening stands). */
export async function claimLedgerOpening(db: Executor, chainId: number, block: number, at: Date): Promise<boolean> {
  const rows = await selectRows<{ chainId: string }>(
    db,
    sql`insert into ledger_openings (chain_id, block_number, created_at) values (${chainId}, ${block}, ${at.toISOString()}::timestamptz) on conflict (chain_id) do nothing returning chain_id as "chainId"`,
  );
  return rows.length === 1;
}

/** Every custodial wallet: what an opening reads the holdings of (the same address on every chain). */
export function custodialWallets(db: Executor): Promise<{ accountId: string; integratorId: string; address: string }[]> {
  return selectRows(db, sql`select a.id as "accountId", a.integrator_id as "integratorId", lower(a.wallet_address) as address from wallets w join accounts a on a.id = w.account_id where a.wallet_address is not null order by a.id`);
}
