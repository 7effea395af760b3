import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { stampedBodyText, verifyStamp } from '../../src/crypto/webauthn/stamp.js';
import { accounts, authenticators } from '../../src/db/schema/index.js';
import { SoftwareAuthenticator, type RegistrationOptions } from '../harness/authenticator.js';
import { backends } from '../harness/backends.js';
import { berliner, signedAt } from '../harness/fixtures.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';
import type { FieldError } from '../harness/types.js';

type Endpoint = 'create-user' | 'create-individual-account';
const ENDPOINTS: Endpoint[] = ['create-user', 'create-individual-account'];
const sha256hex = (text: string) => createHash('sha256').update(text).digest('hex');
let serial = 0;

/** A valid body for the endpoint with these authenticators; a new email each time. */
function body(endpoint: Endpoint, list: unknown[]): Record<string, unknown> {
  const common = { userInfo: berliner({ email: `passkey${++serial}@example.de` }), serviceTermsSignedAt: signedAt(), authenticators: list };
  return endpoint === 'create-user' ? { ...common, partnerSignedAgreementId: 'agr_passkeys' } : common;
}

interface Rule {
  rule: string;
  /** The authenticators[] entry to submit. */
  entry: () => unknown;
  pointer: string;
  code: string;
}

const AT = '/authenticators/0/attestation';
const entry = (options: RegistrationOptions = {}, passkey = new SoftwareAuthenticator()) => passkey.authenticator(options);

const RULES: Rule[] = [
  {
    rule: 'a corrupted attestation object',
    entry: () => {
      const e = entry();
      const raw = Buffer.from(e.attestation.attestationObject, 'base64url');
      return { ...e, attestation: { ...e.attestation, attestationObject: raw.subarray(0, raw.length - 10).toString('base64url') } };
    },
    pointer: `${AT}/attestationObject`,
    code: 'invalid_attestation',
  },
  {
    rule: 'a packed signature over other client data',
    entry: () => {
      const e = entry({ format: 'packed' });
      const clientData = { ...JSON.parse(Buffer.from(e.attestation.clientDataJson, 'base64url').toString()), other_keys_can_be_added_here: 'x' };
      return { ...e, attestation: { ...e.attestation, clientDataJson: Buffer.from(JSON.stringify(clientData)).toString('base64url') } };
    },
    pointer: `${AT}/attestationObject`,
    code: 'invalid_attestation',
  },
  { rule: 'a packed self attestation with another alg', entry: () => entry({ format: 'packed', packedAlg: -257 }), pointer: `${AT}/attestationObject`, code: 'invalid_attestation' },
  { rule: 'an RS256 (alg -257) credential key', entry: () => entry({}, new SoftwareAuthenticator({ algorithm: 'RS256' })), pointer: `${AT}/attestationObject`, code: 'unsupported_algorithm' },
  { rule: 'another relying party id', entry: () => entry({ rpId: 'wallet.example' }), pointer: `${AT}/attestationObject`, code: 'rp_id_mismatch' },
  { rule: 'no user presence', entry: () => entry({ flags: 0 }), pointer: `${AT}/attestationObject`, code: 'user_not_present' },
  { rule: 'an origin that is not allowed', entry: () => entry({ origin: 'https://evil.example' }), pointer: `${AT}/clientDataJson`, code: 'origin_not_allowed' },
  { rule: 'an IP-address origin', entry: () => entry({ origin: 'http://127.0.0.1:5173' }), pointer: `${AT}/clientDataJson`, code: 'origin_not_allowed' },
  { rule: 'a credential id other than the attested one', entry: () => entry({ attestedCredentialId: randomBytes(32) }), pointer: `${AT}/credentialId`, code: 'credential_id_mismatch' },
  { rule: 'a webauthn.get client data', entry: () => entry({ type: 'webauthn.get' }), pointer: `${AT}/clientDataJson`, code: 'invalid_client_data' },
];

