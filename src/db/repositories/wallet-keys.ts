import { and, asc, count, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { wallets } from '../schema/index.js';

/** A wallet whose key is still sealed here and has not been moved to the token. */
export interface SealedWallet {
  id: string;
  address: string;
  privateKeySealed: string;
}

/** The next `limit` wallets still holding a sealed key and no token label, in id order after `afterId`. */
export async function sealedWalletsAfter(db: Executor, afterId: string | undefined, limit: number): Promise<SealedWallet[]> {
  const rows = await db
    .select({ id: wallets.id, address: wallets.address, privateKeySealed: wallets.privateKeySealed })
    .from(wallets)
    .where(and(isNotNull(wallets.privateKeySealed), isNull(wallets.keyLabel), afterId ? gt(wallets.id, afterId) : undefined))
    .orderBy(asc(wallets.id))
    .limit(limit);
  return rows as SealedWallet[];
}

export async function countSealedWallets(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(wallets).where(and(isNotNull(wallets.privateKeySealed), isNull(wallets.keyLabel)));
  return row?.n ?? 0;
}

/**
 * The wallet's key now lives on the token: its label and public key recorded and the sealed copy erased, in one
 * statement guarded by the sealed value read (a row changed meanwhile is left alone). Whether it took effect.
 */
export async function moveWalletKeyToToken(db: Executor, wallet: SealedWallet, keyLabel: string, publicKey: string): Promise<boolean> {
  const moved = await db
    .update(wallets)
    .set({ keyLabel, publicKey, privateKeySealed: null })
    .where(and(eq(wallets.id, wallet.id), eq(wallets.privateKeySealed, wallet.privateKeySealed), isNull(wallets.keyLabel)))
    .returning({ id: wallets.id });
  return moved.length === 1;
}
