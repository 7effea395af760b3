import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pkcs11js from 'pkcs11js';
import { bytesToHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { secp256k1 } from '@noble/curves/secp256k1';
import { CustodyUnavailableError, TokenConfigError, TokenObjectMissingError } from '../../src/crypto/pkcs11/errors.js';
import { acquireModule, releaseModule } from '../../src/crypto/pkcs11/library.js';
import { CustodyToken } from '../../src/crypto/pkcs11/token.js';
import { createTestToken, SOFTHSM_MODULE, softHsmMissing, type TestToken } from '../harness/softhsm.js';

const skip = softHsmMissing('the PKCS#11 token tests');

/** The private key's attributes as the module answers them, through a session of the test's own. */
function privateKeyAttributes(token: TestToken, label: string): { sensitive: boolean; extractable: boolean; token: boolean; private: boolean; valueRefused: string } {
  const lib = acquireModule(SOFTHSM_MODULE);
  try {
    const slot = lib.C_GetSlotList(true).find((s) => lib.C_GetTokenInfo(s).label.trimEnd() === token.label)!;
    const session = lib.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION);
    try {
      lib.C_Login(session, pkcs11js.CKU_USER, token.pin);
    } catch {
      // Logged in already through the token under test: the login is the application's.
    }
    lib.C_FindObjectsInit(session, [{ type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY }, { type: pkcs11js.CKA_LABEL, value: label }]);
    const [key] = lib.C_FindObjects(session, 1);
    lib.C_FindObjectsFinal(session);
    const read = (type: number) => lib.C_GetAttributeValue(session, key!, [{ type }])[0]!.value as Buffer;
    let valueRefused = 'readable';
    try {
      read(pkcs11js.CKA_VALUE);
    } catch (err) {
      valueRefused = /CKR_[A-Z_]+/.exec((err as Error).message)?.[0] ?? 'error';
    }
    const flag = (type: number) => read(type)[0] === 1;
    const attributes = { sensitive: flag(pkcs11js.CKA_SENSITIVE), extractable: flag(pkcs11js.CKA_EXTRACTABLE), token: flag(pkcs11js.CKA_TOKEN), private: flag(pkcs11js.CKA_PRIVATE), valueRefused };
    lib.C_CloseSession(session);
    return attributes;
  } finally {
    releaseModule(SOFTHSM_MODULE);
  }
}

