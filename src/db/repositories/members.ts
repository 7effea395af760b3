import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { accountMembers, accounts, associatedPersons, transactionApprovals, users } from '../schema/index.js';

export type MemberRow = typeof accountMembers.$inferSelect;
export type MemberRole = MemberRow['role'];

/** A member with the name and email of its user, for list-members and the console. */
export interface MemberListRow extends MemberRow {
  userInfo: unknown;
}

export async function listMembers(db: Executor, integratorId: string, accountId: string): Promise<MemberListRow[]> {
  const rows = await db
    .select({ member: accountMembers, userInfo: users.userInfo })
    .from(accountMembers)
    .innerJoin(users, eq(users.id, accountMembers.userId))
    .where(and(eq(accountMembers.integratorId, integratorId), eq(accountMembers.accountId, accountId)))
    .orderBy(asc(accountMembers.createdAt), asc(accountMembers.userId));
  return rows.map((r) => ({ ...r.member, userInfo: r.userInfo }));
}

export async function findMember(db: Executor, integratorId: string, accountId: string, userId: string): Promise<MemberRow | undefined> {
  const [row] = await db
    .select()
    .from(accountMembers)
    .where(and(eq(accountMembers.integratorId, integratorId), eq(accountMembers.accountId, accountId), eq(accountMembers.userId, userId)));
  return row;
}

/** Undefined when the user is a member already. */
export async function insertMember(db: Executor, row: typeof accountMembers.$inferInsert): Promise<MemberRow | undefined> {
  const [inserted] = await db.insert(accountMembers).values(row).onConflictDoNothing().returning();
  return inserted;
}

export async function updateMemberRole(db: Executor, accountId: string, userId: string, role: MemberRole, at: Date): Promise<MemberRow | undefined> {
  const [row] = await db
    .update(accountMembers)
    .set({ role, updatedAt: at })
    .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, userId)))
    .returning();
  return row;
}

export async function deleteMember(db: Executor, accountId: string, userId: string): Promise<MemberRow | undefined> {
  const [row] = await db
    .delete(accountMembers)
    .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, userId)))
    .returning();
  return row;
}

/** How many members hold each role (the last-owner and quorum rules). */
export async function countRoles(db: Executor, accountId: string): Promise<Record<MemberRole, number>> {
  const rows = await db
    .select({ role: accountMembers.role, n: sql<number>`count(*)::int` })
    .from(accountMembers)
    .where(eq(accountMembers.accountId, accountId))
    .groupBy(accountMembers.role);
  const counts: Record<MemberRole, number> = { owner: 0, admin: 0, approver: 0, initiator: 0, viewer: 0 };
  for (const r of rows) counts[r.role] = Number(r.n);
  return counts;
}

/** Records a member's approval of a transaction; false when that member had approved it already. */
export async function insertApproval(db: Executor, row: typeof transactionApprovals.$inferInsert): Promise<boolean> {
  const inserted = await db.insert(transactionApprovals).values(row).onConflictDoNothing().returning({ userId: transactionApprovals.userId });
  return inserted.length === 1;
}

/** The roles whose approval counts (roles.ts `countsAsApprover`; repeated here, where the query needs the list). */
const APPROVING_ROLES: MemberRole[] = ['owner', 'approver'];

/**
 * The users who may approve the account's transactions now: members with an approving role whose user is verified
 * (active). get-approval-policy's `approvers`, and the bound of requiredApprovals.
 */
export async function verifiedApprovers(db: Executor, accountId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: accountMembers.userId })
    .from(accountMembers)
    .innerJoin(users, and(eq(users.id, accountMembers.userId), eq(users.verificationStatus, 'active')))
    .where(and(eq(accountMembers.accountId, accountId), inArray(accountMembers.role, APPROVING_ROLES)));
  return rows.map((r) => r.userId);
}

/**
 * The approvals of transactions that still count: given by members who are, now, owners or approvers of the
 * transaction's account (a member removed or demoted since no longer counts) and whose user is verified now (a
 * user sent back to review no longer counts). Oldest first.
 */
export async function countingApprovals(db: Executor, accountId: string, transactionRowIds: string[]): Promise<{ transactionRowId: string; userId: string; createdAt: Date }[]> {
  if (transactionRowIds.length === 0) return [];
  return db
    .select({ transactionRowId: transactionApprovals.transactionRowId, userId: transactionApprovals.userId, createdAt: transactionApprovals.createdAt })
    .from(transactionApprovals)
    .innerJoin(accountMembers, and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, transactionApprovals.userId)))
    .innerJoin(users, and(eq(users.id, transactionApprovals.userId), eq(users.verificationStatus, 'active')))
    .where(and(inArray(transactionApprovals.transactionRowId, transactionRowIds), inArray(accountMembers.role, APPROVING_ROLES)))
    .orderBy(asc(transactionApprovals.createdAt), asc(transactionApprovals.userId));
}

/**
 * Users of the integrator whose email is that of one of the entity's representatives (case-insensitive), with
 * both sides' userInfo, for the first-owner rule (docs/members.md#first-owner).
 */
export async function representativeUsers(db: Executor, integratorId: string, entityId: string): Promise<{ userId: string; userInfo: unknown; representativeInfo: unknown }[]> {
  return db
    .select({ userId: users.id, userInfo: users.userInfo, representativeInfo: associatedPersons.userInfo })
    .from(associatedPersons)
    .innerJoin(users, and(eq(users.integratorId, associatedPersons.integratorId), sql`lower(${users.userInfo}->>'email') = lower(${associatedPersons.userInfo}->>'email')`))
    .where(
      and(
        eq(associatedPersons.integratorId, integratorId),
        eq(associatedPersons.entityId, entityId),
        isNull(associatedPersons.removedAt),
        sql`${associatedPersons.beneficiaryDetails}->'beneficiaryType' ? 'representative'`,
      ),
    )
    .orderBy(asc(users.id));
}

/** The entity accounts a user owns, newest first (the hosted flow's entity of its representative). */
export async function ownedEntityAccounts(db: Executor, integratorId: string, userId: string): Promise<{ accountId: string; entityId: string }[]> {
  const rows = await db
    .select({ accountId: accounts.id, entityId: accounts.entityId })
    .from(accountMembers)
    .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
    .where(and(eq(accountMembers.integratorId, integratorId), eq(accountMembers.userId, userId), eq(accountMembers.role, 'owner'), eq(accounts.type, 'entity')))
    .orderBy(desc(accounts.createdAt), desc(accounts.id));
  return rows.flatMap((r) => (r.entityId ? [{ accountId: r.accountId, entityId: r.entityId }] : []));
}
