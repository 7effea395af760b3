import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { encode as cborEncode } from 'cborg';
import { selfSignedCertificate } from './x509.js';

/**
 * A software WebAuthn authenticator: what a browser and a platform authenticator together give an
 * integrator's front end, for tests. P-256 keys from node:crypto, CBOR written with cborg (Maps, so COSE
 * labels stay integers). Registrations come in formats none and packed (self
 * attestation, or with an x5c certificate); assertions and Turnkey stamps advance a signature counter.
 * Every option that breaks something exists so a test can show the server refusing it.
 */

/** CBOR as authenticators write it (maps with integer labels stay maps). */
const cbor = { encode: (value: unknown): Buffer => Buffer.from(cborEncode(value)) };
const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

export const FLAG = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40, ED: 0x80 } as const;

export type CredentialAlgorithm = 'ES256' | 'RS256' | 'EdDSA';

export interface RegistrationOptions {
  /** base64url; random by default. */
  challenge?: string;
  format?: 'none' | 'packed' | 'packed-x5c';
  /** Hash this rp id into authData instead of the authenticator's own. */
  rpId?: string;
  origin?: string;
  type?: string;
  /** Flags of authData; AT is added whatever is given. Default UP | UV. */
  flags?: number;
  /** Write this credential id into authData (the submitted one stays the authenticator's). */
  attestedCredentialId?: Buffer;
  /** Append a CBOR extensions map (and set ED). */
  extensions?: Map<string, unknown>;
  /** Put this alg label into the packed statement instead of the signing key's own. */
  packedAlg?: number;
  /** packed-x5c: the attestation certificate's key type (ES256 by default). */
  attestationKey?: 'ES256' | 'RS256';
  transports?: string[];
}

export interface Registration {
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports: string[];
}

export interface AssertionOptions {
  origin?: string;
  type?: string;
  rpId?: string;
  /** Default UP | UV. */
  flags?: number;
  /** Write this counter instead of advancing the authenticator's. */
  signCount?: number;
  /** Sign with another key. */
  signWith?: KeyObject;
}

export interface Assertion {
  authenticatorData: Buffer;
  clientDataJson: Buffer;
  signature: Buffer;
}

export class SoftwareAuthenticator {
  readonly credentialId: Buffer;
  readonly rpId: string;
  readonly origin: string;
  readonly aaguid: Buffer;
  readonly algorithm: CredentialAlgorithm;
  readonly publicKey: KeyObject;
  private readonly privateKey: KeyObject;
  /** The counter of the last signature (0 at registration). */
  signCount: number;
  /** How much each assertion advances the counter; 0 for synced passkeys, which keep none. */
  private readonly counterStep: number;

  constructor(options: { rpId?: string; origin?: string; credentialId?: Buffer; aaguid?: Buffer; algorithm?: CredentialAlgorithm; signCount?: number; counterStep?: number } = {}) {
    this.rpId = options.rpId ?? 'localhost';
    this.origin = options.origin ?? 'http://localhost:5173';
    this.credentialId = options.credentialId ?? randomBytes(32);
    this.aaguid = options.aaguid ?? Buffer.from('6e1a9c04b0f34c1e9a2b5d7f3e8c0a11', 'hex');
    this.algorithm = options.algorithm ?? 'ES256';
    this.signCount = options.signCount ?? 0;
    this.counterStep = options.counterStep ?? 1;
    const pair =
      this.algorithm === 'RS256'
        ? generateKeyPairSync('rsa', { modulusLength: 2048 })
        : this.algorithm === 'EdDSA'
          ? generateKeyPairSync('ed25519')
          : generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.publicKey = pair.publicKey;
    this.privateKey = pair.privateKey;
  }

  /** The credential public key as a COSE_Key. */
  coseKey(): Map<number, unknown> {
    const jwk = this.publicKey.export({ format: 'jwk' });
    const bytes = (field: string | undefined) => Buffer.from(field!, 'base64url');
    if (this.algorithm === 'RS256') return new Map<number, unknown>([[1, 3], [3, -257], [-1, bytes(jwk.n)], [-2, bytes(jwk.e)]]);
    if (this.algorithm === 'EdDSA') return new Map<number, unknown>([[1, 1], [3, -8], [-1, 6], [-2, bytes(jwk.x)]]);
    return new Map<number, unknown>([[1, 2], [3, -7], [-1, 1], [-2, bytes(jwk.x)], [-3, bytes(jwk.y)]]);
  }

