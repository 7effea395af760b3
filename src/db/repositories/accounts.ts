import { and, asc, eq, gt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { accounts, entities, users, wallets, type VerificationStatus } from '../schema/index.js';

export type AccountRow = typeof accounts.$inferSelect;

export async function insertAccount(db: Executor, row: typeof accounts.$inferInsert): Promise<AccountRow> {
  const [created] = await db.insert(accounts).values(row).returning();
  return created!;
}

export async function insertWallet(db: Executor, row: typeof wallets.$inferInsert): Promise<void> {
  await db.insert(wallets).values(row);
}

export async function findAccount(db: Executor, integratorId: string, id: string): Promise<AccountRow | undefined> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.integratorId, integratorId), eq(accounts.id, id)));
  return row;
}

export async function findAccountByUser(db: Executor, userId: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.userId, userId));
  return row;
}

export async function findAccountByEntity(db: Executor, entityId: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.entityId, entityId));
  return row;
}

export interface AccountListRow extends AccountRow {
  verificationStatus: VerificationStatus;
}

/**
 * Keyset pagination by id (UUIDv7, so creation order): the page after `startingAfter`, `limit + 1` rows so
 * the caller can tell whether more exist. The status comes from the owner (user or entity).
 */
export async function listAccounts(
  db: Executor,
  integratorId: string,
  options: { limit: number; startingAfter?: string; type?: 'individual' | 'entity'; verificationStatus?: VerificationStatus },
): Promise<AccountListRow[]> {
  const status = sql<VerificationStatus>`coalesce(${users.verificationStatus}, ${entities.verificationStatus})`;
  const where: SQL[] = [eq(accounts.integratorId, integratorId)];
  if (options.startingAfter) where.push(gt(accounts.id, options.startingAfter));
  if (options.type) where.push(eq(accounts.type, options.type));
  if (options.verificationStatus) where.push(sql`${status} = ${options.verificationStatus}`);
  const rows = await db
    .select({ account: accounts, verificationStatus: status })
    .from(accounts)
    .leftJoin(users, eq(users.id, accounts.userId))
    .leftJoin(entities, eq(entities.id, accounts.entityId))
    .where(and(...where))
    .orderBy(asc(accounts.id))
    .limit(options.limit + 1);
  return rows.map((r) => ({ ...r.account, verificationStatus: r.verificationStatus }));
}
