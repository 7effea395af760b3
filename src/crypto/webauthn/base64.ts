/**
 * Lenient decoding for WebAuthn fields, which browsers give as base64url without padding but some
 * integrators re-encode as standard base64. One alphabet per string, padding optional but correct if
 * present, no whitespace; null when the text is not base64 or decodes to nothing.
 */
export function decodeBase64Loose(text: string): Buffer | null {
  const unpadded = text.replace(/={1,2}$/, '');
  if (unpadded.length === 0 || unpadded.length % 4 === 1) return null;
  if (unpadded.length !== text.length && text.length % 4 !== 0) return null;
  const urlSafe = /^[A-Za-z0-9_-]+$/.test(unpadded);
  if (!urlSafe && !/^[A-Za-z0-9+/]+$/.test(unpadded)) return null;
  const bytes = Buffer.from(unpadded, urlSafe ? 'base64url' : 'base64');
  return bytes.length === 0 ? null : bytes;
}

/** base64url without padding: how browsers and Turnkey write every WebAuthn byte string, and how we store credential ids. */
export function base64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}
