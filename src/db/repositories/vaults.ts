import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { transactions, vaults, vaultSharePrices } from '../schema/index.js';
import type { TransactionRow } from './transactions.js';

export type VaultRow = typeof vaults.$inferSelect;
export type SharePriceRow = typeof vaultSharePrices.$inferSelect;

export function listRegisteredVaults(db: Executor): Promise<VaultRow[]> {
  return db.select().from(vaults).orderBy(asc(vaults.chainId), asc(vaults.address));
}

/** Registers a vault; false when it was registered already. */
export async function insertVault(db: Executor, row: typeof vaults.$inferInsert): Promise<boolean> {
  const inserted = await db.insert(vaults).values(row).onConflictDoNothing().returning({ id: vaults.id });
  return inserted.length > 0;
}

export async function deleteVault(db: Executor, id: string): Promise<boolean> {
  const deleted = await db.delete(vaults).where(eq(vaults.id, id)).returning({ id: vaults.id });
  return deleted.length > 0;
}

export async function insertSharePrice(db: Executor, row: typeof vaultSharePrices.$inferInsert): Promise<void> {
  await db.insert(vaultSharePrices).values(row).onConflictDoNothing();
}

export async function latestSharePrice(db: Executor, vaultId: string): Promise<SharePriceRow | undefined> {
  const [row] = await db.select().from(vaultSharePrices).where(eq(vaultSharePrices.vaultId, vaultId)).orderBy(desc(vaultSharePrices.recordedAt)).limit(1);
  return row;
}

/** The newest snapshot recorded at or before `at` (the start of an APY window). */
export async function sharePriceAtOrBefore(db: Executor, vaultId: string, at: Date): Promise<SharePriceRow | undefined> {
  const [row] = await db
    .select()
    .from(vaultSharePrices)
    .where(and(eq(vaultSharePrices.vaultId, vaultId), lte(vaultSharePrices.recordedAt, at)))
    .orderBy(desc(vaultSharePrices.recordedAt))
    .limit(1);
  return row;
}

/** An account's completed vault transactions (deposits, withdrawals, redemptions with their settled amounts), for positions. */
export function listSettledVaultTransactions(db: Executor, accountId: string, vaultIds?: string[]): Promise<TransactionRow[]> {
  return db
    .select()
    .from(transactions)
    .where(
      and(
        eq(transactions.accountId, accountId),
        inArray(transactions.kind, ['vault_deposit', 'vault_withdrawal']),
        eq(transactions.status, 'completed'),
        ...(vaultIds ? [inArray(sql`${transactions.vault}->>'vaultId'`, vaultIds)] : []),
      ),
    )
    .orderBy(asc(transactions.id));
}
