import { and, desc, eq, sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../database.js';
import { mailOutbox } from '../schema/index.js';
import { dueRows } from './due-rows.js';

export type MailRow = typeof mailOutbox.$inferSelect;

export async function insertMail(db: Executor, row: typeof mailOutbox.$inferInsert): Promise<void> {
  await db.insert(mailOutbox).values(row);
}

/** A claimed message: `attempts` counts this attempt and is the claim's token for markSent / markFailedAttempt. */
export type ClaimedMail = Pick<MailRow, 'id' | 'integratorId' | 'recipient' | 'subjectSealed' | 'bodySealed' | 'attempts'>;

/**
 * Claims up to `limit` due pending messages: FOR UPDATE SKIP LOCKED so concurrent senders never take the same
 * row, and a lease (next_attempt_at pushed to `leaseUntil`, attempts counted now) so a sender that dies while
 * sending leaves the message to be claimed again once the lease ends (at least once).
 */
export async function claimDueMail(db: Executor, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedMail[]> {
  const rows = await selectRows<{ id: string; integrator_id: string; recipient: string; subject_sealed: string; body_sealed: string; attempts: number }>(
    db,
    sql`
    with ${dueRows(mailOutbox, now, limit)}
    update mail_outbox m
    set next_attempt_at = ${leaseUntil.toISOString()}::timestamptz, attempts = m.attempts + 1
    from due where m.id = due.id
    returning m.id, m.integrator_id, m.recipient, m.subject_sealed, m.body_sealed, m.attempts`,
  );
  return rows.map((r) => ({ id: r.id, integratorId: r.integrator_id, recipient: r.recipient, subjectSealed: r.subject_sealed, bodySealed: r.body_sealed, attempts: Number(r.attempts) }));
}

/** Only while the claim is still ours (same attempt, still pending): a sender whose lease ran out records nothing. */
const claimed = (id: string, attempts: number) => and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'pending'), eq(mailOutbox.attempts, attempts));

export async function markSent(db: Executor, id: string, attempts: number, at: Date): Promise<void> {
  await db.update(mailOutbox).set({ status: 'sent', sentAt: at, lastError: null }).where(claimed(id, attempts));
}

/** A failed attempt: retried at `retryAt`, or given up (failed) when there is none. */
export async function markFailedAttempt(db: Executor, id: string, attempts: number, error: string, retryAt: Date | null): Promise<void> {
  await db
    .update(mailOutbox)
    .set(retryAt ? { lastError: error, nextAttemptAt: retryAt } : { lastError: error, status: 'failed' })
    .where(claimed(id, attempts));
}

/** The integrator's messages, newest first (the sandbox outbox reader). */
export function listMail(db: Executor, integratorId: string, limit: number): Promise<MailRow[]> {
  return db.select().from(mailOutbox).where(eq(mailOutbox.integratorId, integratorId)).orderBy(desc(mailOutbox.id)).limit(limit);
}
