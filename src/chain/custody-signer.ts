import { parseTransaction, type Hex, type TransactionSerializable } from 'viem';
import type { SecretBox } from '../crypto/secret-box.js';
import { sealContexts } from '../crypto/seal-contexts.js';
import { nativeSecp256k1 } from '../crypto/secp256k1.js';
import { signTransactionNatively } from './native-signer.js';
import { signOffThread } from './signing-thread/client.js';

export class UnsignedTransactionError extends Error {
  override readonly name = 'UnsignedTransactionError';
}

/** An unsigned transaction as submitted: hex with or without 0x, parsed by viem (legacy, 2930, 1559, 7702). */
export function parseUnsignedTransaction(text: string): TransactionSerializable {
  const hex = (/^0x/i.test(text) ? `0x${text.slice(2)}` : `0x${text}`) as Hex;
  if (!/^0x[0-9a-fA-F]+$/.test(hex) || hex.length % 2 !== 0) throw new UnsignedTransactionError('is not an even-length hexadecimal string');
  let tx: TransactionSerializable & { r?: unknown; s?: unknown; v?: unknown; yParity?: unknown };
  try {
    tx = parseTransaction(hex);
  } catch (err) {
    throw new UnsignedTransactionError(`is not a serialized Ethereum transaction (${(err as Error).message.split('\n')[0]})`);
  }
  if (tx.r !== undefined || tx.s !== undefined) throw new UnsignedTransactionError('is already signed');
  if (tx.chainId === undefined) throw new UnsignedTransactionError('has no chain id (pre-EIP-155 transactions are refused)');
  if ((tx as { type?: string }).type === 'eip4844') throw new UnsignedTransactionError('is a blob transaction, which is not supported');
  return tx;
}

/**
 * Signs with a custody wallet's key: opened from its sealed form only for the signature and never kept.
 * `context` is the sealing context the wallet was stored under (`wallet:<walletId>`).
 */
export async function signWithCustodyKey(secrets: SecretBox, sealedKey: string, walletId: string, tx: TransactionSerializable): Promise<Hex> {
  // Sealed as its 0x-prefixed hex text (custodial-wallet.ts).
  const key = secrets.open(sealedKey, sealContexts.walletKey(walletId));
  try {
    // libsecp256k1 signs on the request thread in less than the hand-off to a thread costs; where its addon does
    // not load, viem's JavaScript curve signs on the signing thread (straight from the key: an account would also
    // derive the public key, a second curve multiplication that nothing here reads).
    return nativeSecp256k1 ? signTransactionNatively(nativeSecp256k1, key, tx) : await signOffThread(key, tx);
  } finally {
    key.fill(0);
  }
}
