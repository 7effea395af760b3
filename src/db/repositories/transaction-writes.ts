import { and, eq, getTableColumns, is, isNull, SQL, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { coalesced } from '../coalescer.js';
import { driverValue, insertWrite, type PendingWrite } from '../pending-writes.js';
import { textArrayLiteral } from '../array-literal.js';
import { runShaped } from '../prepared.js';
import { authenticators, transactions, transactionTransitions, usedStampChallenges, type TransactionStatus } from '../schema/index.js';
import type { TransactionRow } from './transactions.js';

// What changes transactions (and the passkey state a signed one uses up); transactions.ts reads them.

/**
 * The row that inserting `values` stores: every column the values leave out takes its default, or null. Known before
 * the insert, so the row's events can be written by the insert's own statement (insertTransactionWrite). A column
 * whose default PostgreSQL computes (now(), a sequence) cannot be foreseen: leaving one out throws.
 */
export function newTransactionRow(values: typeof transactions.$inferInsert): TransactionRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(transactions))) {
    const given = (values as Record<string, unknown>)[key];
    if (given !== undefined) row[key] = given;
    else if (column.defaultFn || is(column.default, SQL)) throw new Error(`newTransactionRow: ${key} is computed on insert; give it`);
    else row[key] = column.hasDefault ? column.default : null;
  }
  return row as TransactionRow;
}

/** Inserts a row (newTransactionRow) with the change's other writes; affects no row when its transactionId is taken. */
export function insertTransactionWrite(row: TransactionRow): PendingWrite {
  return insertWrite(transactions, row, { ignoreConflict: true });
}

/** Inserts unless the id is taken for this integrator; undefined when it is. */
export async function insertTransaction(db: Executor, row: typeof transactions.$inferInsert): Promise<TransactionRow | undefined> {
  const [created] = await db.insert(transactions).values(row).onConflictDoNothing().returning();
  return created;
}

/** Marks a stamp's challenge used: affects no row when it was used already (the unique key; a racing user waits). */
export function useChallengeWrite(row: typeof usedStampChallenges.$inferInsert): PendingWrite {
  return insertWrite(usedStampChallenges, row, { ignoreConflict: true });
}

/** Compare-and-set of the signature counter (docs/passkeys.md): affects no row when another request moved it first. */
export function advanceSignCountWrite(integratorId: string, authenticatorId: string, from: number, to: number): PendingWrite {
  return {
    shape: 'advance a sign counter',
    sql: (db, slot) =>
      db
        .update(authenticators)
        .set({ signCount: slot('to') })
        .where(and(eq(authenticators.integratorId, slot('integratorId')), eq(authenticators.id, slot('id')), eq(authenticators.signCount, slot('from'))))
        .returning({ id: authenticators.id })
        .getSQL(),
    values: { integratorId, id: authenticatorId, from, to },
  };
}

/** Rows of transactions' audit trail, to be written with their events (appendEvents' `alongside`). */
export function transactionTransitionsWrite(rows: (typeof transactionTransitions.$inferInsert)[]): PendingWrite {
  const columns = Object.entries(getTableColumns(transactionTransitions));
  const list = sql.join(columns.map(([, column]) => sql.identifier(column.name)), sql`, `);
  return {
    // Any number of rows under one shape: they go as one JSON value, read back as the table's own record type.
    shape: 'insert transaction transitions',
    sql: (_db, slot) => sql`insert into ${transactionTransitions} (${list}) select ${list} from jsonb_populate_recordset(null::transaction_transitions, ${slot('rows')}::jsonb) returning id`,
    values: { rows: JSON.stringify(rows.map((row) => Object.fromEntries(columns.map(([key, column]) => [column.name, driverValue(column, (row as Record<string, unknown>)[key])])))) },
  };
}

/** Moves a transaction out of `from` with `patch`; undefined when it is no longer in `from` (another process moved it first). */
export async function moveTransaction(
  db: Executor,
  id: string,
  from: TransactionStatus,
  patch: Partial<typeof transactions.$inferInsert>,
  options: { unsignedPayoutOnly?: boolean } = {},
): Promise<TransactionRow | undefined> {
  const where = [eq(transactions.id, id), eq(transactions.status, from)];
  // A deposit whose payout is signed may be on its way to the node: some moves must not race with that.
  if (options.unsignedPayoutOnly) where.push(isNull(transactions.payoutRaw));
  const [row] = await db
    .update(transactions)
    .set(patch)
    .where(and(...where))
    .returning();
  return row;
}

/** How one processing transaction settles (the watcher's round): its new status, and what its receipt says. */
export interface Settled {
  id: string;
  status: TransactionStatus;
  receipt?: unknown;
  failureReason?: string;
  vault?: unknown;
}

/**
 * Moves each of `settled` out of processing in one statement (a receipt, failure reason or vault result replaces
 * the stored one when given), clearing the signed bytes: mined or failed, never sent again. Answers the rows moved;
 * one no longer processing (another process settled it first) is not among them.
 */
export async function settleProcessing(db: Executor, settled: Settled[], at: Date): Promise<TransactionRow[]> {
  if (settled.length === 0) return [];
  const input = JSON.stringify(settled.map((s) => ({ id: s.id, status: s.status, receipt: s.receipt ?? null, failure_reason: s.failureReason ?? null, vault: s.vault ?? null })));
  return db
    .update(transactions)
    .set({
      status: sql`s.status`,
      receipt: sql`coalesce(s.receipt, ${transactions.receipt})`,
      failureReason: sql`coalesce(s.failure_reason, ${transactions.failureReason})`,
      vault: sql`coalesce(s.vault, ${transactions.vault})`,
      signedRaw: null,
      updatedAt: at,
    })
    .from(sql`jsonb_to_recordset(${input}::jsonb) as s(id uuid, status text, receipt jsonb, failure_reason text, vault jsonb)`)
    .where(and(eq(transactions.id, sql`s.id`), eq(transactions.status, 'processing')))
    .returning(getTableColumns(transactions));
}

/**
 * The node accepted these committed transactions (docs/transactions.md#sending): their signed bytes are no longer
 * kept, and broadcastedAt says when. For each, whether it was still waiting (false: another process sent or settled
 * it first).
 */
async function markAllSent(db: Executor, marks: { id: string; at: Date }[]): Promise<boolean[]> {
  const rows = await runShaped<{ id: string }>(
    db,
    'mark transactions sent',
    () => sql`
      update transactions t set signed_raw = null, broadcasted_at = m.at
      from unnest(${sql.placeholder('ids')}::uuid[], ${sql.placeholder('ats')}::timestamptz[]) as m(id, at)
      where t.id = m.id and t.status = 'processing' and t.signed_raw is not null
      returning t.id`,
    { ids: textArrayLiteral(marks.map((m) => m.id)), ats: textArrayLiteral(marks.map((m) => m.at.toISOString())) },
  );
  const marked = new Set(rows.map((r) => r.id));
  // A row marked once: the same id twice in one batch (two senders of one transaction) is the first's.
  const seen = new Set<string>();
  return marks.map((m) => marked.has(m.id) && !seen.has(m.id) && (seen.add(m.id), true));
}

const markSentCoalesced = coalesced(markAllSent);

/** markAllSent for one transaction; the request path's concurrent marks go in one statement (coalescer.ts). */
export function markSent(db: Executor, id: string, at: Date): Promise<boolean> {
  return markSentCoalesced(db, { id, at });
}
