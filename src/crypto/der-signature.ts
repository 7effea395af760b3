/**
 * Strict DER parsing of an ECDSA signature: SEQUENCE { INTEGER r, INTEGER s }.
 * OpenSSL would also reject most malformed input, but parsing here lets the API tell a malformed
 * signature (400-class mistake by the integrator) from a wrong one.
 */
export interface EcdsaSignature {
  r: bigint;
  s: bigint;
}

/** Order of the P-256 group. */
export const P256_N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

function readInteger(buf: Buffer, offset: number): { value: bigint; next: number } | null {
  if (buf[offset] !== 0x02) return null;
  const len = buf[offset + 1];
  if (len === undefined || len === 0 || len > 33 || offset + 2 + len > buf.length) return null;
  const bytes = buf.subarray(offset + 2, offset + 2 + len);
  const first = bytes[0] ?? 0;
  // Negative numbers and non-minimal encodings are not DER.
  if (first & 0x80) return null;
  if (len > 1 && first === 0 && ((bytes[1] ?? 0) & 0x80) === 0) return null;
  return { value: BigInt(`0x${bytes.toString('hex')}`), next: offset + 2 + len };
}

export function parseDerSignature(buf: Buffer): EcdsaSignature | null {
  if (buf.length < 8 || buf.length > 72) return null;
  if (buf[0] !== 0x30 || buf[1] !== buf.length - 2) return null;
  const r = readInteger(buf, 2);
  if (!r) return null;
  const s = readInteger(buf, r.next);
  if (!s || s.next !== buf.length) return null;
  if (r.value === 0n || s.value === 0n || r.value >= P256_N || s.value >= P256_N) return null;
  return { r: r.value, s: s.value };
}

function encodeInteger(value: bigint): Buffer {
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  let bytes = Buffer.from(hex, 'hex');
  if ((bytes[0] ?? 0) & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return Buffer.concat([Buffer.from([0x02, bytes.length]), bytes]);
}

export function encodeDerSignature(sig: EcdsaSignature): Buffer {
  const body = Buffer.concat([encodeInteger(sig.r), encodeInteger(sig.s)]);
  return Buffer.concat([Buffer.from([0x30, body.length]), body]);
}

/** The other valid signature of the same message: (r, n - s). Used to prove high-S acceptance. */
export function flipS(sig: EcdsaSignature): EcdsaSignature {
  return { r: sig.r, s: P256_N - sig.s };
}