describe('PKCS#11 custody token on SoftHSM2', { skip: skip ? `${SOFTHSM_MODULE} is missing` : false }, () => {
  let testToken: TestToken;
  /** A second token, for the wrong PIN (the first stays logged in). Made first: SoftHSM2 lists the tokens it found at start. */
  let other: TestToken;
  let token: CustodyToken;

  before(async () => {
    testToken = await createTestToken();
    other = await createTestToken();
    token = await CustodyToken.open({ module: SOFTHSM_MODULE, tokenLabel: testToken.label, pin: () => testToken.pin, sessions: 3 });
  });
  after(() => token?.close());

  it('a token that cannot be opened is a configuration error naming the setting, never the PIN', async () => {
    const open = (options: { module?: string; tokenLabel?: string; pin?: string }) =>
      CustodyToken.open({ module: options.module ?? SOFTHSM_MODULE, tokenLabel: options.tokenLabel ?? testToken.label, pin: () => options.pin ?? testToken.pin });
    await assert.rejects(open({ module: '/nonexistent/libnothing.so' }), (err: unknown) => err instanceof TokenConfigError && err.variable === 'PKCS11_MODULE' && /libnothing/.test(err.message));
    await assert.rejects(open({ tokenLabel: 'no-such-token' }), (err: unknown) => err instanceof TokenConfigError && err.variable === 'PKCS11_TOKEN_LABEL' && err.message.includes(testToken.label));
    const wrongPin = 'wrong-pin-7731';
    await assert.rejects(open({ tokenLabel: other.label, pin: wrongPin }), (err: unknown) => {
      assert.ok(err instanceof TokenConfigError);
      assert.equal(err.variable, 'PKCS11_PIN');
      assert.match(err.message, /CKR_PIN_INCORRECT/);
      assert.ok(!err.message.includes(wrongPin) && !err.message.includes(other.pin));
      return true;
    });
    // A PIN read from PKCS11_PIN_FILE: the error names that variable and the file, still never the PIN.
    const fromFile = CustodyToken.open({ module: SOFTHSM_MODULE, tokenLabel: other.label, pin: () => wrongPin, pinSource: { variable: 'PKCS11_PIN_FILE', path: '/run/secrets/custody-pin' } });
    await assert.rejects(fromFile, (err: unknown) => {
      assert.ok(err instanceof TokenConfigError);
      assert.equal(err.variable, 'PKCS11_PIN_FILE');
      assert.equal(err.message, `PKCS11_PIN_FILE: the token "${other.label}" refused the PIN in /run/secrets/custody-pin (CKR_PIN_INCORRECT)`);
      return true;
    });
  });

  it('generates a secp256k1 key inside the token: sensitive, not extractable, persistent, private; signs digests verifiably', async () => {
    const publicKey = await token.generateKey('wallet:generated');
    assert.equal(publicKey.length, 65);
    assert.deepEqual(await token.publicKey('wallet:generated'), publicKey);
    assert.deepEqual(privateKeyAttributes(testToken, 'wallet:generated'), { sensitive: true, extractable: false, token: true, private: true, valueRefused: 'CKR_ATTRIBUTE_SENSITIVE' });
    const digest = randomBytes(32);
    const signature = await token.sign('wallet:generated', digest);
    assert.equal(signature.length, 64);
    assert.ok(secp256k1.verify(signature, digest, publicKey, { lowS: false, prehash: false }), 'the signature verifies against the public key');
  });

  it('imports an existing key as a sensitive, non-extractable object whose public key is the account’s', async () => {
    const privateKey = generatePrivateKey();
    const account = privateKeyToAccount(privateKey);
    await token.importKey('wallet:imported', Buffer.from(privateKey.slice(2), 'hex'), Buffer.from(account.publicKey.slice(2), 'hex'));
    assert.equal(bytesToHex((await token.publicKey('wallet:imported'))!), account.publicKey);
    assert.deepEqual(privateKeyAttributes(testToken, 'wallet:imported'), { sensitive: true, extractable: false, token: true, private: true, valueRefused: 'CKR_ATTRIBUTE_SENSITIVE' });
    const digest = randomBytes(32);
    assert.ok(secp256k1.verify(await token.sign('wallet:imported', digest), digest, account.publicKey.slice(2), { lowS: false, prehash: false }));
  });

  it('signs many digests at once over a few sessions, each signature valid', async () => {
    const publicKey = await token.generateKey('wallet:concurrent');
    const digests = Array.from({ length: 40 }, () => randomBytes(32));
    const signatures = await Promise.all(digests.map((digest) => token.sign('wallet:concurrent', digest)));
    signatures.forEach((signature, i) => assert.ok(secp256k1.verify(signature, digests[i]!, publicKey, { lowS: false, prehash: false }), `signature ${i}`));
  });

  it('a label with no key is TokenObjectMissingError; the sessions closed under it fail one signature, then it opens new ones', async () => {
    await assert.rejects(token.sign('wallet:absent', new Uint8Array(32)), TokenObjectMissingError);
    await token.generateKey('wallet:reopened');
    const lib = acquireModule(SOFTHSM_MODULE);
    try {
      const slot = lib.C_GetSlotList(true).find((s) => lib.C_GetTokenInfo(s).label.trimEnd() === testToken.label)!;
      lib.C_CloseAllSessions(slot);
    } finally {
      releaseModule(SOFTHSM_MODULE);
    }
    await assert.rejects(token.sign('wallet:reopened', new Uint8Array(32).fill(7)), (err: unknown) => err instanceof CustodyUnavailableError && /CKR_SESSION_HANDLE_INVALID/.test(err.message));
    // The broken session was dropped: the next signature opens and logs in a fresh one.
    assert.equal((await token.sign('wallet:reopened', new Uint8Array(32).fill(7))).length, 64);
  });
});
