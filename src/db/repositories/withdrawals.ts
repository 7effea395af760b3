import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { bankAccounts, transactions, withdrawalPayouts, type PayoutStatus } from '../schema/index.js';

export type WithdrawalPayoutRow = typeof withdrawalPayouts.$inferSelect;

export async function insertWithdrawalPayout(db: Executor, row: typeof withdrawalPayouts.$inferInsert): Promise<WithdrawalPayoutRow> {
  const [inserted] = await db.insert(withdrawalPayouts).values(row).returning();
  return inserted!;
}

/** A withdrawal's payout with its transaction, by the payout reference (operators; unique across integrators). */
export async function findPayoutByReference(db: Executor, reference: string, options: { lock?: boolean } = {}) {
  const query = db
    .select({ payout: withdrawalPayouts, transaction: transactions })
    .from(withdrawalPayouts)
    .innerJoin(transactions, eq(transactions.id, withdrawalPayouts.transactionRowId))
    .where(eq(withdrawalPayouts.reference, reference));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function findPayoutOfTransaction(db: Executor, transactionRowId: string, options: { lock?: boolean } = {}): Promise<WithdrawalPayoutRow | undefined> {
  const query = db.select().from(withdrawalPayouts).where(eq(withdrawalPayouts.transactionRowId, transactionRowId));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** Moves a payout out of one of `from`; undefined when it is elsewhere by now. */
export async function movePayout(db: Executor, id: string, from: PayoutStatus[], patch: Partial<typeof withdrawalPayouts.$inferInsert>): Promise<WithdrawalPayoutRow | undefined> {
  const [row] = await db
    .update(withdrawalPayouts)
    .set(patch)
    .where(and(eq(withdrawalPayouts.id, id), inArray(withdrawalPayouts.status, from)))
    .returning();
  return row;
}

/** Open payouts (pending or sent) with their transactions, every integrator's, oldest first: the operators' work list. */
export function listOpenPayouts(db: Executor, status: PayoutStatus[], limit: number) {
  return db
    .select({ payout: withdrawalPayouts, transaction: transactions })
    .from(withdrawalPayouts)
    .innerJoin(transactions, eq(transactions.id, withdrawalPayouts.transactionRowId))
    .where(inArray(withdrawalPayouts.status, status))
    .orderBy(asc(withdrawalPayouts.createdAt), asc(withdrawalPayouts.id))
    .limit(limit);
}

/** The sealed number and bank details a payout is made to (operators, to pay it). */
export async function findPayoutBankAccount(db: Executor, bankAccountId: string) {
  const [row] = await db.select().from(bankAccounts).where(eq(bankAccounts.id, bankAccountId));
  return row;
}

