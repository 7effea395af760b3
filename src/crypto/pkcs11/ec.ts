/*
 * The DER pieces a PKCS#11 EC key of secp256k1 is described with (PKCS#11 2.40 §2.3.3): CKA_EC_PARAMS is the curve's
 * OID as a DER namedCurve, CKA_EC_POINT the uncompressed point (04 ‖ x ‖ y) wrapped in a DER OCTET STRING (some
 * modules answer it bare; both are read).
 */

/** DER OBJECT IDENTIFIER 1.3.132.0.10 (secp256k1, SEC 2). */
export const SECP256K1_EC_PARAMS = Buffer.from('06052b8104000a', 'hex');

/** 04 ‖ x ‖ y as CKA_EC_POINT: a DER OCTET STRING of 65 bytes. */
export function encodeEcPoint(uncompressed: Uint8Array): Buffer {
  if (uncompressed.length !== 65 || uncompressed[0] !== 0x04) throw new Error('an uncompressed secp256k1 point is 65 bytes starting with 04');
  return Buffer.concat([Buffer.from([0x04, 0x41]), uncompressed]);
}

/** CKA_EC_POINT as 04 ‖ x ‖ y (65 bytes), from its DER OCTET STRING or bare. */
export function decodeEcPoint(value: Buffer): Buffer {
  if (value.length === 67 && value[0] === 0x04 && value[1] === 0x41 && value[2] === 0x04) return value.subarray(2);
  if (value.length === 65 && value[0] === 0x04) return value;
  throw new Error(`CKA_EC_POINT is not an uncompressed secp256k1 point (${value.length} bytes)`);
}
