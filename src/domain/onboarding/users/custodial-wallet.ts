import type { NewWalletKey } from '../../../chain/custody-keys.js';
import type { MutationContext } from '../../context.js';
import { newWalletKey } from '../../custody.js';

/**
 * A new secp256k1 key for a custodial account. Only the address and the public key leave this function in clear:
 * the private key is sealed at once, bound to the wallet id, or is generated inside the PKCS#11 token and never
 * leaves it (CUSTODY_KEYS, docs/key-management.md). A token key whose database transaction then rolls back stays on
 * the token unused, under a label no row names.
 */
export function createCustodialWallet(ctx: Pick<MutationContext, 'custody' | 'secrets'>, walletId: string): Promise<NewWalletKey> {
  return newWalletKey(ctx, walletId);
}
