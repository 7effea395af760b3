import { bytesToHex, hexToBytes, keccak256, recoverPublicKey, serializeTransaction, type Hex, type TransactionSerializable } from 'viem';
import { nativeSecp256k1 } from '../crypto/secp256k1.js';

/** The order of secp256k1's group (SEC 2 §2.4.1). */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = N >> 1n;

/** Signs a 32-byte digest with a key the caller cannot see (a PKCS#11 token): r ‖ s, 64 bytes, any s. */
export type DigestSigner = (digest: Uint8Array) => Promise<Uint8Array>;

export class SignatureMismatchError extends Error {
  override readonly name = 'SignatureMismatchError';
}

/**
 * A raw ECDSA signature as Ethereum takes it: s made low (EIP-2: s > n/2 becomes n − s, which flips the recovery
 * id, found afterwards anyway), and the recovery id found by recovering the signer's key from the digest with each
 * candidate and keeping the one that gives `publicKey` (04 ‖ x ‖ y). A token has no notion of either.
 */
export async function toRecoverableSignature(raw: Uint8Array, digest: Uint8Array, publicKey: Uint8Array): Promise<{ r: Hex; s: Hex; yParity: 0 | 1 }> {
  if (raw.length !== 64) throw new SignatureMismatchError(`an ECDSA signature is 64 bytes (r ‖ s), not ${raw.length}`);
  const r = bytesToBigInt(raw.subarray(0, 32));
  let s = bytesToBigInt(raw.subarray(32));
  if (r === 0n || r >= N || s === 0n || s >= N) throw new SignatureMismatchError('the token answered an ECDSA signature out of range');
  if (s > HALF_N) s = N - s;
  const compact = new Uint8Array(64);
  compact.set(raw.subarray(0, 32));
  compact.set(bigIntTo32Bytes(s), 32);
  const expected = bytesToHex(publicKey);
  for (const yParity of [0, 1] as const) {
    if ((await recover(compact, yParity, digest)) === expected) return { r: bytesToHex(compact.subarray(0, 32)), s: bytesToHex(compact.subarray(32)), yParity };
  }
  // The token signed with another key than the one recorded for this wallet: nothing is sent.
  throw new SignatureMismatchError('the signature does not recover to the wallet’s public key');
}

/**
 * What native-signer.ts does, with the signature made elsewhere: the signing hash is keccak256 of the unsigned
 * serialization; r, s and yParity go into the serialization, v as viem's `sign` sets it. ECDSA nonces on a token
 * are random (no RFC 6979), so r and s differ from a software signer's for the same key; the unsigned fields and
 * the recovered address do not.
 */
export async function signTransactionWith(sign: DigestSigner, publicKey: Uint8Array, transaction: TransactionSerializable): Promise<Hex> {
  const digest = keccak256(serializeTransaction(transaction), 'bytes');
  const { r, s, yParity } = await toRecoverableSignature(await sign(digest), digest, publicKey);
  return serializeTransaction(transaction, { r, s, v: yParity ? 28n : 27n, yParity });
}

/** libsecp256k1's recovery where its addon loads (about 50 µs); viem's JavaScript curve otherwise. */
async function recover(compact: Uint8Array, yParity: 0 | 1, digest: Uint8Array): Promise<Hex | undefined> {
  try {
    if (nativeSecp256k1?.ecdsaRecover) return bytesToHex(nativeSecp256k1.ecdsaRecover(compact, yParity, digest, false));
    return await recoverPublicKey({ hash: digest, signature: { r: bytesToHex(compact.subarray(0, 32)), s: bytesToHex(compact.subarray(32)), yParity } });
  } catch {
    // A candidate that recovers no point is simply not the one.
    return undefined;
  }
}

function bytesToBigInt(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(bytesToHex(bytes));
}

function bigIntTo32Bytes(value: bigint): Uint8Array {
  return hexToBytes(`0x${value.toString(16).padStart(64, '0')}`);
}
