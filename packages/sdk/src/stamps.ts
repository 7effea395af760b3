import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

// The end user's passkey approval of a signedBody (`webAuthnStamp` of send-transaction-passkey; docs/passkeys.md):
// a WebAuthn assertion whose challenge commits to JSON.stringify(signedBody), packed as Turnkey's stamp JSON.

type Bytes = ArrayBuffer | ArrayBufferView;

const toBytes = (b: Bytes): Uint8Array => (b instanceof ArrayBuffer ? new Uint8Array(b) : new Uint8Array(b.buffer, b.byteOffset, b.byteLength));

function base64url(bytes: Bytes): string {
  let binary = '';
  for (const byte of toBytes(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '='));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The WebAuthn challenge for a signedBody: the UTF-8 of the hex SHA-256 of JSON.stringify(signedBody). */
export function stampChallenge(signedBody: unknown): Uint8Array {
  return utf8ToBytes(bytesToHex(sha256(utf8ToBytes(JSON.stringify(signedBody)))));
}

/** Turnkey's stamp JSON from the parts of an assertion (what navigator.credentials.get() returned). */
export function stampFromAssertion(assertion: { credentialId: Bytes; authenticatorData: Bytes; clientDataJSON: Bytes; signature: Bytes }): string {
  return JSON.stringify({
    authenticatorData: base64url(assertion.authenticatorData),
    clientDataJson: base64url(assertion.clientDataJSON),
    credentialId: base64url(assertion.credentialId),
    signature: base64url(assertion.signature),
  });
}

/** What navigator.credentials.get() is asked (the subset this uses), typed here so the package needs no DOM types. */
export interface PasskeyRequest {
  publicKey: {
    challenge: Uint8Array;
    rpId?: string;
    allowCredentials?: { type: 'public-key'; id: Uint8Array }[];
    timeout: number;
    userVerification: 'required' | 'preferred' | 'discouraged';
  };
}

/** A WebAuthn credentials container: navigator.credentials, or anything that answers the same way. */
export interface CredentialsGetter {
  get(options: PasskeyRequest): Promise<unknown>;
}

interface AssertionCredential {
  rawId: Bytes;
  response: { authenticatorData: Bytes; clientDataJSON: Bytes; signature: Bytes };
}

export interface StampOptions {
  /** The relying party id the passkey was registered for (default: the page's host). */
  rpId?: string;
  /** The user's credential ids (base64url, as registered) to offer; default: let the browser choose. */
  credentialIds?: string[];
  timeoutMs?: number;
  userVerification?: 'required' | 'preferred' | 'discouraged';
  /** The credentials container (default navigator.credentials): a test, or another WebAuthn implementation. */
  credentials?: CredentialsGetter;
}

/**
 * In a browser: asks the end user's passkey to approve `signedBody` and returns the `webAuthnStamp` to send with it
 * (send-transaction-passkey, or a member action). Send the same object as `signedBody`: the stamp commits to
 * JSON.stringify of it.
 */
export async function stampWithPasskey(signedBody: unknown, options: StampOptions = {}): Promise<string> {
  const credentials = options.credentials ?? (globalThis as { navigator?: { credentials?: CredentialsGetter } }).navigator?.credentials;
  if (!credentials) throw new Error('no WebAuthn here (navigator.credentials): pass options.credentials, or stamp in the browser');
  const credential = (await credentials.get({
    publicKey: {
      challenge: stampChallenge(signedBody),
      ...(options.rpId ? { rpId: options.rpId } : {}),
      ...(options.credentialIds ? { allowCredentials: options.credentialIds.map((id) => ({ type: 'public-key' as const, id: fromBase64url(id) })) } : {}),
      timeout: options.timeoutMs ?? 60_000,
      userVerification: options.userVerification ?? 'preferred',
    },
  })) as AssertionCredential | null;
  if (!credential) throw new Error('the passkey prompt was dismissed');
  return stampFromAssertion({ credentialId: credential.rawId, authenticatorData: credential.response.authenticatorData, clientDataJSON: credential.response.clientDataJSON, signature: credential.response.signature });
}
