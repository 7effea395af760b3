import { Decoder } from 'cbor-x';

/**
 * WebAuthn's CBOR (attestation objects, COSE keys, extension maps) read with cbor-x. Maps decode as Map,
 * because COSE labels are integers (negative ones too) that an object would turn into strings; records
 * are off because they are cbor-x's own extension, not CBOR that any authenticator writes. Tags cbor-x
 * knows still decode (a date, a typed array), which is harmless: every caller checks the exact shape it
 * reads and refuses anything else.
 */
const decoder = new Decoder({ mapsAsObjects: false, useRecords: false });

/** One CBOR item filling all of `bytes`; throws on malformed, truncated or trailing data. */
export function decodeCbor(bytes: Uint8Array): unknown {
  return decoder.decode(bytes);
}

/** Consecutive CBOR items filling all of `bytes` (the credential key and extensions in authenticator data). */
export function decodeCborSequence(bytes: Uint8Array): unknown[] {
  return (decoder.decodeMultiple(bytes) as unknown[] | undefined) ?? [];
}

export function isBytes(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array;
}

export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
