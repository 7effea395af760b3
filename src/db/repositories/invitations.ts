import { and, asc, desc, eq, lte, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { invitations } from '../schema/index.js';

export type InvitationRow = typeof invitations.$inferSelect;

export async function insertInvitation(db: Executor, row: typeof invitations.$inferInsert): Promise<InvitationRow> {
  const [created] = await db.insert(invitations).values(row).returning();
  return created!;
}

/** One integrator's invitation; another integrator's is as missing as an unknown id. */
export async function findInvitation(db: Executor, integratorId: string, id: string, options: { lock?: boolean } = {}): Promise<InvitationRow | undefined> {
  const query = db
    .select()
    .from(invitations)
    .where(and(eq(invitations.integratorId, integratorId), eq(invitations.id, id)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** By the keyed hash of its token (unique). The caller decides whose it may be (the hosted page: anyone's). */
export async function findInvitationByTokenHash(db: Executor, tokenHash: string, options: { lock?: boolean } = {}): Promise<InvitationRow | undefined> {
  const query = db.select().from(invitations).where(eq(invitations.tokenHash, tokenHash));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** An account's invitations, newest first (ids are time-ordered). */
export function listInvitations(db: Executor, integratorId: string, accountId: string, limit = 500): Promise<InvitationRow[]> {
  return db
    .select()
    .from(invitations)
    .where(and(eq(invitations.integratorId, integratorId), eq(invitations.accountId, accountId)))
    .orderBy(desc(invitations.id))
    .limit(limit);
}

/** The account's pending invitation to this address (case-insensitive), if any. */
export async function findPendingInvitationTo(db: Executor, accountId: string, email: string): Promise<InvitationRow | undefined> {
  const [row] = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.accountId, accountId), eq(invitations.status, 'pending'), sql`lower(${invitations.email}) = lower(${email})`))
    .limit(1);
  return row;
}

/**
 * Moves a pending invitation (and only a pending one) on: accepted, revoked, expired, or pending again with a new
 * token (resend). Undefined when it is no longer pending, so of two racing moves exactly one wins.
 */
export async function updatePendingInvitation(
  db: Executor,
  id: string,
  patch: Partial<Pick<InvitationRow, 'status' | 'acceptedUserId' | 'tokenHash' | 'sentCount' | 'lastSentAt' | 'expiresAt'>> & { updatedAt: Date },
): Promise<InvitationRow | undefined> {
  const [row] = await db
    .update(invitations)
    .set(patch)
    .where(and(eq(invitations.id, id), eq(invitations.status, 'pending')))
    .returning();
  return row;
}

/** Pending invitations past their expiry, oldest first (the mail worker expires them). */
export function listOverdueInvitations(db: Executor, now: Date, limit: number): Promise<Pick<InvitationRow, 'id' | 'integratorId'>[]> {
  return db
    .select({ id: invitations.id, integratorId: invitations.integratorId })
    .from(invitations)
    .where(and(eq(invitations.status, 'pending'), lte(invitations.expiresAt, now)))
    .orderBy(asc(invitations.expiresAt))
    .limit(limit);
}
