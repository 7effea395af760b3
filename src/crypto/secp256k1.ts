import { createRequire } from 'node:module';

/** libsecp256k1's ECDSA, as the `secp256k1` package's native addon exposes it. */
export interface Secp256k1 {
  /** A low-S signature (r ‖ s, 64 bytes) with the nonce of RFC 6979, and its recovery id. */
  ecdsaSign(message32: Uint8Array, secretKey: Uint8Array): { signature: Uint8Array; recid: number };
  /** The signer's public key from a signature (r ‖ s) and its recovery id; 65 bytes (04 ‖ x ‖ y) when not compressed. */
  ecdsaRecover?(signature: Uint8Array, recid: number, message32: Uint8Array, compressed: boolean): Uint8Array;
}

/**
 * bitcoin-core's libsecp256k1 through the `secp256k1` package's prebuilt addon (linux-x64, darwin-arm64,
 * win32-x64): a custody signature in about a tenth of the CPU of the JavaScript curve (docs/benchmarks.md#transactions).
 * Loaded from `secp256k1/bindings`, not the package's entry point, which would fall back to the `elliptic` JavaScript
 * library without saying so. Undefined where the addon does not load: the caller signs in JavaScript instead.
 */
export const nativeSecp256k1: Secp256k1 | undefined = (() => {
  try {
    return createRequire(import.meta.url)('secp256k1/bindings') as Secp256k1;
  } catch {
    return undefined;
  }
})();

/**
 * A private key held as its 0x-prefixed hex text in UTF-8 bytes (how custody keys are sealed) as its 32 bytes,
 * decoded without making a string of it, so the caller can zero both copies. Throws on anything else.
 */
export function secretKeyFromHexText(text: Uint8Array): Buffer {
  if (text.length !== 66 || text[0] !== 0x30 || (text[1] !== 0x78 && text[1] !== 0x58)) throw new Error('a private key must be 0x and 64 hexadecimal digits');
  const key = Buffer.alloc(32);
  for (let i = 0; i < 32; i++) {
    const hi = hexDigit(text[2 + 2 * i]!);
    const lo = hexDigit(text[3 + 2 * i]!);
    if (hi < 0 || lo < 0) {
      key.fill(0);
      throw new Error('a private key must be 0x and 64 hexadecimal digits');
    }
    key[i] = hi * 16 + lo;
  }
  return key;
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}
