import { and, asc, desc, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { accounts, authenticators, entities, transactions, transactionTransitions, usedStampChallenges, users, wallets, type TransactionStatus, type VerificationStatus } from '../schema/index.js';

export type TransactionRow = typeof transactions.$inferSelect;
export type WalletRow = typeof wallets.$inferSelect;
export type AccountRowWithStatus = typeof accounts.$inferSelect & { verificationStatus: VerificationStatus | null };

export async function findTransaction(db: Executor, integratorId: string, transactionId: string): Promise<TransactionRow | undefined> {
  const [row] = await db
    .select()
    .from(transactions)
    .where(and(eq(transactions.integratorId, integratorId), eq(transactions.transactionId, transactionId)));
  return row;
}

/** The account a signedBody names: by its custody organizationId, else a self-custodial account holding signWith. */
export async function findSigningAccount(db: Executor, integratorId: string, organizationId: string | null, signWith: string): Promise<AccountRowWithStatus | undefined> {
  const status = sql<VerificationStatus | null>`coalesce(${users.verificationStatus}, ${entities.verificationStatus})`;
  const byOrg = organizationId === null ? sql`false` : sql`${accounts.organizationId} = ${organizationId}`;
  const rows = await db
    .select({ account: accounts, verificationStatus: status })
    .from(accounts)
    .leftJoin(users, eq(users.id, accounts.userId))
    .leftJoin(entities, eq(entities.id, accounts.entityId))
    .where(and(eq(accounts.integratorId, integratorId), sql`(${byOrg} or (${accounts.custody} = 'self_custodial' and lower(${accounts.walletAddress}) = lower(${signWith})))`))
    // The organization's own account first.
    .orderBy(sql`case when ${byOrg} then 0 else 1 end`)
    .limit(1);
  const row = rows[0];
  return row ? { ...row.account, verificationStatus: row.verificationStatus } : undefined;
}

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
export async function findUserAuthenticator(db: Executor, integratorId: string, userId: string, credentialId: string) {
  const [row] = await db
    .select()
    .from(authenticators)
    .where(and(eq(authenticators.integratorId, integratorId), eq(authenticators.userId, userId), eq(authenticators.credentialId, credentialId)));
  return row;
}

export async function isChallengeUsed(db: Executor, integratorId: string, challenge: string): Promise<boolean> {
  const [row] = await db
    .select({ challenge: usedStampChallenges.challenge })
    .from(usedStampChallenges)
    .where(and(eq(usedStampChallenges.integratorId, integratorId), eq(usedStampChallenges.challenge, challenge)));
  return row !== undefined;
}

/** Inserts unless the id is taken for this integrator; undefined when it is. */
export async function insertTransaction(db: Executor, row: typeof transactions.$inferInsert): Promise<TransactionRow | undefined> {
  const [created] = await db.insert(transactions).values(row).onConflictDoNothing().returning();
  return created;
}

/** False when the challenge was used already. */
export async function useChallenge(db: Executor, row: typeof usedStampChallenges.$inferInsert): Promise<boolean> {
  const inserted = await db.insert(usedStampChallenges).values(row).onConflictDoNothing().returning({ challenge: usedStampChallenges.challenge });
  return inserted.length === 1;
}

/** Compare-and-set of the signature counter (docs/passkeys.md); false when another request moved it first. */
export async function advanceSignCount(db: Executor, integratorId: string, authenticatorId: string, from: number, to: number): Promise<boolean> {
  const updated = await db
    .update(authenticators)
    .set({ signCount: to })
    .where(and(eq(authenticators.integratorId, integratorId), eq(authenticators.id, authenticatorId), eq(authenticators.signCount, from)))
    .returning({ id: authenticators.id });
  return updated.length === 1;
}

/** One row of a transaction's audit trail. */
export async function insertTransactionTransition(db: Executor, row: typeof transactionTransitions.$inferInsert): Promise<void> {
  await db.insert(transactionTransitions).values(row);
}

/** Processing transactions, oldest first. */
export async function listProcessing(db: Executor, limit: number): Promise<TransactionRow[]> {
  return db.select().from(transactions).where(eq(transactions.status, 'processing')).orderBy(asc(transactions.id)).limit(limit);
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

/**
 * The node accepted a committed transaction (docs/transactions.md#sending): its signed bytes are no longer kept, and
 * broadcastedAt says when. Undefined when it was no longer waiting (another process sent or settled it first).
 */
export async function markSent(db: Executor, id: string, at: Date): Promise<TransactionRow | undefined> {
  const [row] = await db
    .update(transactions)
    .set({ signedRaw: null, broadcastedAt: at })
    .where(and(eq(transactions.id, id), eq(transactions.status, 'processing'), isNotNull(transactions.signedRaw)))
    .returning();
  return row;
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