for (const backend of backends()) {
  describe(`passkey registration (WebAuthn) [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;

    before(async () => {
      ({ server, tenants: [acme] } = await startTenants(backend, ['Acme']));
    });
    after(() => server.close());

    function send(endpoint: Endpoint, payload: unknown) {
      server.clock.advance(1000);
      return acme.client.post(`/v1/submit/${endpoint}`, payload);
    }

    async function storedFor(accountId: string) {
      const [account] = await server.database.db.select().from(accounts).where(eq(accounts.id, accountId));
      return server.database.db.select().from(authenticators).where(eq(authenticators.userId, account!.userId!));
    }

    async function counts() {
      return { authenticators: (await server.database.db.select().from(authenticators)).length, accounts: (await server.database.db.select().from(accounts)).length };
    }

    it('create-user with a format none registration: 201, and the verified key, rpIdHash, counter, AAGUID and format are stored', async () => {
      const passkey = new SoftwareAuthenticator({ signCount: 5, origin: 'https://localhost:8443' });
      const submitted = passkey.authenticator({ name: 'Pixel passkey' });
      const res = await send('create-user', body('create-user', [{ ...submitted, attestation: { ...submitted.attestation, credentialId: Buffer.from(passkey.credentialId).toString('base64') } }]));
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.isPasskeyActivated, true);
      const [row, ...more] = await storedFor(res.body.accountId);
      assert.equal(more.length, 0);
      assert.equal(row!.credentialId, passkey.credentialId.toString('base64url'), 'stored as canonical base64url');
      assert.equal(row!.publicKey, passkey.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'));
      assert.equal(row!.publicKeyAlgorithm, -7);
      assert.equal(row!.rpIdHash, sha256hex('localhost'));
      assert.equal(row!.signCount, 5);
      assert.equal(row!.aaguid, '6e1a9c04-b0f3-4c1e-9a2b-5d7f3e8c0a11');
      assert.equal(row!.attestationFormat, 'none');
      assert.equal(row!.authenticatorName, 'Pixel passkey');
      assert.equal(row!.attestationObject, submitted.attestation.attestationObject, 'the submitted blobs are kept as sent');
    });

    it('create-individual-account with packed registrations (self and x5c): 201, both stored', async () => {
      const self = new SoftwareAuthenticator();
      const x5c = new SoftwareAuthenticator({ origin: 'http://localhost:3000' });
      const res = await send('create-individual-account', body('create-individual-account', [self.authenticator({ format: 'packed' }), x5c.authenticator({ format: 'packed-x5c', attestationKey: 'RS256' })]));
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.isPasskeyActivated, true);
      const rows = await storedFor(res.body.accountId);
      assert.deepEqual(rows.map((r) => [r.credentialId, r.attestationFormat, r.signCount, r.rpIdHash]).sort(), [
        [self.credentialId.toString('base64url'), 'packed', 0, sha256hex('localhost')],
        [x5c.credentialId.toString('base64url'), 'packed', 0, sha256hex('localhost')],
      ].sort());
    });

    it('the stored credential verifies the passkey’s later stamps', async () => {
      const passkey = new SoftwareAuthenticator();
      const res = await send('create-individual-account', body('create-individual-account', [passkey.authenticator({ format: 'packed' })]));
      assert.equal(res.status, 201, res.text);
      const [row] = await storedFor(res.body.accountId);
      const signedBody = stampedBodyText({ type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', timestampMs: '1', organizationId: res.body.organizationId, parameters: {} });
      const result = verifyStamp({ stamp: passkey.stamp(signedBody), stampedBody: signedBody, credential: row!, origins: server.config.webauthn.origins });
      assert.deepEqual(result.ok && result.signCount, 1);
    });

    for (const rule of RULES) {
      for (const endpoint of ENDPOINTS) {
        it(`${endpoint}: ${rule.rule} → 400 ${rule.code} at ${rule.pointer}`, async () => {
          const before = await counts();
          const res = await send(endpoint, body(endpoint, [rule.entry()]));
          assert.equal(res.status, 400, res.text);
          assert.equal(res.body.code, 'validation_failed');
          assert.deepEqual(
            res.body.errors.map((e: FieldError) => ({ pointer: e.pointer, code: e.code, in: e.in })),
            [{ pointer: rule.pointer, code: rule.code, in: 'body' }],
          );
          assert.deepEqual(await counts(), before, 'nothing was written');
        });
      }
    }

    it('names the authenticator by its index, and reports its problems with the rest of the body’s in one response', async () => {
      const payload = body('create-user', [entry(), entry({ rpId: 'wallet.example', origin: 'https://evil.example' })]);
      (payload.userInfo as Record<string, unknown>).email = 'not-an-email';
      const res = await send('create-user', payload);
      assert.equal(res.status, 400, res.text);
      assert.deepEqual(res.body.errors.map((e: FieldError) => `${e.pointer} ${e.code}`).sort(), [
        '/authenticators/1/attestation/attestationObject rp_id_mismatch',
        '/authenticators/1/attestation/clientDataJson origin_not_allowed',
        '/userInfo/email invalid_email',
      ]);
    });

    it('checks the attestation also when the schema refuses the body', async () => {
      const payload = { ...body('create-individual-account', [entry({ origin: 'https://evil.example' })]), unexpected: true };
      const res = await send('create-individual-account', payload);
      assert.equal(res.status, 400, res.text);
      assert.ok(res.body.errors.some((e: FieldError) => e.pointer === `${AT}/clientDataJson` && e.code === 'origin_not_allowed'), res.text);
    });

    it('a credential id already registered is a 409, in whichever base64 alphabet it comes', async () => {
      const passkey = new SoftwareAuthenticator();
      const first = await send('create-user', body('create-user', [passkey.authenticator()]));
      assert.equal(first.status, 201, first.text);
      const before = await counts();
      const again = passkey.authenticator();
      for (const credentialId of [again.attestation.credentialId, Buffer.from(passkey.credentialId).toString('base64')]) {
        const res = await send('create-individual-account', body('create-individual-account', [{ ...again, attestation: { ...again.attestation, credentialId } }]));
        assert.equal(res.status, 409, res.text);
        assert.equal(res.body.code, 'authenticator_exists');
      }
      assert.deepEqual(await counts(), before, 'nothing was written');
    });
  });

  describe(`passkey registration with a configured relying party [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;

    before(async () => {
      ({ server, tenants: [acme] } = await startTenants(backend, ['Acme'], { APP_ENV: 'production', ENCRYPTION_KEY: 'ab'.repeat(32), WEBAUTHN_RP_IDS: 'wallet.example', WEBAUTHN_ORIGINS: 'https://wallet.example,https://app.wallet.example' }));
    });
    after(() => server.close());

    it('accepts that relying party’s origins and refuses the sandbox’s localhost', async () => {
      const wallet = new SoftwareAuthenticator({ rpId: 'wallet.example', origin: 'https://app.wallet.example' });
      const ok = await acme.client.post('/v1/submit/create-individual-account', body('create-individual-account', [wallet.authenticator({ format: 'packed' })]));
      assert.equal(ok.status, 201, ok.text);
      server.clock.advance(1000);
      const local = await acme.client.post('/v1/submit/create-individual-account', body('create-individual-account', [entry()]));
      assert.equal(local.status, 400, local.text);
      assert.deepEqual(local.body.errors.map((e: FieldError) => `${e.pointer} ${e.code}`).sort(), [`${AT}/attestationObject rp_id_mismatch`, `${AT}/clientDataJson origin_not_allowed`]);
    });
  });
}
