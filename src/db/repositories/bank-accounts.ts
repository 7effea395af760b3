import { and, asc, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { accounts, bankAccounts, bankAccountTransitions, entities, users, type BankAccountStatus, type VerificationStatus } from '../schema/index.js';

export type BankAccountRow = typeof bankAccounts.$inferSelect;
export type BankAccountTransitionRow = typeof bankAccountTransitions.$inferSelect;

/**
 * The integrator's account, locked (bank accounts of one account are added one at a time, so the limit holds),
 * with its owner's status and the names the holder name is compared with.
 */
export async function lockAccountForBankAccount(db: Executor, integratorId: string, accountId: string) {
  const [row] = await db
    .select({
      account: accounts,
      verificationStatus: sql<VerificationStatus | null>`coalesce(${users.verificationStatus}, ${entities.verificationStatus})`,
      userInfo: users.userInfo,
      entityInfo: entities.entityInfo,
    })
    .from(accounts)
    .leftJoin(users, eq(users.id, accounts.userId))
    .leftJoin(entities, eq(entities.id, accounts.entityId))
    .where(and(eq(accounts.integratorId, integratorId), eq(accounts.id, accountId)))
    .for('update', { of: accounts });
  return row;
}

export async function countLiveBankAccounts(db: Executor, accountId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(bankAccounts)
    .where(and(eq(bankAccounts.accountId, accountId), isNull(bankAccounts.removedAt)));
  return row?.n ?? 0;
}

export async function hasLiveNumber(db: Executor, accountId: string, fingerprint: string): Promise<boolean> {
  const [row] = await db
    .select({ id: bankAccounts.id })
    .from(bankAccounts)
    .where(and(eq(bankAccounts.accountId, accountId), eq(bankAccounts.numberFingerprint, fingerprint), isNull(bankAccounts.removedAt)));
  return row !== undefined;
}

export async function insertBankAccount(db: Executor, row: typeof bankAccounts.$inferInsert): Promise<BankAccountRow> {
  const [inserted] = await db.insert(bankAccounts).values(row).returning();
  return inserted!;
}

export async function findBankAccount(db: Executor, integratorId: string, id: string, options: { lock?: boolean } = {}): Promise<BankAccountRow | undefined> {
  const query = db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.integratorId, integratorId), eq(bankAccounts.id, id)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/**
 * A withdrawal's bank account, share-locked until the caller commits: the approval that signs the withdrawal and a
 * removal or review of the bank account (which lock it for update) take turns (docs/withdrawals.md#approval).
 */
export async function findBankAccountShared(db: Executor, integratorId: string, id: string): Promise<BankAccountRow | undefined> {
  const [row] = await db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.integratorId, integratorId), eq(bankAccounts.id, id)))
    .for('share');
  return row;
}

/** Operators address bank accounts across integrators. */
export async function findAnyBankAccount(db: Executor, id: string, options: { lock?: boolean } = {}): Promise<BankAccountRow | undefined> {
  const query = db.select().from(bankAccounts).where(eq(bankAccounts.id, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** An account's bank accounts that are not removed, oldest first, one more than `limit` (to tell hasMore). */
export function listLiveBankAccounts(db: Executor, integratorId: string, accountId: string, options: { limit: number; startingAfter?: string }): Promise<BankAccountRow[]> {
  return db
    .select()
    .from(bankAccounts)
    .where(
      and(
        eq(bankAccounts.integratorId, integratorId),
        eq(bankAccounts.accountId, accountId),
        isNull(bankAccounts.removedAt),
        options.startingAfter ? gt(bankAccounts.id, options.startingAfter) : undefined,
      ),
    )
    .orderBy(asc(bankAccounts.id))
    .limit(options.limit + 1);
}

/** Every integrator's bank accounts waiting for an operator, oldest change first. */
export function listPendingBankAccounts(db: Executor, limit: number): Promise<BankAccountRow[]> {
  return db.select().from(bankAccounts).where(eq(bankAccounts.status, 'pending_review')).orderBy(asc(bankAccounts.updatedAt), asc(bankAccounts.id)).limit(limit);
}

/** Moves a bank account from `from` (guarded: a concurrent change makes this undefined). */
export async function moveBankAccount(db: Executor, id: string, from: BankAccountStatus, patch: Partial<typeof bankAccounts.$inferInsert>): Promise<BankAccountRow | undefined> {
  const [row] = await db
    .update(bankAccounts)
    .set(patch)
    .where(and(eq(bankAccounts.id, id), eq(bankAccounts.status, from)))
    .returning();
  return row;
}

export async function insertBankAccountTransition(db: Executor, row: typeof bankAccountTransitions.$inferInsert): Promise<void> {
  await db.insert(bankAccountTransitions).values(row);
}

export function listBankAccountTransitions(db: Executor, bankAccountId: string): Promise<BankAccountTransitionRow[]> {
  return db.select().from(bankAccountTransitions).where(eq(bankAccountTransitions.bankAccountId, bankAccountId)).orderBy(asc(bankAccountTransitions.id));
}
