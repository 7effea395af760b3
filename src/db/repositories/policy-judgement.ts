import { inArray, sql, type SQL } from 'drizzle-orm';
import { textArrayLiteral } from '../array-literal.js';
import type { Executor } from '../database.js';
import { runShaped } from '../prepared.js';
import { spendingPolicies } from '../schema/index.js';

// What judging a transaction against spending policies reads (docs/policies.md#data-model-for-the-enforcement), in as
// few statements as it can: each a named prepared statement of its shape (src/db/prepared.ts: how many sums,
// destinations and reservations), so neither drizzle nor PostgreSQL compiles it per call.

const p = (name: string) => sql.placeholder(name);

/** The live policies covering an account (as policiesCovering): its own and the integrator-wide ones. */
const covering = sql`select id from spending_policies where integrator_id = ${p('integrator')} and deleted_at is null and (account_id is null or account_id = ${p('account')})`;

/** Rules of policies by id, deleted ones included (a policy's rules never change): what the enforcement has not compiled yet. */
export function policyRules(db: Executor, ids: string[]): Promise<{ id: string; rules: unknown }[]> {
  return db.select({ id: spendingPolicies.id, rules: spendingPolicies.rules }).from(spendingPolicies).where(inArray(spendingPolicies.id, ids));
}

/**
 * Whether a live policy covers the account and, when one does, the transaction-scoped advisory lock `lockKey` taken,
 * in one statement (the enforcement's, before the statement that reads the window sums under that lock).
 */
export async function lockIfCovered(db: Executor, integratorId: string, accountId: string, lockKey: string): Promise<boolean> {
  const [row] = await runShaped<{ covered: boolean }>(
    db,
    'spending lock',
    () => sql`with c as (select exists (${covering}) as covered)
      select covered, case when covered then pg_advisory_xact_lock(hashtextextended(${p('key')}, 0))::text end as locked from c`,
    { integrator: integratorId, account: accountId, key: lockKey },
  );
  return row?.covered === true;
}

/** What a judgement reads besides the policies: window sums and destinations' standing. */
export interface SpendingFactsQuery {
  accountId: string;
  chainId: number;
  /** Unreleased base units reserved of an asset (policy_reservations.asset) after `since`, by `asset:window`. */
  sums: { asset: string; window: string; since: Date }[];
  /** Destinations (lower case) whose standing to read. */
  destinations: string[];
  /** Reservations the sums leave out (those the judgement made in an earlier statement). */
  excluding?: string[];
}

export interface SpendingFacts {
  sums: Map<string, bigint>;
  /** Sent to before by the account (a transaction that did not fail), and its address book entry's usable_at. */
  standings: Map<string, { used: boolean; usableAt?: Date }>;
}

/** Fills `values` with a SpendingFactsQuery's placeholders (factColumns names them): done per call, cheaply. */
function factValues(q: SpendingFactsQuery, values: Record<string, unknown>): void {
  values.account = q.accountId;
  values.chain = q.chainId;
  if (q.excluding?.length) values.excluding = textArrayLiteral(q.excluding);
  for (const [i, w] of q.sums.entries()) {
    values[`s${i}asset`] = w.asset;
    values[`s${i}since`] = w.since.toISOString();
  }
  for (const [i, d] of q.destinations.entries()) values[`d${i}`] = d;
}

/**
 * The scalar subqueries of a SpendingFactsQuery, one column each (s0…, u0…, b0…): one range scan of
 * policy_reservations_window_idx per sum, the account's transactions then one address book probe per destination.
 * With `guard`, each only when a live policy covers the account. Built only when its shape is first compiled
 * (runShaped's builder): building drizzle's SQL on every judgement cost more than sending the statement.
 */
function factColumns(q: SpendingFactsQuery, guard: SQL | undefined): SQL[] {
  const excluded = q.excluding?.length ? sql` and r.id <> all(${p('excluding')}::uuid[])` : sql``;
  const when = (column: SQL, name: string) => (guard ? sql`case when ${guard} then ${column} end as ${sql.raw(name)}` : sql`${column} as ${sql.raw(name)}`);
  const sums = q.sums.map((_, i) =>
    when(
      sql`(select coalesce(sum(r.amount), 0)::text from policy_reservations r where r.account_id = ${p('account')} and r.chain_id = ${p('chain')}
            and r.asset = ${p(`s${i}asset`)} and r.released_at is null and r.reserved_at > ${p(`s${i}since`)}::timestamptz${excluded})`,
      `s${i}`,
    ),
  );
  const standings = q.destinations.flatMap((_, i) => [
    when(
      sql`exists (select 1 from transactions t where t.account_id = ${p('account')} and t.status <> 'failed' and t.kind <> 'incoming'
            and (lower(t.to_address) = ${p(`d${i}`)} or lower(t.token_transfer->>'to') = ${p(`d${i}`)}))`,
      `u${i}`,
    ),
    when(sql`(select (extract(epoch from b.usable_at) * 1000)::bigint::text from address_book_entries b where b.account_id = ${p('account')} and b.address = ${p(`d${i}`)})`, `b${i}`),
  ]);
  return [...sums, ...standings];
}

