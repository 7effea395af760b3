import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { authenticators, users } from '../schema/index.js';

export type UserRow = typeof users.$inferSelect;
export type AuthenticatorRow = typeof authenticators.$inferSelect;
/** An authenticator to insert (insertAuthenticators adds its integrator). */
export type NewAuthenticatorRow = Omit<typeof authenticators.$inferInsert, 'integratorId'>;

export async function insertUser(db: Executor, row: typeof users.$inferInsert): Promise<UserRow> {
  const [created] = await db.insert(users).values(row).returning();
  return created!;
}

/** Scoped by integrator: another integrator's user is simply absent. */
export async function findUser(db: Executor, integratorId: string, id: string, options: { lock?: boolean } = {}): Promise<UserRow | undefined> {
  const query = db
    .select()
    .from(users)
    .where(and(eq(users.integratorId, integratorId), eq(users.id, id)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function updateUser(db: Executor, id: string, patch: Partial<typeof users.$inferInsert>): Promise<UserRow> {
  const [row] = await db.update(users).set(patch).where(eq(users.id, id)).returning();
  return row!;
}

/**
 * Inserts the authenticators whose credential id is still free for this integrator and returns the ids it
 * inserted: a concurrent request that registered one of them first (after this one's check) leaves it out
 * instead of failing. Credential ids are unique per integrator (`authenticators_integrator_credential_key`),
 * never across integrators: another integrator's registration must not be observable (docs/passkeys.md).
 */
export async function insertAuthenticators(db: Executor, integratorId: string, rows: NewAuthenticatorRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insert(authenticators)
    .values(rows.map((row) => ({ ...row, integratorId })))
    .onConflictDoNothing({ target: [authenticators.integratorId, authenticators.credentialId] })
    .returning({ credentialId: authenticators.credentialId });
  return inserted.map((r) => r.credentialId);
}

/** Which of these credential ids this integrator has registered already (another integrator's do not count). */
export async function existingAuthenticatorIds(db: Executor, integratorId: string, credentialIds: string[]): Promise<string[]> {
  if (credentialIds.length === 0) return [];
  const rows = await db
    .select({ id: authenticators.credentialId })
    .from(authenticators)
    .where(and(eq(authenticators.integratorId, integratorId), inArray(authenticators.credentialId, credentialIds)));
  return rows.map((r) => r.id);
}

export async function countAuthenticators(db: Executor, userId: string): Promise<number> {
  const rows = await db.select({ id: authenticators.id }).from(authenticators).where(eq(authenticators.userId, userId));
  return rows.length;
}
