import { and, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import { textArrayLiteral } from '../array-literal.js';
import { selectRows, type Executor } from '../database.js';
import { operatorEvents, reconciliationBreaks, reconciliationExceptions, reconciliationRuns, statementMatches, type ExpectedKind, type ReconciliationKind } from '../schema/index.js';

// Reconciliation's reads and writes (docs/reconciliation.md).

export type RunRow = typeof reconciliationRuns.$inferSelect;
export type BreakRow = typeof reconciliationBreaks.$inferSelect;
export type ExceptionRow = typeof reconciliationExceptions.$inferSelect;
export type MatchRow = typeof statementMatches.$inferSelect;

/**
 * What the ledger says each account held at `block` of a chain: its posted balance, less what was posted from blocks
 * after it, plus what is still pending from blocks at or before it (mined, not yet final). By ledger account code;
 * an account not there held nothing.
 */
export async function ledgerFiguresAt(db: Executor, chainId: number, block: number, codes: string[]): Promise<Map<string, bigint>> {
  if (codes.length === 0) return new Map();
  const rows = await selectRows<{ code: string; figure: string }>(
    db,
    sql`with moving as (
          select e.ledger_account_id as id, sum(case when t.status = 'posted' then -e.amount else e.amount end) as amount
          from ledger_transactions t join ledger_entries e on e.ledger_transaction_id = t.id
          where t.chain_id = ${chainId} and t.mined_in is not null
            and ((t.status = 'posted' and t.mined_in > ${block}) or (t.status = 'pending' and t.mined_in <= ${block}))
          group by e.ledger_account_id)
        select la.code, (la.posted_balance + coalesce((select sum(x.posted_balance) from ledger_accounts x where x.slot_of = la.id), 0) + coalesce(m.amount, 0))::text as figure
        from ledger_accounts la left join moving m on m.id = la.id
        where la.code = any(${textArrayLiteral(codes)}::text[])`,
  );
  return new Map(rows.map((r) => [r.code, BigInt(r.figure)]));
}

/** An expected movement of the bank account, as the statement matcher takes it (before its id is prefixed). */
export interface ExpectedRow {
  kind: ExpectedKind;
  id: string;
  reference: string;
  amount: string;
  currency: string;
  at: Date;
  matched: boolean;
}

/**
 * What the service expects on the treasury's bank account between two times (or under one reference): deposits whose
 * funds it recorded (their fiat posting's time), payouts the bank paid (sent, or settled without a sent step) and
 * returned payouts that were sent (their return). Each says whether a statement line is matched to it already.
 */
export async function expectedMovements(db: Executor, within: { from: Date; to: Date } | { reference: string }): Promise<ExpectedRow[]> {
  const between = (at: SQL) => ('reference' in within ? sql`true` : sql`${at} between ${within.from.toISOString()}::timestamptz and ${within.to.toISOString()}::timestamptz`);
  const named = (column: SQL) => ('reference' in within ? sql`${column} = ${within.reference}` : sql`true`);
  const rows = await selectRows<ExpectedRow>(
    db,
    sql`select 'deposit' as kind, d.id, d.deposit_reference as reference, d.received_amount as amount, d.deposit_currency as currency,
          coalesce(lt.effective_at, d.updated_at) as at, exists (select 1 from statement_matches m where m.expected_kind = 'deposit' and m.expected_id = d.id) as matched
        from transactions d left join ledger_transactions lt on lt.cause_key = 'transaction:' || d.id || ':fiat'
        where d.kind = 'deposit' and d.received_amount is not null and ${between(sql`coalesce(lt.effective_at, d.updated_at)`)} and ${named(sql`d.deposit_reference`)}
      union all
        select 'payout', p.id, p.reference, p.amount, p.currency, coalesce(p.sent_at, p.settled_at),
          exists (select 1 from statement_matches m where m.expected_kind = 'payout' and m.expected_id = p.id)
        from withdrawal_payouts p
        where (p.sent_at is not null or p.status = 'settled') and ${between(sql`coalesce(p.sent_at, p.settled_at)`)} and ${named(sql`p.reference`)}
      union all
        select 'payout_return', p.id, p.reference, p.amount, p.currency, p.returned_at,
          exists (select 1 from statement_matches m where m.expected_kind = 'payout_return' and m.expected_id = p.id)
        from withdrawal_payouts p
        where p.status = 'returned' and p.sent_at is not null and ${between(sql`p.returned_at`)} and ${named(sql`p.reference`)}`,
  );
  return rows.map((r) => ({ ...r, at: new Date(r.at) }));
}

export async function insertRun(db: Executor, row: typeof reconciliationRuns.$inferInsert): Promise<RunRow | undefined> {
  const [inserted] = await db.insert(reconciliationRuns).values(row).onConflictDoNothing().returning();
  return inserted;
}

export async function findRunByStatement(db: Executor, hash: string): Promise<RunRow | undefined> {
  const [row] = await db.select().from(reconciliationRuns).where(eq(reconciliationRuns.statementHash, hash));
  return row;
}

export async function findRun(db: Executor, id: string): Promise<RunRow | undefined> {
  const [row] = await db.select().from(reconciliationRuns).where(eq(reconciliationRuns.id, id));
  return row;
}

/** Runs newest first, before `before`, optionally of one kind: one more than `limit`. */
export function listRuns(db: Executor, options: { kind?: ReconciliationKind; before?: string; limit: number }): Promise<RunRow[]> {
  const where = and(options.kind ? eq(reconciliationRuns.kind, options.kind) : undefined, options.before ? lt(reconciliationRuns.id, options.before) : undefined);
  return db.select().from(reconciliationRuns).where(where).orderBy(desc(reconciliationRuns.id)).limit(options.limit + 1);
}

export async function insertBreaks(db: Executor, rows: (typeof reconciliationBreaks.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await db.insert(reconciliationBreaks).values(rows);
}

export async function insertExceptions(db: Executor, rows: (typeof reconciliationExceptions.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await db.insert(reconciliationExceptions).values(rows);
}

/** Matches recorded; those whose movement another statement matched meanwhile are not (their keys are answered). */
export async function insertMatches(db: Executor, rows: (typeof statementMatches.$inferInsert)[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const inserted = await db.insert(statementMatches).values(rows).onConflictDoNothing().returning({ kind: statementMatches.expectedKind, id: statementMatches.expectedId });
  const done = new Set(inserted.map((r) => `${r.kind}:${r.id}`));
  return new Set(rows.map((r) => `${r.expectedKind}:${r.expectedId}`).filter((k) => !done.has(k)));
}

export const breaksOf = (db: Executor, runId: string) => db.select().from(reconciliationBreaks).where(eq(reconciliationBreaks.runId, runId)).orderBy(reconciliationBreaks.ledgerAccountCode);
export const exceptionsOf = (db: Executor, runId: string) => db.select().from(reconciliationExceptions).where(eq(reconciliationExceptions.runId, runId)).orderBy(reconciliationExceptions.id);
export const matchesOf = (db: Executor, runId: string) => db.select().from(statementMatches).where(eq(statementMatches.runId, runId)).orderBy(statementMatches.id);

export async function findBreak(db: Executor, runId: string, id: string, options: { lock?: boolean } = {}): Promise<BreakRow | undefined> {
  const query = db.select().from(reconciliationBreaks).where(and(eq(reconciliationBreaks.runId, runId), eq(reconciliationBreaks.id, id)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function findException(db: Executor, runId: string, id: string, options: { lock?: boolean } = {}): Promise<ExceptionRow | undefined> {
  const query = db.select().from(reconciliationExceptions).where(and(eq(reconciliationExceptions.runId, runId), eq(reconciliationExceptions.id, id)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function updateBreak(db: Executor, id: string, patch: Partial<typeof reconciliationBreaks.$inferInsert>): Promise<BreakRow> {
  const [row] = await db.update(reconciliationBreaks).set(patch).where(eq(reconciliationBreaks.id, id)).returning();
  return row!;
}

export async function updateException(db: Executor, id: string, patch: Partial<typeof reconciliationExceptions.$inferInsert>): Promise<ExceptionRow> {
  const [row] = await db.update(reconciliationExceptions).set(patch).where(eq(reconciliationExceptions.id, id)).returning();
  return row!;
}

/** Open breaks of each chain's latest run and open exceptions of every bank run (the metrics' gauges). */
export async function openCounts(db: Executor): Promise<{ breaks: number; exceptions: number }> {
  const [row] = await selectRows<{ breaks: number; exceptions: number }>(
    db,
    sql`select (select count(*) from reconciliation_breaks b where b.status = 'open'
                and b.run_id = (select id from reconciliation_runs where kind = 'chain' order by id desc limit 1))::int as breaks,
               (select count(*) from reconciliation_exceptions where status = 'open')::int as exceptions`,
  );
  return { breaks: Number(row?.breaks ?? 0), exceptions: Number(row?.exceptions ?? 0) };
}

/** The latest run of a kind (the scheduler's question: is one due?). */
export async function latestRun(db: Executor, kind: ReconciliationKind): Promise<RunRow | undefined> {
  const [row] = await db.select().from(reconciliationRuns).where(eq(reconciliationRuns.kind, kind)).orderBy(desc(reconciliationRuns.id)).limit(1);
  return row;
}

export async function insertOperatorEvent(db: Executor, row: typeof operatorEvents.$inferInsert): Promise<void> {
  await db.insert(operatorEvents).values(row);
}

export function listOperatorEvents(db: Executor, options: { type?: string; before?: string; limit: number }) {
  const where = and(options.type ? eq(operatorEvents.type, options.type) : undefined, options.before ? lt(operatorEvents.id, options.before) : undefined);
  return db.select().from(operatorEvents).where(where).orderBy(desc(operatorEvents.id)).limit(options.limit + 1);
}
