import { and, asc, eq, gt, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { textArrayLiteral } from '../array-literal.js';
import { selectRows, type Executor } from '../database.js';
import { spendingPolicies, spendingPolicyChanges } from '../schema/index.js';

export type PolicyRow = typeof spendingPolicies.$inferSelect;

export async function insertPolicy(db: Executor, row: typeof spendingPolicies.$inferInsert): Promise<PolicyRow> {
  const [inserted] = await db.insert(spendingPolicies).values(row).returning();
  return inserted!;
}

/** The integrator's policy, deleted ones included (another integrator's is not found). */
export async function findPolicy(db: Executor, integratorId: string, id: string, options: { lock?: boolean } = {}): Promise<PolicyRow | undefined> {
  const query = db
    .select()
    .from(spendingPolicies)
    .where(and(eq(spendingPolicies.integratorId, integratorId), eq(spendingPolicies.id, id)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** The integrator's live policies after `startingAfter`, oldest first: `limit + 1` rows so the caller knows whether more follow. */
export function listLivePolicies(db: Executor, integratorId: string, options: { limit: number; startingAfter?: string; accountId?: string }): Promise<PolicyRow[]> {
  return db
    .select()
    .from(spendingPolicies)
    .where(
      and(
        eq(spendingPolicies.integratorId, integratorId),
        isNull(spendingPolicies.deletedAt),
        options.accountId ? eq(spendingPolicies.accountId, options.accountId) : undefined,
        options.startingAfter ? gt(spendingPolicies.id, options.startingAfter) : undefined,
      ),
    )
    .orderBy(asc(spendingPolicies.id))
    .limit(options.limit + 1);
}

/** The live policies covering an account: its own and the integrator-wide ones, oldest first (the evaluation's input). */
export function policiesCovering(db: Executor, integratorId: string, accountId: string): Promise<PolicyRow[]> {
  return db
    .select()
    .from(spendingPolicies)
    .where(and(eq(spendingPolicies.integratorId, integratorId), isNull(spendingPolicies.deletedAt), or(isNull(spendingPolicies.accountId), eq(spendingPolicies.accountId, accountId))))
    .orderBy(asc(spendingPolicies.id));
}

/** Which live policies cover an account (as in policiesCovering), in SQL: the statements below share it. */
const covering = (integratorId: string, accountId: string) =>
  sql`select id from spending_policies where integrator_id = ${integratorId} and deleted_at is null and (account_id is null or account_id = ${accountId})`;

/** Rules of policies by id, deleted ones included (a policy's rules never change): what the enforcement has not compiled yet. */
export function policyRules(db: Executor, ids: string[]): Promise<{ id: string; rules: unknown }[]> {
  return db.select({ id: spendingPolicies.id, rules: spendingPolicies.rules }).from(spendingPolicies).where(inArray(spendingPolicies.id, ids));
}

/**
 * Whether a live policy covers the account and, when one does, the transaction-scoped advisory lock `lockKey` taken,
 * in one statement (the enforcement's, before it reads the window sums under that lock).
 */
export async function lockIfCovered(db: Executor, integratorId: string, accountId: string, lockKey: string): Promise<boolean> {
  const [row] = await selectRows<{ covered: boolean }>(
    db,
    sql`with c as (select exists (${covering(integratorId, accountId)}) as covered)
        select covered, case when covered then pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))::text end as locked from c`,
  );
  return row?.covered === true;
}

/** What a judgement reads besides the policies: window sums and destinations' standing (readCoveringSpending). */
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

/** The scalar subqueries of a SpendingFactsQuery, each a column (s0…, u0…, b0…), each only when a live policy covers the account. */
function factColumns(q: SpendingFactsQuery, guard: SQL | undefined): SQL[] {
  const excluded = q.excluding?.length ? sql` and r.id <> all(${textArrayLiteral(q.excluding)}::uuid[])` : sql``;
  const when = (column: SQL, name: string) => (guard ? sql`case when ${guard} then ${column} end as ${sql.raw(name)}` : sql`${column} as ${sql.raw(name)}`);
  return [
    ...q.sums.map((w, i) =>
      when(
        sql`(select coalesce(sum(r.amount), 0)::text from policy_reservations r where r.account_id = ${q.accountId} and r.chain_id = ${q.chainId}
              and r.asset = ${w.asset} and r.released_at is null and r.reserved_at > ${w.since.toISOString()}::timestamptz${excluded})`,
        `s${i}`,
      ),
    ),
    ...q.destinations.flatMap((d, i) => [
      when(
        sql`exists (select 1 from transactions t where t.account_id = ${q.accountId} and t.status <> 'failed' and t.kind <> 'incoming'
              and (lower(t.to_address) = ${d} or lower(t.token_transfer->>'to') = ${d}))`,
        `u${i}`,
      ),
      when(sql`(select (extract(epoch from b.usable_at) * 1000)::bigint::text from address_book_entries b where b.account_id = ${q.accountId} and b.address = ${d})`, `b${i}`),
    ]),
  ];
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

/**
 * In one statement, the ids of the live policies covering the account, oldest first, and, when there is one, the
 * window sums (one range scan of policy_reservations_window_idx each) and destinations' standing (the account's
 * transactions, then one probe of its address book) asked for. Without a policy it reads the policies' index only.
 *
 * With `reserve` (the caller holds the account's lock) the same statement also reserves those rows when a policy covers
 * the account (a transaction's asset once: a retry's row stands); the sums it reads do not include them (a statement
 * does not see its own writes), and `reserved` names the rows it inserted, for the caller to take back on a refusal.
 */
export async function readCoveringSpending(
  db: Executor,
  q: SpendingFactsQuery & { integratorId: string; reserve?: ReservationRow[] },
): Promise<SpendingFacts & { ids: string[]; reserved: string[] }> {
  const facts = factColumns(q, sql`exists (select 1 from live)`);
  const reserve = q.reserve ?? [];
  const values = reserve.map(
    (r) => sql`(${r.id}::uuid, ${r.integratorId}::uuid, ${r.accountId}::uuid, ${r.chainId}::int, ${r.asset}, ${r.transactionId}::uuid, ${r.amount.toString()}::numeric, ${r.at.toISOString()}::timestamptz)`,
  );
  const inserted =
    values.length > 0
      ? sql`, ins as (insert into policy_reservations (id, integrator_id, account_id, chain_id, asset, transaction_id, amount, reserved_at)
            select * from (values ${sql.join(values, sql`, `)}) v where exists (select 1 from live)
            on conflict (transaction_id, chain_id, asset) do nothing returning id)`
      : sql``;
  const [row] = await selectRows<Record<string, unknown>>(
    db,
    sql`with live as (${covering(q.integratorId, q.accountId)})${inserted}
        select (select coalesce(json_agg(id order by id), '[]'::json) from live) as ids
          ${values.length > 0 ? sql`, (select coalesce(json_agg(id), '[]'::json) from ins) as reserved` : sql``}${facts.length > 0 ? sql`, ${sql.join(facts, sql`, `)}` : sql``}`,
  );
  const json = (v: unknown): string[] => (v === undefined ? [] : typeof v === 'string' ? (JSON.parse(v) as string[]) : (v as string[]));
  return { ids: json(row!.ids), reserved: json(row!.reserved), ...factsOf(q, row!) };
}

/** The sums and standings of a SpendingFactsQuery alone, in one statement (what readCoveringSpending was not asked for). */
export async function readSpendingFacts(db: Executor, q: SpendingFactsQuery): Promise<SpendingFacts> {
  const columns = factColumns(q, undefined);
  if (columns.length === 0) return { sums: new Map(), standings: new Map() };
  const [row] = await selectRows<Record<string, unknown>>(db, sql`select ${sql.join(columns, sql`, `)}`);
  return factsOf(q, row!);
}

/** Marks a live policy deleted; undefined when it was deleted already. */
export async function markPolicyDeleted(db: Executor, id: string, at: Date): Promise<PolicyRow | undefined> {
  const [row] = await db
    .update(spendingPolicies)
    .set({ deletedAt: at })
    .where(and(eq(spendingPolicies.id, id), isNull(spendingPolicies.deletedAt)))
    .returning();
  return row;
}

export async function insertPolicyChange(db: Executor, row: typeof spendingPolicyChanges.$inferInsert): Promise<void> {
  await db.insert(spendingPolicyChanges).values(row);
}