function factsOf(q: SpendingFactsQuery, row: Record<string, unknown>): SpendingFacts {
  const sums = new Map<string, bigint>();
  for (const [i, w] of q.sums.entries()) if (row[`s${i}`] != null) sums.set(`${w.asset}:${w.window}`, BigInt(row[`s${i}`] as string));
  const standings = new Map<string, { used: boolean; usableAt?: Date }>();
  for (const [i, d] of q.destinations.entries()) {
    if (row[`u${i}`] == null) continue;
    const usableAt = row[`b${i}`] as string | null;
    standings.set(d, usableAt == null ? { used: row[`u${i}`] === true } : { used: row[`u${i}`] === true, usableAt: new Date(Number(usableAt)) });
  }
  return { sums, standings };
}

/** A reservation taken with the read (readCoveringSpending): what a transaction moves of an asset, in base units. */
export interface ReservationRow {
  id: string;
  integratorId: string;
  accountId: string;
  chainId: number;
  asset: string;
  transactionId: string;
  amount: bigint;
  at: Date;
}

const json = (v: unknown): string[] => (v == null ? [] : typeof v === 'string' ? (JSON.parse(v) as string[]) : (v as string[]));

/**
 * In one statement, the ids of the live policies covering the account, oldest first, and, when there is one, the
 * window sums and destinations' standing asked for. Without a policy it reads the policies' index only.
 *
 * With `reserve` (the caller holds the account's lock) the same statement also reserves those rows when a policy covers
 * the account (a transaction's asset once: a retry's row stands); the sums it reads do not include them (a statement
 * does not see its own writes), and `reserved` names the rows it inserted, for the caller to take back on a refusal.
 */
export async function readCoveringSpending(
  db: Executor,
  q: SpendingFactsQuery & { integratorId: string; reserve?: ReservationRow[] },
): Promise<SpendingFacts & { ids: string[]; reserved: string[] }> {
  const values: Record<string, unknown> = { integrator: q.integratorId };
  factValues(q, values);
  const reserve = q.reserve ?? [];
  for (const [i, r] of reserve.entries()) {
    values[`r${i}id`] = r.id;
    values[`r${i}asset`] = r.asset;
    values[`r${i}tx`] = r.transactionId;
    values[`r${i}amount`] = r.amount.toString();
    values[`r${i}at`] = r.at.toISOString();
  }
  const hasFacts = q.sums.length + q.destinations.length > 0;
  const shape = `spending read ${q.sums.length} ${q.destinations.length} ${reserve.length} ${q.excluding?.length ? 'x' : ''}`;
  const [row] = await runShaped<Record<string, unknown>>(
    db,
    shape,
    () => {
      const rows = reserve.map(
        (_, i) =>
          sql`(${p(`r${i}id`)}::uuid, ${p('integrator')}::uuid, ${p('account')}::uuid, ${p('chain')}::int, ${p(`r${i}asset`)}::text, ${p(`r${i}tx`)}::uuid, ${p(`r${i}amount`)}::numeric, ${p(`r${i}at`)}::timestamptz)`,
      );
      return sql`with live as (${covering})${
        rows.length > 0
          ? sql`, ins as (insert into policy_reservations (id, integrator_id, account_id, chain_id, asset, transaction_id, amount, reserved_at)
            select * from (values ${sql.join(rows, sql`, `)}) v where exists (select 1 from live)
            on conflict (transaction_id, chain_id, asset) do nothing returning id)`
          : sql``
      }
      select (select coalesce(json_agg(id order by id), '[]'::json) from live) as ids${rows.length > 0 ? sql`, (select coalesce(json_agg(id), '[]'::json) from ins) as reserved` : sql``}${
        hasFacts ? sql`, ${sql.join(factColumns(q, sql`exists (select 1 from live)`), sql`, `)}` : sql``
      }`;
    },
    values,
  );
  return { ids: json(row!.ids), reserved: json(row!.reserved), ...factsOf(q, row!) };
}

/** The sums and standings of a SpendingFactsQuery alone, in one statement (what readCoveringSpending was not asked for). */
export async function readSpendingFacts(db: Executor, q: SpendingFactsQuery): Promise<SpendingFacts> {
  if (q.sums.length + q.destinations.length === 0) return { sums: new Map(), standings: new Map() };
  const values: Record<string, unknown> = {};
  factValues(q, values);
  const [row] = await runShaped<Record<string, unknown>>(db, `spending facts ${q.sums.length} ${q.destinations.length} ${q.excluding?.length ? 'x' : ''}`, () => sql`select ${sql.join(factColumns(q, undefined), sql`, `)}`, values);
  return factsOf(q, row!);
}