  /** What navigator.credentials.create() gives the front end, encoded the way the integrator submits it. */
  register(options: RegistrationOptions = {}): Registration & { challenge: string } {
    const challenge = options.challenge ?? b64url(randomBytes(32));
    const clientDataJson = Buffer.from(JSON.stringify({ type: options.type ?? 'webauthn.create', challenge, origin: options.origin ?? this.origin, crossOrigin: false }));
    const credentialId = options.attestedCredentialId ?? this.credentialId;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const extensions = options.extensions ? cbor.encode(options.extensions) : Buffer.alloc(0);
    const flags = (options.flags ?? FLAG.UP | FLAG.UV) | FLAG.AT | (options.extensions ? FLAG.ED : 0);
    const authData = Buffer.concat([this.fixedPart(options.rpId ?? this.rpId, flags, this.signCount), this.aaguid, idLength, credentialId, cbor.encode(this.coseKey()), extensions]);

    const signed = Buffer.concat([authData, sha256(clientDataJson)]);
    let fmt = 'none';
    let attStmt = new Map<string, unknown>();
    if (options.format === 'packed') {
      fmt = 'packed';
      attStmt = new Map<string, unknown>([['alg', options.packedAlg ?? -7], ['sig', this.sign(signed)]]);
    } else if (options.format === 'packed-x5c') {
      // A separate attestation key, certified by itself: the server verifies the leaf's signature only.
      const rsa = options.attestationKey === 'RS256';
      const attestation = rsa ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const certificate = selfSignedCertificate(attestation.publicKey, attestation.privateKey);
      fmt = 'packed';
      attStmt = new Map<string, unknown>([['alg', options.packedAlg ?? (rsa ? -257 : -7)], ['sig', this.sign(signed, attestation.privateKey)], ['x5c', [certificate]]]);
    }
    const attestationObject = cbor.encode(new Map<string, unknown>([['fmt', fmt], ['attStmt', attStmt], ['authData', authData]]));
    return {
      challenge,
      credentialId: b64url(this.credentialId),
      clientDataJson: b64url(clientDataJson),
      attestationObject: b64url(attestationObject),
      transports: options.transports ?? ['internal', 'hybrid'],
    };
  }

  /** An `authenticators[]` entry of create-user / create-individual-account. */
  authenticator(options: RegistrationOptions & { name?: string } = {}) {
    const { challenge, ...attestation } = this.register(options);
    return { authenticatorName: options.name ?? 'Test passkey', challenge, attestation };
  }

  /** What navigator.credentials.get() signs for `challenge` (raw bytes), advancing the counter. */
  assert(challenge: Uint8Array, options: AssertionOptions = {}): Assertion {
    if (options.signCount === undefined) this.signCount += this.counterStep;
    const clientDataJson = Buffer.from(JSON.stringify({ type: options.type ?? 'webauthn.get', challenge: b64url(challenge), origin: options.origin ?? this.origin, crossOrigin: false }));
    const authenticatorData = this.fixedPart(options.rpId ?? this.rpId, options.flags ?? FLAG.UP | FLAG.UV, options.signCount ?? this.signCount);
    const signature = this.sign(Buffer.concat([authenticatorData, sha256(clientDataJson)]), options.signWith);
    return { authenticatorData, clientDataJson, signature };
  }

  /**
   * Turnkey's X-Stamp-Webauthn value for a body text, as @turnkey/webauthn-stamper builds it: the challenge
   * is the UTF-8 of the hex SHA-256 of the text.
   */
  stamp(stampedBody: string, options: AssertionOptions = {}): string {
    const challenge = Buffer.from(sha256(stampedBody).toString('hex'), 'utf8');
    return stampOf(this.credentialId, this.assert(challenge, options));
  }

  private fixedPart(rpId: string, flags: number, signCount: number): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(signCount);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), counter]);
  }

  private sign(data: Buffer, key: KeyObject = this.privateKey): Buffer {
    if (key.asymmetricKeyType === 'ed25519') return sign(null, data, key);
    if (key.asymmetricKeyType === 'rsa') return sign('sha256', data, key);
    return sign('sha256', data, { key, dsaEncoding: 'der' });
  }
}

/** The stamp JSON, members in Turnkey's order. */
export function stampOf(credentialId: Buffer, assertion: Assertion): string {
  return JSON.stringify({
    authenticatorData: b64url(assertion.authenticatorData),
    clientDataJson: b64url(assertion.clientDataJson),
    credentialId: b64url(credentialId),
    signature: b64url(assertion.signature),
  });
}
