import { decode, decodeFirst } from 'cborg';

/**
 * WebAuthn's CBOR (attestation objects, COSE keys, extension maps) read with cborg (pure JavaScript, no native
 * add-on). Maps decode as Map, because COSE labels are integers (negative ones too) that an object would turn
 * into strings. cborg refuses malformed, truncated and trailing data; tags it does not know are refused too.
 * Every caller checks the exact shape it reads and refuses anything else.
 */
const OPTIONS = { useMaps: true } as const;

/** One CBOR item filling all of `bytes`; throws on malformed, truncated or trailing data. */
export function decodeCbor(bytes: Uint8Array): unknown {
  return decode(bytes, OPTIONS);
}

/** Consecutive CBOR items filling all of `bytes` (the credential key and extensions in authenticator data). */
export function decodeCborSequence(bytes: Uint8Array): unknown[] {
  const items: unknown[] = [];
  let rest = bytes;
  while (rest.length > 0) {
    const [item, remainder] = decodeFirst(rest, OPTIONS);
    items.push(item);
    rest = remainder;
  }
  return items;
}

export function isBytes(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array;
}

export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
