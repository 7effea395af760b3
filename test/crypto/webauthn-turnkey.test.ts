import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { stampChallenge, stampedBodyText, verifyStamp } from '../../src/crypto/webauthn/stamp.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';

/**
 * The real @turnkey/webauthn-stamper, whose stamp() asks navigator.credentials.get() for an assertion over
 * the challenge it derives from the payload. Node has no navigator, so one backed by the software
 * authenticator stands in: it records the challenge the stamper asked for and answers like a browser.
 */
interface Stamper {
  stamp(payload: string): Promise<{ stampHeaderName: string; stampHeaderValue: string }>;
}
// Imported through a variable so TypeScript does not load the package's declarations: they carry
// `/// <reference lib="dom" />`, which would retype fetch and Buffer bodies in the whole program.
const STAMPER_PACKAGE = '@turnkey/webauthn-stamper';
const { WebauthnStamper } = (await import(STAMPER_PACKAGE)) as { WebauthnStamper: new (config: { rpId: string }) => Stamper };

const passkey = new SoftwareAuthenticator({ rpId: 'wallet.example', origin: 'https://wallet.example' });
const credential = {
  credentialId: passkey.credentialId,
  publicKey: passkey.publicKey,
  rpIdHash: createHash('sha256').update('wallet.example').digest(),
};
let requested: { challenge: Buffer; rpId: string } | undefined;

const toArrayBuffer = (bytes: Buffer) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);

const navigatorStandIn = {
  credentials: {
    async get(options: { publicKey: { challenge: Uint8Array; rpId: string } }) {
      requested = { challenge: Buffer.from(options.publicKey.challenge), rpId: options.publicKey.rpId };
      const assertion = passkey.assert(options.publicKey.challenge);
      return {
        type: 'public-key',
        id: passkey.credentialId.toString('base64url'),
        rawId: toArrayBuffer(passkey.credentialId),
        response: {
          clientDataJSON: toArrayBuffer(assertion.clientDataJson),
          authenticatorData: toArrayBuffer(assertion.authenticatorData),
          signature: toArrayBuffer(assertion.signature),
          userHandle: null,
        },
        getClientExtensionResults: () => ({}),
      };
    },
  },
};

describe('webauthn: @turnkey/webauthn-stamper agrees with our challenge and verifier', () => {
  before(() => {
    Object.defineProperty(globalThis, 'navigator', { value: navigatorStandIn, configurable: true, writable: true });
  });
  after(() => {
    delete (globalThis as { navigator?: unknown }).navigator;
  });

  const stamper = new WebauthnStamper({ rpId: 'wallet.example' });
  let signCount = 0;

  async function stampAndVerify(payload: string) {
    const { stampHeaderName, stampHeaderValue } = await stamper.stamp(payload);
    assert.equal(stampHeaderName, 'X-Stamp-Webauthn');
    assert.equal(requested?.rpId, 'wallet.example');
    // The stamper's challenge (the bytes handed to navigator.credentials.get) is ours, decoded.
    assert.deepEqual(requested?.challenge, Buffer.from(stampChallenge(payload), 'base64url'));
    const result = verifyStamp({ stamp: stampHeaderValue, stampedBody: payload, credential: { ...credential, signCount }, origins: ['https://wallet.example'] });
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.challenge, stampChallenge(payload));
    signCount = result.signCount;
  }

  it('a signedBody stamped the way Turnkey’s client does (JSON.stringify of the body)', async () => {
    const signedBody = {
      type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
      timestampMs: '1767225600000',
      organizationId: '0193f3e1-7c2a-7d4e-9b1a-2f6c8d0e4a51',
      parameters: { signWith: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', unsignedTransaction: '02e80180', type: 'TRANSACTION_TYPE_ETHEREUM' },
    };
    await stampAndVerify(JSON.stringify(signedBody));
    // What the server hashes is the same text, recomputed from the parsed request.
    assert.equal(stampedBodyText(JSON.parse(JSON.stringify({ signedBody })).signedBody), JSON.stringify(signedBody));
  });

  it('property: any JSON body and any Unicode text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue().map((v) => JSON.stringify(v)), fc.string({ unit: 'grapheme', maxLength: 80 })), async (payload) => {
        await stampAndVerify(payload);
      }),
      { numRuns: 60 },
    );
  });
});
