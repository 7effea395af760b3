import { sql } from 'drizzle-orm';
import { nullableArrayLiteral, textArrayLiteral } from '../array-literal.js';
import { selectRows, type Executor } from '../database.js';
import type { LedgerAccountKind, LedgerStatus } from '../schema/index.js';

// The ledger's writes beside its postings (which are ledger-posting.ts, one statement each): accounts made ahead of
// use, a cause's transaction locked, the chains' openings.

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
    on conflict do nothing`);
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
