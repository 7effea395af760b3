import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { SecretBox } from '../../../crypto/secret-box.js';
import { sealContexts } from '../../../crypto/seal-contexts.js';

/**
 * A new secp256k1 key for a custodial account. Only the address leaves this function in clear; the private key
 * is sealed at once, bound to the wallet id, and never returned or logged.
 */
export function createCustodialWallet(secrets: SecretBox, walletId: string): { address: string; privateKeySealed: string } {
  const privateKey = generatePrivateKey();
  const address = privateKeyToAccount(privateKey).address;
  return { address, privateKeySealed: secrets.seal(privateKey, sealContexts.walletKey(walletId)) };
}
