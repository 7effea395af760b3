import { asBuffer, decodeCborSequence } from './cbor.js';
import { malformed } from './malformed.js';

/** Flag bits of authenticator data (WebAuthn Level 3, §6.1). */
export const FLAGS = { userPresent: 0x01, userVerified: 0x04, backupEligible: 0x08, backedUp: 0x10, attestedCredentialData: 0x40, extensionData: 0x80 } as const;

/** WebAuthn caps credential ids at 1023 bytes. */
const MAX_CREDENTIAL_ID_BYTES = 1023;

export interface AttestedCredentialData {
  aaguid: Buffer;
  credentialId: Buffer;
  /** The decoded COSE_Key, unchecked (see cose-key.ts). */
  publicKey: unknown;
}

export interface AuthenticatorData {
  rpIdHash: Buffer;
  flags: number;
  signCount: number;
  attested?: AttestedCredentialData;
  extensions?: unknown;
}

export function hasFlag(data: AuthenticatorData, flag: number): boolean {
  return (data.flags & flag) !== 0;
}

/**
 * rpIdHash (32) | flags (1) | signCount (4, big-endian) | [aaguid (16) | idLength (2) | id | COSE key] |
 * [extensions]. The AT and ED flags say which optional parts follow, and together they must use up every
 * byte: the COSE key and the extension map are read as a CBOR sequence of exactly that many items.
 */
export function parseAuthenticatorData(bytes: Buffer): AuthenticatorData {
  if (bytes.length < 37) malformed(`is ${bytes.length} bytes, shorter than the 37 of rpIdHash, flags and signCount`);
  const data: AuthenticatorData = { rpIdHash: bytes.subarray(0, 32), flags: bytes[32]!, signCount: bytes.readUInt32BE(33) };
  let rest = bytes.subarray(37);
  if (hasFlag(data, FLAGS.attestedCredentialData)) {
    if (rest.length < 18) malformed('ends inside the attested credential data');
    const idLength = rest.readUInt16BE(16);
    if (idLength === 0 || idLength > MAX_CREDENTIAL_ID_BYTES) malformed(`has a credential id of ${idLength} bytes (1 to ${MAX_CREDENTIAL_ID_BYTES})`);
    if (rest.length < 18 + idLength) malformed('ends inside the credential id');
    data.attested = { aaguid: rest.subarray(0, 16), credentialId: rest.subarray(18, 18 + idLength), publicKey: undefined };
    rest = rest.subarray(18 + idLength);
  }
  const expected = (data.attested ? 1 : 0) + (hasFlag(data, FLAGS.extensionData) ? 1 : 0);
  if (expected === 0) {
    if (rest.length > 0) malformed('has bytes after signCount that no flag announces');
    return data;
  }
  let items: unknown[];
  try {
    items = decodeCborSequence(rest);
  } catch {
    return malformed('holds a credential public key or extensions that are not well-formed CBOR');
  }
  if (items.length !== expected) malformed(`holds ${items.length} CBOR items after the fixed part where its flags announce ${expected}`);
  if (data.attested) data.attested.publicKey = items[0];
  if (hasFlag(data, FLAGS.extensionData)) {
    const extensions = items[expected - 1];
    if (!(extensions instanceof Map)) malformed('has extensions that are not a CBOR map');
    data.extensions = extensions;
  }
  return data;
}

/** The AAGUID in its usual UUID spelling (all zeros for authenticators that do not reveal their model). */
export function formatAaguid(aaguid: Uint8Array): string {
  const hex = asBuffer(aaguid).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
