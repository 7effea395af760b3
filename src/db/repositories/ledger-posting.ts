import { sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { nullableArrayLiteral, textArrayLiteral } from '../array-literal.js';
import type { Executor } from '../database.js';
import { runShaped } from '../prepared.js';
import type { LedgerStatus } from '../schema/index.js';
import type { NewLedgerAccount, NewLedgerTransaction } from './ledger-writes.js';

/** One leg of a posting as desired: its account (created if new), the entry's id if it is written, the amount. */
export interface PostingLeg {
  account: NewLedgerAccount;
  entryId: string;
  amount: bigint;
}

export interface PostingRequest {
  transaction: NewLedgerTransaction;
  legs: PostingLeg[];
}

/** The pending movements of a chain at or below a final block to post as well (the incoming watcher's finality). */
export interface FinalHeads {
  chainId: number;
  finalBlock: number;
  limit: number;
}

export interface AppliedPostings {
  /** New ledger transactions written. */
  created: number;
  /** Existing pending ones moved on (posted, archived, given their block, revised), the final ones included. */
  moved: number;
  /** Causes another process created meanwhile (after this statement's snapshot): to post again, now visible. */
  lost: string[];
}

/**
 * Every posting of a database transaction in ONE statement (docs/ledger.md#balances): new ledger transactions claimed
 * by cause (unless there, or in the chain's opening balances) with their entries; existing pending ones moved on
 * (posted, archived, given their block, a pending one's amounts revised) with their entries; and, with `final`, the
 * chain's pending mined movements at or below the final block posted. Every balance it moves is moved by one upsert of
 * the balance rows in id order: the only lock a posting takes on them, taken once per database transaction and in
 * the same order by all, so no two postings wait on each other in a cycle (docs/ledger.md#locking). A customer's
 * account is its own balance row; a service account's balances go to one of its BALANCE_SLOTS slot rows (created as
 * first used, `slot_of` the account), so the hot ones are spread. Each row moved gets one new version; each new
 * customer entry records the balances right after it (the moved ones' deltas first, then the new legs in order); a
 * service account's entries record none (its balances are the sum of slots others move at the same time). Run as a
 * named prepared statement: its text never changes, the lists go in as arrays.
 */
export async function applyPostings(db: Executor, postings: PostingRequest[], final: FinalHeads | undefined, at: Date): Promise<AppliedPostings> {
  // PostgreSQL plans a prepared statement anew for each call's values while it guesses that pays (here: always), which
  // cost this statement of twenty-odd parts 1.2-1.4 ms a call against 0.6 ms to run it. Its generic plan, made once per
  // connection, serves every call's lists; made without sequential scans, every lookup in it goes through an index
  // however small the tables were when it was made (docs/benchmarks.md#ledger). Both settings last to the end of the
  // caller's transaction, whose last writes these are.
  if (db instanceof PgTransaction) {
    await runShaped(db, 'ledger plan settings', () => sql`select set_config('plan_cache_mode', 'force_generic_plan', true), set_config('enable_seqscan', 'off', true)`, {});
  }
  const [row] = await runShaped<{ created: string | number; moved: string | number; lost: string[] | string }>(db, 'ledger postings', postingsStatement, postingValues(postings, final, at));
  const lost = typeof row?.lost === 'string' ? parseTextArray(row.lost) : (row?.lost ?? []);
  return { created: Number(row?.created ?? 0), moved: Number(row?.moved ?? 0), lost };
}

/** The statement's values: every list one array. */
export function postingValues(postings: PostingRequest[], final: FinalHeads | undefined, at: Date): Record<string, unknown> {
  const ts = postings.map((p) => p.transaction);
  const legs = postings.flatMap((p) => p.legs.map((leg) => ({ key: p.transaction.causeKey, ...leg })));
  const assets = [...new Map(legs.map((l) => [l.account.asset.code, l.account.asset])).values()];
  const list = textArrayLiteral;
  const maybe = nullableArrayLiteral;
  const num = (n: number | null) => (n === null ? null : String(n));
  return {
    pKey: list(ts.map((t) => t.causeKey)),
    pId: list(ts.map((t) => t.id)),
    pType: list(ts.map((t) => t.causeType)),
    pCause: maybe(ts.map((t) => t.causeId)),
    pIntegrator: maybe(ts.map((t) => t.integratorId)),
    pDescription: list(ts.map((t) => t.description)),
    pStatus: list(ts.map((t) => t.status)),
    pChain: maybe(ts.map((t) => num(t.chainId))),
    pBlock: maybe(ts.map((t) => num(t.blockNumber))),
    pMined: maybe(ts.map((t) => num(t.minedIn))),
    lKey: list(legs.map((l) => l.key)),
    lAccount: list(legs.map((l) => l.account.id)),
    lCode: list(legs.map((l) => l.account.code)),
    lKind: list(legs.map((l) => l.account.kind)),
    lAsset: list(legs.map((l) => l.account.asset.code)),
    lIntegrator: maybe(legs.map((l) => l.account.integratorId)),
    lCustomer: maybe(legs.map((l) => l.account.accountId)),
    lEntry: list(legs.map((l) => l.entryId)),
    lAmount: list(legs.map((l) => l.amount.toString())),
    aCode: list(assets.map((a) => a.code)),
    aChain: maybe(assets.map((a) => num(a.chainId))),
    aAddress: maybe(assets.map((a) => a.address)),
    aSymbol: list(assets.map((a) => a.symbol)),
    aDecimals: list(assets.map((a) => String(a.decimals))),
    finalChain: final ? final.chainId : null,
    finalBlock: final ? final.finalBlock : null,
    finalLimit: final ? final.limit : 0,
    slot: Math.floor(Math.random() * BALANCE_SLOTS),
    at: at.toISOString(),
  };
}

/** PGlite answers a text[] as its literal when the column's type is not known to it: `{a,b}` or `{"a b"}`. */
function parseTextArray(literal: string): string[] {
  const inner = literal.slice(1, -1);
  if (inner === '') return [];
  return inner.split(',').map((v) => (v.startsWith('"') ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v));
}

const ph = (name: string) => sql.placeholder(name);

/**
 * How many balance rows a service account's balances are spread over (docs/ledger.md#locking): each posting moves one,
 * chosen at random, so as many postings through the treasury or `external` as there are slots rarely wait on each
 * other. A customer's account has one row (its entries carry the balances after them; its available balance is read).
 */
export const BALANCE_SLOTS = 16;

// The statement's parts, in order (each a CTE):
// Every lookup is driven by the lists and goes through an index (a lateral or a subquery per row), whatever the plan
// cached for the connection saw of the tables' sizes: a generic plan made while they were small joined whole tables.
// p, l: the postings and their legs; seen: which causes are there; heads: the existing pending transactions that move (their desired status or block
// differs, or an amount is revised) and the final ones; moved: those moved on (re-checked pending under the row lock);
// old_entries: their entries, revised; claimed: the new transactions; deltas: every balance move, moved entries first
// (ord 0), then the new legs in order; service_accounts: new service accounts (never locked: their slots hold their
// balances); balance_rows: where each account's deltas go (itself, or one of its slots); upserted: those rows, created
// or moved in id order, one version each.
export const postingsStatement = () => sql`
  with p as (
    select * from unnest(${ph('pKey')}::text[], ${ph('pId')}::uuid[], ${ph('pType')}::text[], ${ph('pCause')}::uuid[], ${ph('pIntegrator')}::uuid[], ${ph('pDescription')}::text[],
      ${ph('pStatus')}::text[], ${ph('pChain')}::bigint[], ${ph('pBlock')}::bigint[], ${ph('pMined')}::bigint[])
      as p(cause_key, id, cause_type, cause_id, integrator_id, description, status, chain_id, block_number, mined_in)),
  l as (
    select * from unnest(${ph('lKey')}::text[], ${ph('lAccount')}::uuid[], ${ph('lCode')}::text[], ${ph('lKind')}::text[], ${ph('lAsset')}::text[], ${ph('lIntegrator')}::uuid[],
      ${ph('lCustomer')}::uuid[], ${ph('lEntry')}::uuid[], ${ph('lAmount')}::numeric[]) with ordinality
      as l(cause_key, account_id, code, kind, asset, integrator_id, customer_id, entry_id, amount, ord)),
  new_assets as (
    insert into ledger_assets (code, chain_id, address, symbol, decimals)
    select * from unnest(${ph('aCode')}::text[], ${ph('aChain')}::bigint[], ${ph('aAddress')}::text[], ${ph('aSymbol')}::text[], ${ph('aDecimals')}::int[])
    on conflict (code) do nothing),
  final_heads as (
    select id, status, cause_key, block_number from ledger_transactions
    where status = 'pending' and chain_id = ${ph('finalChain')}::bigint and block_number is not null and block_number <= ${ph('finalBlock')}::bigint
      and cause_key <> all(${ph('pKey')}::text[])
    order by block_number, id limit ${ph('finalLimit')}::int for update skip locked),
  seen as materialized (
    select p.cause_key, t.id is not null as there from p left join lateral (select id from ledger_transactions x where x.cause_key = p.cause_key limit 1) t on true),
  heads as (
    select t.id, t.status as was, p.cause_key, p.status, p.block_number as want_block, p.mined_in as want_mined
    from p cross join lateral (select id, status, block_number from ledger_transactions x where x.cause_key = p.cause_key limit 1) t
    where t.status = 'pending' and (p.status <> 'pending' or coalesce(p.block_number, t.block_number) is distinct from t.block_number
      or exists (select 1 from ledger_entries e join l on l.cause_key = p.cause_key and l.account_id = e.ledger_account_id where e.ledger_transaction_id = t.id and e.amount <> l.amount))
    union all
    select f.id, f.status, f.cause_key, 'posted', f.block_number, null from final_heads f),
  moved as (
    update ledger_transactions lt set status = h.status,
      block_number = case when h.status = 'archived' then lt.block_number else coalesce(h.want_block, lt.block_number) end,
      mined_in = coalesce(h.want_mined, case when h.status = 'archived' then lt.block_number else coalesce(h.want_block, lt.block_number) end, lt.mined_in),
      posted_at = case when h.status = 'posted' then ${ph('at')}::timestamptz else lt.posted_at end,
      archived_at = case when h.status = 'archived' then ${ph('at')}::timestamptz else lt.archived_at end,
      updated_at = ${ph('at')}::timestamptz
    from heads h where lt.id = any(array(select id from heads)) and lt.id = h.id and lt.status = h.was
    returning lt.id, h.cause_key, h.status),
  old_entries as (
    select e.id, e.ledger_account_id as account_id, e.amount as was, m.status,
      case when m.status <> 'archived' and l.amount is not null then l.amount else e.amount end as amount
    from moved m join ledger_entries e on e.ledger_transaction_id = m.id
    left join l on l.cause_key = m.cause_key and l.account_id = e.ledger_account_id),
  entries_moved as (
    update ledger_entries e set status = o.status, amount = o.amount, updated_at = ${ph('at')}::timestamptz from old_entries o
    where e.id = o.id and (o.status <> 'pending' or o.amount <> o.was)),
  opened as (
    select p.cause_key from p
    where p.cause_type = 'transaction' and p.mined_in is not null and exists (select 1 from ledger_openings o where o.chain_id = p.chain_id and o.block_number >= p.mined_in)),
  claimed as (
    insert into ledger_transactions (id, cause_key, cause_type, cause_id, integrator_id, description, status, chain_id, block_number, mined_in, effective_at, posted_at, created_at, updated_at)
    select p.id, p.cause_key, p.cause_type, p.cause_id, p.integrator_id, p.description, p.status, p.chain_id, p.block_number, p.mined_in,
      ${ph('at')}::timestamptz, case when p.status = 'posted' then ${ph('at')}::timestamptz end, ${ph('at')}::timestamptz, ${ph('at')}::timestamptz
    from p
    where p.status <> 'archived' and not (select there from seen where seen.cause_key = p.cause_key) and p.cause_key not in (select cause_key from opened)
    on conflict (cause_key) do nothing
    returning id, cause_key, status),
  new_legs as (
    select l.*, c.id as transaction_id, c.status from l join claimed c on c.cause_key = l.cause_key),
  deltas as (
    select o.account_id, 0::bigint as ord,
      case when o.status = 'posted' then o.amount else 0 end as posted,
      o.amount - o.was - case when o.status = 'archived' then o.was else 0 end as pending,
      least(o.amount, 0) - least(o.was, 0) + case when o.status = 'posted' then greatest(o.amount, 0) when o.status = 'archived' then -least(o.was, 0) else 0 end as available
    from old_entries o
    union all
    select n.account_id, n.ord, case when n.status = 'posted' then n.amount else 0 end, n.amount, case when n.status = 'posted' then n.amount else least(n.amount, 0) end
    from new_legs n),
  totals as (
    select account_id, sum(posted) as posted, sum(pending) as pending, sum(available) as available, bool_or(ord > 0) as has_new from deltas group by account_id),
  running as (
    select account_id, ord, sum(posted) over w as posted, sum(pending) over w as pending, sum(available) over w as available
    from deltas window w as (partition by account_id order by ord rows between unbounded preceding and current row)),
  meta as (
    select distinct on (account_id) account_id, code, kind, asset, integrator_id, customer_id from l order by account_id),
  service_accounts as (
    insert into ledger_accounts (id, code, kind, asset, integrator_id, account_id, created_at, updated_at)
    select m.account_id, m.code, m.kind, m.asset, null, null, ${ph('at')}::timestamptz, ${ph('at')}::timestamptz from meta m
    where m.kind <> 'customer'
    on conflict do nothing),
  targets as (
    select t.*, coalesce(m.code, la.code) as code, coalesce(m.kind, la.kind) as kind, coalesce(m.asset, la.asset) as asset,
      coalesce(m.integrator_id, la.integrator_id) as integrator_id, coalesce(m.customer_id, la.account_id) as customer_id
    from totals t left join meta m on m.account_id = t.account_id
    left join lateral (select code, kind, asset, integrator_id, account_id from ledger_accounts x where x.id = t.account_id and m.account_id is null limit 1) la on true
    where t.has_new or t.posted <> 0 or t.pending <> 0 or t.available <> 0),
  balance_rows as (
    select tg.*,
      case when tg.kind = 'customer' then tg.account_id else md5(tg.account_id::text || '#' || ${ph('slot')}::int)::uuid end as balance_id,
      case when tg.kind = 'customer' then tg.code else tg.code || '#' || ${ph('slot')}::int end as balance_code,
      case when tg.kind = 'customer' then null else tg.account_id end as slot_of
    from targets tg),
  -- Arbitrated on the primary key, the unique index a new row enters first (id and code go one to one): with code as
  -- the arbiter, two postings creating the same row at once could meet on the primary key, no arbiter, and fail (23505).
  upserted as (
    insert into ledger_accounts (id, code, kind, asset, integrator_id, account_id, slot_of, posted_balance, pending_balance, available_balance, version, created_at, updated_at)
    select b.balance_id, b.balance_code, b.kind, b.asset, b.integrator_id, b.customer_id, b.slot_of, b.posted, b.pending, b.available, 1, ${ph('at')}::timestamptz, ${ph('at')}::timestamptz
    from balance_rows b
    order by b.balance_id
    on conflict (id) do update set posted_balance = ledger_accounts.posted_balance + excluded.posted_balance, pending_balance = ledger_accounts.pending_balance + excluded.pending_balance,
      available_balance = ledger_accounts.available_balance + excluded.available_balance, version = ledger_accounts.version + 1, updated_at = excluded.updated_at
    returning id, posted_balance, pending_balance, available_balance, version),
  versions as (
    insert into ledger_balance_versions (ledger_account_id, version, posted_balance, pending_balance, available_balance, at)
    select id, version, posted_balance, pending_balance, available_balance, ${ph('at')}::timestamptz from upserted),
  entries as (
    insert into ledger_entries (id, ledger_transaction_id, ledger_account_id, asset, amount, status, posted_after, pending_after, available_after, account_version, created_at, updated_at)
    select n.entry_id, n.transaction_id, n.account_id, n.asset, n.amount, n.status,
      u.posted_balance - t.posted + r.posted, u.pending_balance - t.pending + r.pending, u.available_balance - t.available + r.available, u.version,
      ${ph('at')}::timestamptz, ${ph('at')}::timestamptz
    from new_legs n join running r on r.account_id = n.account_id and r.ord = n.ord join totals t on t.account_id = n.account_id left join upserted u on u.id = n.account_id)
  select (select count(*) from claimed) as created, (select count(*) from moved) as moved,
    array(select p.cause_key from p where p.status <> 'archived' and p.cause_key not in (select cause_key from claimed) and p.cause_key not in (select cause_key from opened)
      and not (select there from seen where seen.cause_key = p.cause_key))::text[] as lost`;

export type { LedgerStatus };
