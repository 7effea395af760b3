// A software passkey for `integrator trigger`: the member actions an entity's team makes need a member's approval, and
// a terminal has no WebAuthn. P-256 from node:crypto, a `none` attestation (what sandbox accepts at registration) for
// rpId `localhost` and origin `http://localhost:5173`, the sandbox defaults of WEBAUTHN_RP_IDS / WEBAUTHN_ORIGINS.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { stampChallenge, stampFromAssertion } from './stamps.js';

export const PASSKEY_RP_ID = 'localhost';
export const PASSKEY_ORIGIN = 'http://localhost:5173';

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

/** CBOR (RFC 8949) of the few shapes an attestation needs: integers, text, bytes, maps. */
function cbor(value: Cbor): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

export class SoftwarePasskey {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private signCount = 0;

  constructor() {
    ({ privateKey: this.privateKey, publicKey: this.publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' }));
  }

  private authData(flags: number, extra: Buffer = Buffer.alloc(0)): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.signCount);
    return Buffer.concat([sha256(PASSKEY_RP_ID), Buffer.from([flags]), counter, extra]);
  }

  /** An `authenticators[]` entry (create-individual-account) or `authenticator` (accept-invitation). */
  registration(name = 'integrator trigger') {
    const challenge = b64url(randomBytes(32));
    const clientDataJson = Buffer.from(JSON.stringify({ type: 'webauthn.create', challenge, origin: PASSKEY_ORIGIN, crossOrigin: false }));
    const jwk = this.publicKey.export({ format: 'jwk' });
    const cose = new Map<number, Cbor>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x!, 'base64url')], [-3, Buffer.from(jwk.y!, 'base64url')]]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    // Flags UP | UV | AT; an all-zero AAGUID, as a `none` attestation has.
    const authData = this.authData(0x45, Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, cbor(cose)]));
    const attestationObject = cbor(new Map<string, Cbor>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    return {
      authenticatorName: name,
      challenge,
      attestation: { credentialId: b64url(this.credentialId), clientDataJson: b64url(clientDataJson), attestationObject: b64url(attestationObject), transports: ['internal'] },
    };
  }

  /** The webAuthnStamp approving `signedBody` (the challenge commits to JSON.stringify of it). */
  stamp(signedBody: unknown): string {
    this.signCount++;
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: b64url(stampChallenge(signedBody)), origin: PASSKEY_ORIGIN, crossOrigin: false }));
    const authenticatorData = this.authData(0x05);
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), { key: this.privateKey, dsaEncoding: 'der' });
    return stampFromAssertion({ credentialId: this.credentialId, authenticatorData, clientDataJSON, signature });
  }
}
