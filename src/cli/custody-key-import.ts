import { randomBytes } from 'node:crypto';
import { bytesToHex, getAddress, hexToBytes, type Hex } from 'viem';
import { privateKeyToAccount, publicKeyToAddress } from 'viem/accounts';
import { TREASURY_KEY_LABEL, walletKeyLabel } from '../chain/custody-keys.js';
import { toRecoverableSignature } from '../chain/token-signature.js';
import { treasuryKeyFor } from '../chain/treasury.js';
import type { System } from '../composition-root.js';
import type { CustodyToken } from '../crypto/pkcs11/token.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { sealContexts } from '../crypto/seal-contexts.js';
import type { Executor } from '../db/database.js';
import { countSealedWallets, moveWalletKeyToToken, sealedWalletsAfter, type SealedWallet } from '../db/repositories/wallet-keys.js';

/** What one run did: wallets moved, wallets still sealed (0 when done), and the treasury's outcome. */
export interface ImportReport {
  imported: number;
  remaining: number;
  treasury: 'imported' | 'on_token' | 'none';
}

export interface ImportOptions {
  db: Executor;
  secrets: SecretBox;
  token: CustodyToken;
  /** The treasury's software key (TREASURY_PRIVATE_KEY, or the sandbox's derived one): moved too, under `treasury`. */
  treasuryKey?: Hex | undefined;
  /** Wallets read, imported and recorded per round (default 100): one bounded read and one short write each. */
  batchSize?: number;
  /** Called after each batch, for progress on stderr. */
  onBatch?: (progress: { imported: number; remaining: number }) => void;
}

export class KeyImportError extends Error {
  override readonly name = 'KeyImportError';
}

/**
 * `keys import-to-token` (docs/key-management.md#moving-keys-into-the-token): every wallet still holding a sealed key
 * gets it imported into the token as a sensitive, non-extractable object labelled `wallet:<id>`; the object is proven
 * by a signature that recovers to the wallet's address; then the row keeps the label and public key and its sealed
 * copy is erased. Batches are bounded and the work is resumable: a run stopped anywhere leaves rows either untouched
 * (still sealed, picked up again; a key already on the token under its label is checked and reused) or moved.
 * Safe while the server runs with CUSTODY_KEYS=pkcs11: a wallet signs from its sealed copy until its row moves.
 */
export async function importKeysToToken(options: ImportOptions): Promise<ImportReport> {
  const batchSize = options.batchSize ?? 100;
  const treasury = options.treasuryKey ? await importTreasury(options.token, options.treasuryKey) : 'none';
  let imported = 0;
  let afterId: string | undefined;
  for (;;) {
    const batch = await sealedWalletsAfter(options.db, afterId, batchSize);
    if (batch.length === 0) break;
    for (const wallet of batch) {
      const publicKey = await importWallet(options.token, options.secrets, wallet);
      if (await moveWalletKeyToToken(options.db, wallet, walletKeyLabel(wallet.id), publicKey)) imported++;
    }
    afterId = batch[batch.length - 1]!.id;
    options.onBatch?.({ imported, remaining: await countSealedWallets(options.db) });
  }
  return { imported, remaining: await countSealedWallets(options.db), treasury };
}

/**
 * `npm run admin -- keys import-to-token`: the import under this process's configuration (CUSTODY_KEYS=pkcs11), the
 * treasury's software key included; one JSON line per batch on stderr, the report on stdout.
 */
export async function importToTokenCommand(system: System, stderr: (line: string) => void = (line) => void process.stderr.write(line)): Promise<ImportReport & { seconds: number }> {
  const { config, custody } = system;
  if (!custody.token) throw new KeyImportError('keys import-to-token needs CUSTODY_KEYS=pkcs11 and the PKCS11_* settings of the token to import into');
  const started = Date.now();
  const report = await importKeysToToken({
    db: system.database.db,
    secrets: system.secrets,
    token: custody.token,
    treasuryKey: treasuryKeyFor({ key: config.deposits.treasuryKey, sandbox: config.appEnv === 'sandbox', secrets: system.secrets }),
    onBatch: (progress) => stderr(`${JSON.stringify(progress)}\n`),
  });
  return { ...report, seconds: Math.round((Date.now() - started) / 100) / 10 };
}

/** The wallet's key on the token (imported now, or found there from an interrupted run), checked; its public key. */
async function importWallet(token: CustodyToken, secrets: SecretBox, wallet: SealedWallet): Promise<Hex> {
  const label = walletKeyLabel(wallet.id);
  // Sealed as its 0x-prefixed hex text (custody-keys.ts); opened only for the import and zeroed after.
  const text = secrets.open(wallet.privateKeySealed, sealContexts.walletKey(wallet.id));
  try {
    return await importChecked(token, label, Buffer.from(text).toString('utf8') as Hex, wallet.address, `wallet ${wallet.id}`);
  } finally {
    text.fill(0);
  }
}

async function importTreasury(token: CustodyToken, key: Hex): Promise<ImportReport['treasury']> {
  const address = privateKeyToAccount(key).address;
  const existing = await token.publicKey(TREASURY_KEY_LABEL);
  await importChecked(token, TREASURY_KEY_LABEL, key, address, 'the treasury');
  return existing ? 'on_token' : 'imported';
}

/**
 * Imports `key` under `label` unless the token has that label already with the same public key (an earlier run
 * stopped before its row was written); then proves the object: its public key is `address`'s, and a signature made
 * on the token recovers to it. A label holding another key stops the import: the token is not overwritten.
 */
async function importChecked(token: CustodyToken, label: string, key: Hex, address: string, what: string): Promise<Hex> {
  const account = privateKeyToAccount(key);
  if (getAddress(account.address) !== getAddress(address)) throw new KeyImportError(`${what}: the sealed key is not the key of ${address}; nothing was imported`);
  const expected = hexToBytes(account.publicKey);
  const existing = await token.publicKey(label);
  if (existing && bytesToHex(existing) !== account.publicKey) throw new KeyImportError(`${what}: the token already holds another key labelled "${label}"`);
  if (!existing) {
    const secret = Buffer.from(key.slice(2), 'hex');
    try {
      await token.importKey(label, secret, expected);
    } finally {
      secret.fill(0);
    }
  }
  const stored = await token.publicKey(label);
  if (!stored || getAddress(publicKeyToAddress(bytesToHex(stored))) !== getAddress(address)) throw new KeyImportError(`${what}: the token's public key under "${label}" is not ${address}`);
  // The public object could say anything: a signature by the private object is what proves the import.
  const digest = randomBytes(32);
  await toRecoverableSignature(await token.sign(label, digest), digest, stored).catch(() => {
    throw new KeyImportError(`${what}: the token's key under "${label}" does not sign for ${address}`);
  });
  return bytesToHex(stored);
}
