import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { driverValue, type PendingWrite } from '../pending-writes.js';
import { otpApprovalTokens, otpCodes, sandboxOtpOutbox } from '../schema/index.js';

export type OtpCodeRow = typeof otpCodes.$inferSelect;
export type ApprovalTokenRow = typeof otpApprovalTokens.$inferSelect;
export type OutboxRow = typeof sandboxOtpOutbox.$inferSelect;

/** The user's codes created after `since`, newest first (for the resend limits). */
export async function recentCodes(db: Executor, userId: string, since: Date): Promise<Pick<OtpCodeRow, 'createdAt'>[]> {
  return db
    .select({ createdAt: otpCodes.createdAt })
    .from(otpCodes)
    .where(and(eq(otpCodes.userId, userId), gt(otpCodes.createdAt, since)))
    .orderBy(desc(otpCodes.createdAt));
}

/** A new code supersedes every earlier one of the user that is still open. */
export async function supersedeOpenCodes(db: Executor, userId: string, at: Date): Promise<void> {
  await db
    .update(otpCodes)
    .set({ consumedAt: at })
    .where(and(eq(otpCodes.userId, userId), isNull(otpCodes.consumedAt)));
}

export async function insertCode(db: Executor, row: typeof otpCodes.$inferInsert): Promise<void> {
  await db.insert(otpCodes).values(row);
}

/** The user's open code (at most one: a new one supersedes the others), locked against concurrent guesses. */
export async function findOpenCode(db: Executor, integratorId: string, userId: string): Promise<OtpCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(otpCodes)
    .where(and(eq(otpCodes.integratorId, integratorId), eq(otpCodes.userId, userId), isNull(otpCodes.consumedAt)))
    .orderBy(desc(otpCodes.createdAt))
    .limit(1)
    .for('update');
  return row;
}

export async function countFailedAttempt(db: Executor, id: string): Promise<number> {
  const [row] = await db
    .update(otpCodes)
    .set({ attempts: sql`${otpCodes.attempts} + 1` })
    .where(eq(otpCodes.id, id))
    .returning({ attempts: otpCodes.attempts });
  return row!.attempts;
}

/** A code whose message the mail server refused: it never existed as far as the user and the limits are concerned. */
export async function deleteCode(db: Executor, id: string): Promise<void> {
  await db.delete(otpCodes).where(eq(otpCodes.id, id));
}

export async function consumeCode(db: Executor, id: string, at: Date): Promise<void> {
  await db.update(otpCodes).set({ consumedAt: at }).where(eq(otpCodes.id, id));
}

export async function insertApprovalToken(db: Executor, row: typeof otpApprovalTokens.$inferInsert): Promise<void> {
  await db.insert(otpApprovalTokens).values(row);
}

/** Scoped by integrator: another integrator's token is simply unknown. */
export async function findApprovalToken(db: Executor, integratorId: string, tokenHash: string): Promise<ApprovalTokenRow | undefined> {
  const [row] = await db
    .select()
    .from(otpApprovalTokens)
    .where(and(eq(otpApprovalTokens.integratorId, integratorId), eq(otpApprovalTokens.tokenHash, tokenHash)));
  return row;
}

/** Marks the token used by a transaction row or a member action: affects no row when it was used already. */
export function useApprovalTokenWrite(id: string, target: { transactionRowId: string } | { activity: string; subjectId: string }, at: Date): PendingWrite {
  const targetKeys = Object.keys(target) as (keyof typeof target)[];
  return {
    shape: `use an approval token for (${targetKeys.join(',')})`,
    sql: (db, slot) =>
      db
        .update(otpApprovalTokens)
        .set({ usedAt: slot('at'), ...Object.fromEntries(targetKeys.map((key) => [key, slot(key)])) })
        .where(and(eq(otpApprovalTokens.id, slot('id')), isNull(otpApprovalTokens.usedAt)))
        .returning({ id: otpApprovalTokens.id })
        .getSQL(),
    values: { id, at: driverValue(otpApprovalTokens.usedAt, at), ...target },
  };
}

export async function insertOutboxMessage(db: Executor, row: typeof sandboxOtpOutbox.$inferInsert): Promise<void> {
  await db.insert(sandboxOtpOutbox).values(row);
}

/** The sandbox outbox of one user of the integrator, newest first. */
export async function listOutbox(db: Executor, integratorId: string, userId: string, limit: number): Promise<OutboxRow[]> {
  return db
    .select()
    .from(sandboxOtpOutbox)
    .where(and(eq(sandboxOtpOutbox.integratorId, integratorId), eq(sandboxOtpOutbox.userId, userId)))
    .orderBy(desc(sandboxOtpOutbox.id))
    .limit(limit);
}
