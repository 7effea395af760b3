/**
 * The ledger bench's books per side (ledger-run.ts): the accounts one side posts to and what it committed, and the
 * check, after the run, that the tables say the same (every transfer written once, balances zero-sum).
 */
import type pg from 'pg';
import type { NewLedgerAccount } from '../../src/db/repositories/ledger-writes.js';
import type { AssetRef } from '../../src/domain/ledger/assets.js';
import { ledgerAccountCode, ledgerAccountId, type LedgerAccountRef } from '../../src/domain/ledger/ledger-accounts.js';
import type { BookCheck } from './ledger-types.js';

export interface Books {
  asset: AssetRef;
  treasury: LedgerAccountRef;
  customers: LedgerAccountRef[];
  treasuryId: string;
  customerIds: string[];
  committed: number;
  moved: bigint;
  next: number;
}

export function newAccount(ref: LedgerAccountRef): NewLedgerAccount {
  const code = ledgerAccountCode(ref);
  return { id: ledgerAccountId(code), code, kind: ref.kind, asset: ref.asset, integratorId: ref.customer?.integratorId ?? null, accountId: ref.customer?.accountId ?? null };
}

/** The side's books: every committed transfer written once, two entries and two balance versions each, and zero-sum balances. */
export async function checkBooks(pool: pg.Pool, b: Books): Promise<BookCheck> {
  const one = async <T>(text: string, values: unknown[]) => (await pool.query<T & pg.QueryResultRow>(text, values)).rows[0]!;
  const asset = b.asset.code;
  const { transactions } = await one<{ transactions: number }>(
    `select count(distinct e.ledger_transaction_id)::int as transactions from ledger_entries e where e.asset = $1`,
    [asset],
  );
  const { entries, entriesSum } = await one<{ entries: number; entriesSum: string }>(`select count(*)::int as entries, coalesce(sum(amount), 0)::text as "entriesSum" from ledger_entries where asset = $1`, [asset]);
  const { versions } = await one<{ versions: number }>(
    `select count(*)::int as versions from ledger_balance_versions v join ledger_accounts a on a.id = v.ledger_account_id where a.asset = $1`,
    [asset],
  );
  const balances = await one<{ treasury: string; customers: string; total: string; pendingTotal: string; availableTotal: string; versionSum: string }>(
    `select coalesce(sum(posted_balance) filter (where kind = 'treasury'), 0)::text as treasury, coalesce(sum(posted_balance) filter (where kind = 'customer'), 0)::text as customers,
       sum(posted_balance)::text as total, sum(pending_balance)::text as "pendingTotal", sum(available_balance)::text as "availableTotal", sum(version)::text as "versionSum"
     from ledger_accounts where asset = $1`,
    [asset],
  );
  const { off } = await one<{ off: number }>(
    // An account with its balance slots (the engine's service accounts, docs/ledger.md#locking) against its entries.
    `select count(*)::int as off from ledger_accounts a where a.asset = $1 and a.slot_of is null
       and a.posted_balance + coalesce((select sum(x.posted_balance) from ledger_accounts x where x.slot_of = a.id), 0)
         <> coalesce((select sum(e.amount) from ledger_entries e where e.ledger_account_id = a.id and e.status = 'posted'), 0)`,
    [asset],
  );
  const problems: string[] = [];
  const expect = (what: string, got: string | number, want: string | number) => {
    if (String(got) !== String(want)) problems.push(`${what}: ${got}, expected ${want}`);
  };
  expect('ledger transactions', transactions, b.committed);
  expect('entries', entries, 2 * b.committed);
  expect('entries sum', entriesSum, 0);
  expect('balance versions', versions, 2 * b.committed);
  expect('sum of account versions', balances.versionSum, 2 * b.committed);
  expect('treasury posted', balances.treasury, (-b.moved).toString());
  expect('customers posted', balances.customers, b.moved.toString());
  expect('posted, all accounts', balances.total, 0);
  expect('pending, all accounts', balances.pendingTotal, 0);
  expect('available, all accounts', balances.availableTotal, 0);
  expect('accounts off their entries', off, 0);
  return { asset, committed: b.committed, transactions, entries, balanceVersions: versions, treasuryPosted: balances.treasury, customersPosted: balances.customers, moved: b.moved.toString(), accountsOffTheirEntries: off, problems };
}
