import { and, asc, desc, eq, getTableColumns, is, isNull, lt, ne, SQL, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { coalesced } from '../coalescer.js';
import { driverValue, insertWrite, type PendingWrite } from '../pending-writes.js';
import { textArrayLiteral } from '../array-literal.js';
import { preparedStatement, runShaped } from '../prepared.js';
import { authenticators, transactions, transactionTransitions, usedStampChallenges, wallets, type accounts, type TransactionStatus, type VerificationStatus } from '../schema/index.js';
import { submissionContext } from './submission-context-query.js';

export type TransactionRow = typeof transactions.$inferSelect;
export type WalletRow = typeof wallets.$inferSelect;
export type AccountRowWithStatus = typeof accounts.$inferSelect & { verificationStatus: VerificationStatus | null };

const transactionById = preparedStatement<{ integratorId: string; transactionId: string }, TransactionRow[]>('find_transaction', (db) =>
  db
    .select()
    .from(transactions)
    .where(and(eq(transactions.integratorId, sql.placeholder('integratorId')), eq(transactions.transactionId, sql.placeholder('transactionId')))),
);

export async function findTransaction(db: Executor, integratorId: string, transactionId: string): Promise<TransactionRow | undefined> {
  const [row] = await transactionById(db, { integratorId, transactionId });
  return row;
}

/** What a submission is checked against, in one statement: the signing account, its wallet, its choice of the product. */
export interface SigningContext {
  account: AccountRowWithStatus;
  /** Custodial accounts' wallet (null for self-custodial ones). */
  wallet: WalletRow | null;
  /** The account's row for the product asked about; null while the product's default applies. */
  productStatus: 'enabled' | 'disabled' | null;
}

/** A passkey of a user and whether a challenge was used already (findUserAuthenticator's answer). */
export type UserAuthenticator = typeof authenticators.$inferSelect & { challengeUsed: boolean };

/** The passkey a submission's stamp names, read with the submission (findSubmissionContext's `passkey`). */
export interface PasskeyRead {
  /** Whose passkeys were searched: the account's user, or for an entity wallet the acting member. */
  userId: string | null;
  credentialId: string;
  challenge: string;
  /** Null when that user has no passkey under credentialId. */
  authenticator: UserAuthenticator | null;
}

/** A submission's reads: the transaction already under its transactionId, the signing context, the stamp's passkey. */
export interface SubmissionContext {
  earlier: TransactionRow | undefined;
  signing: SigningContext | undefined;
  /** Read when asked for (`passkey` of findSubmissionContext). */
  passkey?: PasskeyRead;
}

/**
 * The transaction under `transactionId` (a replay, or a prepared one approved now) and the signing context, in one
 * round trip: the account a signedBody names (by its custody organizationId, else a self-custodial account holding
 * signWith), with its wallet and its row for the product, which is `productOfKind` of the earlier transaction's kind,
 * else `defaultProduct`.
 */
export async function findSubmissionContext(
  db: Executor,
  where: { integratorId: string; transactionId: string; organizationId: string | null; signWith: string; actingUserId?: string },
  products: { productOfKind: Record<string, string>; defaultProduct: string },
  passkey?: { credentialId: string; challenge: string },
): Promise<SubmissionContext> {
  const [row] = await submissionContext(db, {
    ...where,
    productOfKind: JSON.stringify(products.productOfKind),
    defaultProduct: products.defaultProduct,
    // Not a UUID: no user (the submission fails on it before any approval).
    actingUserId: where.actingUserId && UUID_TEXT.test(where.actingUserId) ? where.actingUserId : null,
    credentialId: passkey?.credentialId ?? null,
    challenge: passkey?.challenge ?? null,
  });
  return {
    earlier: row?.earlier ?? undefined,
    signing: row?.account ? { account: { ...row.account, verificationStatus: row.verificationStatus }, wallet: row.wallet, productStatus: row.productStatus as SigningContext['productStatus'] } : undefined,
    ...(passkey ? { passkey: { ...passkey, userId: row?.approverId ?? null, authenticator: row?.authenticator ? { ...row.authenticator, challengeUsed: row.challengeUsed } : null } } : {}),
  };
}

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findWalletOfAccount(db: Executor, accountId: string, options: { lock?: boolean } = {}): Promise<WalletRow | undefined> {
  const query = db.select().from(wallets).where(eq(wallets.accountId, accountId));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/**
 * The passkey a stamp names, among this integrator's user's own: credential ids are unique per integrator
 * only, so the lookup is always scoped by integrator and user (another integrator's row with the same id is
 * never found).
 */
const userAuthenticator = preparedStatement<{ integratorId: string; userId: string; credentialId: string; challenge: string }, { authenticator: typeof authenticators.$inferSelect; challengeUsed: boolean }[]>('find_user_authenticator', (db) =>
  db
    .select({
      authenticator: authenticators,
      challengeUsed: sql<boolean>`exists (select 1 from ${usedStampChallenges} where ${usedStampChallenges.integratorId} = ${authenticators.integratorId} and ${usedStampChallenges.challenge} = ${sql.placeholder('challenge')})`,
    })
    .from(authenticators)
    .where(and(eq(authenticators.integratorId, sql.placeholder('integratorId')), eq(authenticators.userId, sql.placeholder('userId')), eq(authenticators.credentialId, sql.placeholder('credentialId')))),
);

/**
 * The passkey a stamp names, among this integrator's user's own, and whether `challenge` (the stamped body's) was
 * used already (one round trip for both). Credential ids are unique per integrator only, so the lookup is always
 * scoped by integrator and user (another integrator's row with the same id is never found).
 */
export async function findUserAuthenticator(db: Executor, integratorId: string, userId: string, credentialId: string, challenge: string): Promise<UserAuthenticator | undefined> {
  const [row] = await userAuthenticator(db, { integratorId, userId, credentialId, challenge });
  return row && { ...row.authenticator, challengeUsed: row.challengeUsed };
}

export async function isChallengeUsed(db: Executor, integratorId: string, challenge: string): Promise<boolean> {
  const [row] = await db
    .select({ challenge: usedStampChallenges.challenge })
    .from(usedStampChallenges)
    .where(and(eq(usedStampChallenges.integratorId, integratorId), eq(usedStampChallenges.challenge, challenge)));
  return row !== undefined;
}

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

const processing = preparedStatement<{ limit: number }, TransactionRow[]>('list_processing', (db) =>
  // Incoming transfers wait for confirmations, not receipts: the incoming watcher settles them (docs/incoming.md).
  db
    .select()
    .from(transactions)
    .where(and(eq(transactions.status, 'processing'), ne(transactions.kind, 'incoming')))
    .orderBy(asc(transactions.id))
    .limit(sql.placeholder('limit')),
);

/** Processing transactions, oldest first (the watcher's every round). */
export function listProcessing(db: Executor, limit: number): Promise<TransactionRow[]> {
  return processing(db, { limit });
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

/** Newest first (ids are UUIDv7), `limit + 1` rows so the caller can tell whether more exist. */
export async function listAccountTransactions(db: Executor, integratorId: string, accountId: string, options: { limit: number; before?: string }): Promise<TransactionRow[]> {
  const where = [eq(transactions.integratorId, integratorId), eq(transactions.accountId, accountId)];
  if (options.before) where.push(lt(transactions.id, options.before));
  return db
    .select()
    .from(transactions)
    .where(and(...where))
    .orderBy(desc(transactions.id))
    .limit(options.limit + 1);
}

/** The row by our id, locked for the caller's transaction (member approvals of one transaction go one at a time). */
export async function lockTransaction(db: Executor, id: string): Promise<TransactionRow | undefined> {
  const [row] = await db.select().from(transactions).where(eq(transactions.id, id)).for('update');
  return row;
}

/** Entity members' transfer proposals still waiting for their quorum, created before `before`. */
export function listStaleProposals(db: Executor, before: Date, limit: number): Promise<TransactionRow[]> {
  return db
    .select()
    .from(transactions)
    .where(and(eq(transactions.status, 'created'), eq(transactions.kind, 'transfer'), lt(transactions.createdAt, before)))
    .orderBy(asc(transactions.createdAt))
    .limit(limit);
}

/** Deposits still waiting for their bank transfer past their expiry. */
export function listExpiredDeposits(db: Executor, now: Date, limit: number): Promise<TransactionRow[]> {
  return db
    .select()
    .from(transactions)
    .where(and(eq(transactions.status, 'waiting_for_funds'), lt(transactions.expiresAt, now)))
    .orderBy(asc(transactions.expiresAt))
    .limit(limit);
}

/** Prepared transactions (withdrawals, vault calls) still waiting for their approval past their expiry. */
export function listExpiredPreparations(db: Executor, now: Date, limit: number): Promise<TransactionRow[]> {
  return db
    .select()
    .from(transactions)
    .where(and(eq(transactions.status, 'created'), lt(transactions.expiresAt, now)))
    .orderBy(asc(transactions.createdAt))
    .limit(limit);
}
