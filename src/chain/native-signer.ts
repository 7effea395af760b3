import { bytesToHex, keccak256, serializeTransaction, type Hex, type TransactionSerializable } from 'viem';
import { secretKeyFromHexText, type Secp256k1 } from '../crypto/secp256k1.js';

/**
 * What viem's signTransaction does (the signing hash is keccak256 of the unsigned serialization; the signature goes
 * into the serialization as r, s and yParity, with v as viem's `sign` sets it), with libsecp256k1 for the curve.
 * Both use RFC 6979 nonces and low S, so the signed bytes are the same as viem's for the same key and transaction
 * (property-tested). The key is its 0x-prefixed hex text in UTF-8 bytes; its decoded copy is zeroed here.
 */
export function signTransactionNatively(secp256k1: Secp256k1, keyText: Uint8Array, transaction: TransactionSerializable): Hex {
  const hash = keccak256(serializeTransaction(transaction), 'bytes');
  const secret = secretKeyFromHexText(keyText);
  let signed: { signature: Uint8Array; recid: number };
  try {
    signed = secp256k1.ecdsaSign(hash, secret);
  } finally {
    secret.fill(0);
  }
  const yParity = signed.recid;
  const signature = { r: bytesToHex(signed.signature.subarray(0, 32)), s: bytesToHex(signed.signature.subarray(32, 64)), v: yParity ? 28n : 27n, yParity };
  return serializeTransaction(transaction, signature);
}
