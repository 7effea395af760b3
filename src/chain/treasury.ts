import type { Address, Hex, TransactionSerializable } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { SecretBox } from '../crypto/secret-box.js';

/** The wallet deposits are paid out from (docs/deposits.md). */
export interface Treasury {
  address: Address;
  sign(tx: TransactionSerializable): Promise<Hex>;
}

export function treasuryFromKey(key: Hex): Treasury {
  const account = privateKeyToAccount(key);
  return { address: account.address, sign: (tx) => account.signTransaction(tx) };
}

/**
 * Under CUSTODY_KEYS=pkcs11 with a `treasury` object on the token, that key (docs/key-management.md#the-treasury).
 * Otherwise TREASURY_PRIVATE_KEY when set; in sandbox without it, a key derived from ENCRYPTION_KEY (HMAC under its
 * fingerprint subkey), so each sandbox deployment has its own stable treasury and nothing more to configure.
 * Production without the key has no treasury: deposits are unavailable.
 */
export function treasuryFor(options: { key: Hex | undefined; sandbox: boolean; secrets: SecretBox; custody?: { tokenTreasury: Treasury | undefined } | undefined }): Treasury | undefined {
  if (options.custody?.tokenTreasury) return options.custody.tokenTreasury;
  const key = treasuryKeyFor(options);
  return key && treasuryFromKey(key);
}

/** The treasury's private key when it is held in software (what `keys import-to-token` moves to the token). */
export function treasuryKeyFor(options: { key: Hex | undefined; sandbox: boolean; secrets: SecretBox }): Hex | undefined {
  if (options.key) return options.key;
  if (!options.sandbox) return undefined;
  return `0x${options.secrets.fingerprint('deposit-treasury', 'sandbox-treasury-key/v1')}`;
}
