import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { credentials } from '../schema/index.js';

export type CredentialRow = typeof credentials.$inferSelect;

/** Channel on which every change to a credential is announced (at commit: NOTIFY is transactional). */
export const CREDENTIAL_CHANGED_CHANNEL = 'credential_changed';

async function notifyChanged(db: Executor, publicKey: string): Promise<void> {
  await db.execute(sql`select pg_notify(${CREDENTIAL_CHANGED_CHANNEL}, ${publicKey})`);
}
export type CredentialInsert = typeof credentials.$inferInsert;

/** Inserts unless the public key exists already (anywhere); returns undefined in that case. */
export async function insertCredential(db: Executor, row: CredentialInsert): Promise<CredentialRow | undefined> {
  const [created] = await db.insert(credentials).values(row).onConflictDoNothing({ target: credentials.publicKey }).returning();
  return created;
}

/** The authentication lookup: by key alone, across integrators. */
export async function findCredentialByPublicKey(db: Executor, publicKey: string): Promise<CredentialRow | undefined> {
  const [row] = await db.select().from(credentials).where(eq(credentials.publicKey, publicKey));
  return row;
}

/** Scoped lookup with a row lock, for changes; another integrator's key is simply absent. */
export async function lockCredential(db: Executor, integratorId: string, publicKey: string): Promise<CredentialRow | undefined> {
  const [row] = await db
    .select()
    .from(credentials)
    .where(and(eq(credentials.integratorId, integratorId), eq(credentials.publicKey, publicKey)))
    .for('update');
  return row;
}

export function listCredentials(db: Executor, integratorId: string): Promise<CredentialRow[]> {
  return db.select().from(credentials).where(eq(credentials.integratorId, integratorId)).orderBy(asc(credentials.id));
}

export async function updateCredential(
  db: Executor,
  id: string,
  patch: Partial<Pick<CredentialRow, 'label' | 'scope' | 'active' | 'updatedAt'>>,
): Promise<CredentialRow> {
  const [row] = await db.update(credentials).set(patch).where(eq(credentials.id, id)).returning();
  await notifyChanged(db, row!.publicKey);
  return row!;
}

export async function deleteCredential(db: Executor, id: string): Promise<void> {
  const [row] = await db.delete(credentials).where(eq(credentials.id, id)).returning({ publicKey: credentials.publicKey });
  if (row) await notifyChanged(db, row.publicKey);
}
