import { bytesToHex, hexToBytes, type Hex, type TransactionSerializable } from 'viem';
import { generatePrivateKey, privateKeyToAccount, publicKeyToAddress } from 'viem/accounts';
import { CustodyUnavailableError } from '../crypto/pkcs11/errors.js';
import { CustodyToken } from '../crypto/pkcs11/token.js';
import type { CustodyKeysConfig } from '../config/custody-keys.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { sealContexts } from '../crypto/seal-contexts.js';
import { signWithCustodyKey } from './custody-signer.js';
import { signTransactionWith } from './token-signature.js';
import type { Treasury } from './treasury.js';

/** How a wallet's key is held, as its row records it (wallets: private_key_sealed, or key_label and public_key). */
export interface WalletKey {
  id: string;
  privateKeySealed: string | null;
  keyLabel: string | null;
  publicKey: string | null;
}

/** A new wallet's address and what its row keeps of the key. */
export interface NewWalletKey {
  address: string;
  privateKeySealed: string | null;
  keyLabel: string | null;
  publicKey: string | null;
}

/**
 * Custody and treasury signatures (CUSTODY_KEYS, docs/key-management.md). `sealed`: keys sealed in the database under
 * ENCRYPTION_KEY, opened in memory for each signature. `pkcs11`: keys generated in (or imported into) a PKCS#11 token
 * and used there; wallets still sealed (not yet moved by `keys import-to-token`) keep signing as before.
 */
export interface CustodyKeys {
  readonly backend: 'sealed' | 'pkcs11';
  /** A key for a new wallet; the private key is sealed at once or never leaves the token. */
  newWalletKey(walletId: string): Promise<NewWalletKey>;
  /** The signed serialization of `tx` with the wallet's key. Throws CustodyUnavailableError when the token fails. */
  signForWallet(wallet: WalletKey, tx: TransactionSerializable): Promise<Hex>;
  /** The treasury held on the token (object labelled `treasury`); undefined: the configured or sandbox key is used. */
  readonly tokenTreasury: Treasury | undefined;
  /** The token itself (pkcs11 only), for `keys import-to-token`. */
  readonly token?: CustodyToken;
  close(): void;
}

/** The token object of a wallet's key. */
export const walletKeyLabel = (walletId: string): string => `wallet:${walletId}`;
/** The token object of the treasury's key (docs/key-management.md#the-treasury). */
export const TREASURY_KEY_LABEL = 'treasury';

/**
 * The custody keys CUSTODY_KEYS names. With pkcs11 the token is opened and logged in now: a module that does not
 * load, a label no token has, or a refused PIN throws TokenConfigError (a configuration error at start).
 */
export async function openCustodyKeys(config: CustodyKeysConfig, secrets: SecretBox): Promise<CustodyKeys> {
  if (config.backend === 'sealed') return sealedCustodyKeys(secrets);
  const token = await CustodyToken.open({ module: config.module, tokenLabel: config.tokenLabel, pin: config.pin, pinSource: config.pinSource });
  try {
    return await tokenCustodyKeys(secrets, token);
  } catch (err) {
    token.close();
    throw err;
  }
}

/** Today's keys: sealed under ENCRYPTION_KEY, bound to the wallet id. */
export function sealedCustodyKeys(secrets: SecretBox): CustodyKeys {
  return {
    backend: 'sealed',
    async newWalletKey(walletId) {
      const privateKey = generatePrivateKey();
      const address = privateKeyToAccount(privateKey).address;
      return { address, privateKeySealed: secrets.seal(privateKey, sealContexts.walletKey(walletId)), keyLabel: null, publicKey: null };
    },
    signForWallet: (wallet, tx) => signSealed(secrets, wallet, tx),
    tokenTreasury: undefined,
    close() {},
  };
}

/** Keys on `token`; the token is closed with the result. */
export async function tokenCustodyKeys(secrets: SecretBox, token: CustodyToken): Promise<CustodyKeys> {
  const treasuryKey = await token.publicKey(TREASURY_KEY_LABEL);
  const tokenTreasury: Treasury | undefined = treasuryKey && {
    address: publicKeyToAddress(bytesToHex(treasuryKey)),
    sign: (tx) => signTransactionWith((digest) => token.sign(TREASURY_KEY_LABEL, digest), treasuryKey, tx),
  };
  return {
    backend: 'pkcs11',
    async newWalletKey(walletId) {
      const keyLabel = walletKeyLabel(walletId);
      const publicKey = bytesToHex(await token.generateKey(keyLabel));
      return { address: publicKeyToAddress(publicKey), privateKeySealed: null, keyLabel, publicKey };
    },
    async signForWallet(wallet, tx) {
      if (!wallet.keyLabel || !wallet.publicKey) return signSealed(secrets, wallet, tx);
      const label = wallet.keyLabel;
      return signTransactionWith((digest) => token.sign(label, digest), hexToBytes(wallet.publicKey as Hex), tx);
    },
    tokenTreasury,
    token,
    close: () => token.close(),
  };
}

function signSealed(secrets: SecretBox, wallet: WalletKey, tx: TransactionSerializable): Promise<Hex> {
  if (wallet.privateKeySealed) return signWithCustodyKey(secrets, wallet.privateKeySealed, wallet.id, tx);
  // Moved to a token, but this process runs with CUSTODY_KEYS=sealed: a deployment mistake, refused like a token down.
  return Promise.reject(new CustodyUnavailableError('sign', `wallet ${wallet.id}'s key is on a PKCS#11 token and CUSTODY_KEYS is not pkcs11`));
}
