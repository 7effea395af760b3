/**
 * The ledger bench's bare equivalents (docs/benchmarks.md#ledger): a posted transfer `treasury -x, customer +x` written
 * with the `pg` driver alone (no drizzle, no engine), on the ledger's own tables, with the engine's balance-row locking
 * (both account rows locked in id order FOR UPDATE before their balances move). Statements are named (prepared once
 * per connection), as a hand-written pg layer would have them.
 *
 * - `stepwise`: one statement per step, in one transaction: BEGIN, the ledger transaction, the lock, the balances,
 *   the entries, the balance versions, COMMIT (7 round trips; the last 4 with the treasury row locked).
 * - `one statement`: the same writes in one statement (data-modifying CTEs) between BEGIN and COMMIT (3 round trips;
 *   only COMMIT's with the row locked): the shape of the engine's own insertPosting since e380e33
 *   (src/db/repositories/ledger-posting.ts), without its creating the accounts and assets, and prepared.
 */
import type pg from 'pg';

/** One transfer as both bare sides write it: ids made by the caller, amounts in base units. */
export interface BareTransfer {
  transactionId: string;
  causeKey: string;
  causeId: string;
  integratorId: string;
  asset: string;
  /** The two legs, sorted by account id (the lock order). */
  legs: { accountId: string; entryId: string; amount: bigint }[];
  at: Date;
}

export type BareVariant = 'stepwise' | 'one statement';

const INSERT_TRANSACTION = `insert into ledger_transactions (id, cause_key, cause_type, cause_id, integrator_id, description, status, effective_at, posted_at, created_at, updated_at)
  values ($1, $2, 'transaction', $3, $4, 'bench transfer', 'posted', $5, $5, $5, $5)`;

const LOCK = 'select id from ledger_accounts where id = any($1::uuid[]) order by id for update';

const MOVE = `update ledger_accounts a set posted_balance = a.posted_balance + d.amount, pending_balance = a.pending_balance + d.amount,
    available_balance = a.available_balance + d.amount, version = a.version + 1, updated_at = $3
  from unnest($1::uuid[], $2::numeric[]) as d(id, amount) where a.id = d.id
  returning a.id, a.posted_balance::text as posted, a.pending_balance::text as pending, a.available_balance::text as available, a.version::text as version`;

const ENTRIES = `insert into ledger_entries (id, ledger_transaction_id, ledger_account_id, asset, amount, status, posted_after, pending_after, available_after, account_version, created_at, updated_at)
  select id, $1, account, $2, amount, 'posted', posted, pending, available, version, $3, $3
  from unnest($4::uuid[], $5::uuid[], $6::numeric[], $7::numeric[], $8::numeric[], $9::numeric[], $10::bigint[]) as n(id, account, amount, posted, pending, available, version)`;

const VERSIONS = `insert into ledger_balance_versions (ledger_account_id, version, posted_balance, pending_balance, available_balance, at)
  select * , $6::timestamptz from unnest($1::uuid[], $2::bigint[], $3::numeric[], $4::numeric[], $5::numeric[])`;

const ONE_STATEMENT = `with t as (
    insert into ledger_transactions (id, cause_key, cause_type, cause_id, integrator_id, description, status, effective_at, posted_at, created_at, updated_at)
    values ($1, $2, 'transaction', $3, $4, 'bench transfer', 'posted', $5, $5, $5, $5) returning id),
  d as (select * from unnest($6::uuid[], $7::uuid[], $8::numeric[]) as d(id, entry_id, amount)),
  locked as materialized (select id from ledger_accounts where id = any($6::uuid[]) order by id for update),
  moved as (
    update ledger_accounts a set posted_balance = a.posted_balance + d.amount, pending_balance = a.pending_balance + d.amount,
      available_balance = a.available_balance + d.amount, version = a.version + 1, updated_at = $5
    from d join locked on locked.id = d.id where a.id = d.id
    returning a.id, a.posted_balance, a.pending_balance, a.available_balance, a.version),
  e as (
    insert into ledger_entries (id, ledger_transaction_id, ledger_account_id, asset, amount, status, posted_after, pending_after, available_after, account_version, created_at, updated_at)
    select d.entry_id, t.id, m.id, $9, d.amount, 'posted', m.posted_balance, m.pending_balance, m.available_balance, m.version, $5, $5 from moved m join d on d.id = m.id cross join t),
  v as (
    insert into ledger_balance_versions (ledger_account_id, version, posted_balance, pending_balance, available_balance, at)
    select id, version, posted_balance, pending_balance, available_balance, $5 from moved)
  select count(*)::int as moved from moved`;

interface Moved {
  id: string;
  posted: string;
  pending: string;
  available: string;
  version: string;
}

/** Writes one transfer on `client` (checked out for it), in one transaction; throws (after ROLLBACK) if it could not. */
export async function postBare(client: pg.PoolClient, variant: BareVariant, t: BareTransfer): Promise<void> {
  const ids = t.legs.map((l) => l.accountId);
  const amounts = t.legs.map((l) => l.amount.toString());
  const at = t.at.toISOString();
  await client.query('begin');
  try {
    if (variant === 'stepwise') {
      await client.query({ name: 'bench_ledger_tx', text: INSERT_TRANSACTION, values: [t.transactionId, t.causeKey, t.causeId, t.integratorId, at] });
      await client.query({ name: 'bench_ledger_lock', text: LOCK, values: [ids] });
      const moved = (await client.query<Moved>({ name: 'bench_ledger_move', text: MOVE, values: [ids, amounts, at] })).rows;
      if (moved.length !== ids.length) throw new Error(`bare: ${ids.length - moved.length} accounts missing`);
      const after = new Map(moved.map((m) => [m.id, m]));
      const rows = t.legs.map((l) => after.get(l.accountId)!);
      await client.query({
        name: 'bench_ledger_entries',
        text: ENTRIES,
        values: [t.transactionId, t.asset, at, t.legs.map((l) => l.entryId), ids, amounts, rows.map((r) => r.posted), rows.map((r) => r.pending), rows.map((r) => r.available), rows.map((r) => r.version)],
      });
      await client.query({ name: 'bench_ledger_versions', text: VERSIONS, values: [ids, rows.map((r) => r.version), rows.map((r) => r.posted), rows.map((r) => r.pending), rows.map((r) => r.available), at] });
    } else {
      const { rows } = await client.query<{ moved: number }>({
        name: 'bench_ledger_one',
        text: ONE_STATEMENT,
        values: [t.transactionId, t.causeKey, t.causeId, t.integratorId, at, ids, t.legs.map((l) => l.entryId), amounts, t.asset],
      });
      if (rows[0]?.moved !== ids.length) throw new Error(`bare: ${ids.length - (rows[0]?.moved ?? 0)} accounts missing`);
    }
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  }
}

/** One account's maintained balances, as the bare read would fetch them (the floor beside the API's reads). */
export async function readBare(client: pg.Pool, accountId: string): Promise<Moved | undefined> {
  const { rows } = await client.query<Moved>({
    name: 'bench_ledger_read',
    text: 'select id, posted_balance::text as posted, pending_balance::text as pending, available_balance::text as available, version::text as version from ledger_accounts where id = $1',
    values: [accountId],
  });
  return rows[0];
}
