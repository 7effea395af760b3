import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { accountProducts, accounts, entities, users, wallets, type VerificationStatus } from '../schema/index.js';

export type AccountProductRow = typeof accountProducts.$inferSelect;

export async function listAccountProductRows(db: Executor, accountId: string): Promise<AccountProductRow[]> {
  return db.select().from(accountProducts).where(eq(accountProducts.accountId, accountId));
}

export async function findAccountProduct(db: Executor, accountId: string, productId: string): Promise<AccountProductRow | undefined> {
  const [row] = await db
    .select()
    .from(accountProducts)
    .where(and(eq(accountProducts.accountId, accountId), eq(accountProducts.productId, productId)));
  return row;
}

/** Writes the account's choice about the product (insert or replace). */
export async function saveAccountProduct(db: Executor, row: typeof accountProducts.$inferInsert): Promise<AccountProductRow> {
  const [saved] = await db
    .insert(accountProducts)
    .values(row)
    .onConflictDoUpdate({ target: [accountProducts.accountId, accountProducts.productId], set: { status: row.status, termsAcceptedAt: row.termsAcceptedAt ?? null, updatedAt: row.updatedAt! } })
    .returning();
  return saved!;
}

/** What product eligibility depends on: the account, its owner's status and country, whether it holds a wallet. */
export interface AccountFactsRow {
  id: string;
  integratorId: string;
  type: 'individual' | 'entity';
  custody: 'custodial' | 'self_custodial' | null;
  verificationStatus: VerificationStatus | null;
  country: string | null;
  hasWallet: boolean;
}

export async function findAccountFacts(db: Executor, integratorId: string, accountId: string): Promise<AccountFactsRow | undefined> {
  const [row] = await db
    .select({
      id: accounts.id,
      integratorId: accounts.integratorId,
      type: accounts.type,
      custody: accounts.custody,
      verificationStatus: sql<VerificationStatus | null>`coalesce(${users.verificationStatus}, ${entities.verificationStatus})`,
      // A person's residence; a company's registered address.
      country: sql<string | null>`coalesce(${users.userInfo}->'residentialAddress'->>'country', ${entities.entityInfo}->'registeredAddress'->>'country')`,
      hasWallet: sql<boolean>`${wallets.id} is not null or (${accounts.custody} = 'self_custodial' and ${accounts.walletAddress} is not null)`,
    })
    .from(accounts)
    .leftJoin(users, eq(users.id, accounts.userId))
    .leftJoin(entities, eq(entities.id, accounts.entityId))
    .leftJoin(wallets, eq(wallets.accountId, accounts.id))
    .where(and(eq(accounts.integratorId, integratorId), eq(accounts.id, accountId)));
  return row;
}
