import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { privateKeyToAccount } from 'viem/accounts';
import { authenticators, wallets } from '../../src/db/schema/index.js';
import { backends } from '../harness/backends.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { eventsFor, statementsWaitingOnLocks } from '../harness/db.js';
import { eventually } from '../harness/eventually.js';
import { berliner, californian, doc, personDocs, signedAt } from '../harness/fixtures.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants, useTenants } from '../harness/tenants.js';
import type { AccountView, DocumentView, EventData, UserAccountView } from '../harness/types.js';

const CHECKSUMMED = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

for (const backend of backends()) {
  describe(`users and individual accounts [${backend}]`, () => {
    const { server, tenants: [acme, globex] } = useTenants(backend, ['Acme', 'Globex']);

    it('create-user: a complete US user with SSN and state is under_review, in the spec’s shape', async () => {
      const docs = personDocs();
      const res = await acme.client.post('/v1/submit/create-user', {
        userInfo: californian(),
        partnerSignedAgreementId: 'agr_2026_001',
        serviceTermsSignedAt: '2026-11-01T10:00:00Z',
        verificationDocuments: docs,
      });
      assert.equal(res.status, 201, res.text);
      const b = res.body;
      assert.equal(b.verificationStatus, 'under_review');
      assert.equal(b.partnerSignedAgreementId, 'agr_2026_001');
      assert.equal(b.serviceTermsSignedAt, '2026-11-01T10:00:00.000Z');
      assert.equal(b.walletAddress, undefined, 'create-user returns no walletAddress');
      assert.equal(b.missingDocuments, undefined, 'create-user returns no missingDocuments');
      assert.equal(b.userInfo.socialSecurityNumber, '***-**-6789');
      assert.equal(b.userInfo.residentialAddress.state, 'US-CA');
      assert.equal(b.isPasskeyActivated, false);
      assert.equal(b.isOtpActivated, false);
      assert.equal(b.verificationDocuments.length, 2);
      const passport = b.verificationDocuments.find((d: DocumentView) => d.documentType === 'passport');
      assert.deepEqual(Object.keys(passport).sort(), ['description', 'documentId', 'documentNumber', 'documentType', 'errors', 'issuingCountry', 'warnings']);
      assert.equal(passport.documentNumber, (docs[0] as { documentNumber?: string }).documentNumber, 'document number returned as sent');
      assert.ok(!res.text.includes(docs[0]!.document.slice(30, 80)), 'no document bytes in the response');

      const rows = await eventsFor(server.database, b.userId);
      assert.deepEqual(rows.map((r) => r.type), ['user.created']);
      assert.equal((rows[0]!.data as EventData<UserAccountView>).object.userInfo.socialSecurityNumber, '***-**-6789');
      assert.deepEqual((await eventsFor(server.database, b.accountId)).map((r) => r.type), ['account.created']);
    });

    it('create-user maps every not-yet-complete status onto waiting_for_information', async () => {
      const res = await acme.client.post('/v1/submit/create-user', { userInfo: berliner(), partnerSignedAgreementId: 'agr_2', serviceTermsSignedAt: signedAt() });
      assert.equal(res.status, 201);
      assert.equal(res.body.verificationStatus, 'waiting_for_information');
      const details = await acme.client.get(`/v1/query/get-user-details?userId=${res.body.userId}`);
      assert.equal(details.body.verificationStatus, 'awaiting_information', 'the full status set elsewhere');
      assert.deepEqual(details.body.missingDocuments, ['IDENTITY_DOCUMENT', 'PROOF_OF_ADDRESS_DOCUMENT']);
    });

    it('create-individual-account without walletAddress creates a custodial wallet whose key is sealed', async () => {
      const res = await acme.client.post('/v1/submit/create-individual-account', { userInfo: berliner(), serviceTermsSignedAt: signedAt() });
      assert.equal(res.status, 201, res.text);
      const b = res.body;
      assert.match(b.walletAddress, /^0x[0-9a-fA-F]{40}$/);
      assert.match(b.organizationId, /^[0-9a-f-]{36}$/);
      assert.equal(b.verificationStatus, 'awaiting_information');
      assert.deepEqual(b.missingDocuments, ['IDENTITY_DOCUMENT', 'PROOF_OF_ADDRESS_DOCUMENT']);
      assert.equal(b.partnerSignedAgreementId, undefined);

      const account = await acme.client.get(`/v1/query/get-account-details?accountId=${b.accountId}`);
      assert.deepEqual(
        { custody: account.body.custody, requiredApprovals: account.body.requiredApprovals, organizationId: account.body.organizationId, userId: account.body.userId },
        { custody: 'custodial', requiredApprovals: 1, organizationId: b.organizationId, userId: b.userId },
      );

      const [wallet] = await server.database.db.select().from(wallets).where(eq(wallets.accountId, b.accountId));
      assert.ok(wallet?.privateKeySealed);
      assert.equal(wallet.address, b.walletAddress);
      assert.doesNotMatch(wallet.privateKeySealed, /^0x[0-9a-f]{64}$/, 'not stored in clear');
      // The sealed key really is the wallet's key.
      const privateKey = await openWalletKey(server, wallet.id, wallet.privateKeySealed);
      assert.equal(privateKeyToAccount(privateKey).address, b.walletAddress);
      assert.ok(!JSON.stringify(await acme.client.get(`/v1/query/get-user-details?userId=${b.userId}`)).includes(privateKey.slice(2)));
    });

    it('create-individual-account with walletAddress is self-custodial with 0 required approvals', async () => {
      const res = await acme.client.post('/v1/submit/create-individual-account', {
        userInfo: californian({ email: 'self@example.com' }),
        serviceTermsSignedAt: signedAt(),
        walletAddress: CHECKSUMMED.toLowerCase(),
        verificationDocuments: personDocs(),
      });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.walletAddress, CHECKSUMMED, 'returned in EIP-55 form');
      assert.equal(res.body.organizationId, undefined);
      assert.equal(res.body.missingDocuments, undefined, 'omitted when nothing is missing');
      assert.equal(res.body.verificationStatus, 'under_review');
      const account = await acme.client.get(`/v1/query/get-account-details?accountId=${res.body.accountId}`);
      assert.equal(account.body.custody, 'self_custodial');
      assert.equal(account.body.requiredApprovals, 0);
      assert.equal((await server.database.db.select().from(wallets).where(eq(wallets.accountId, res.body.accountId))).length, 0);
    });

    it('an identity needs a passport, or both sides of a national id', async () => {
      const frontOnly = await acme.client.post('/v1/submit/create-individual-account', {
        userInfo: berliner({ email: 'front@example.de' }),
        serviceTermsSignedAt: signedAt(),
        verificationDocuments: [doc('national_id_front', 'DEU'), doc('proof_of_address', 'DEU')],
      });
      assert.deepEqual(frontOnly.body.missingDocuments, ['IDENTITY_DOCUMENT']);
      const both = await acme.client.post('/v1/submit/create-individual-account', {
        userInfo: berliner({ email: 'both@example.de' }),
        serviceTermsSignedAt: signedAt(),
        verificationDocuments: [doc('national_id_front', 'DEU'), doc('national_id_back', 'DEU'), doc('proof_of_address', 'DEU')],
      });
      assert.equal(both.body.missingDocuments, undefined);
      assert.equal(both.body.verificationStatus, 'under_review');
      const noAddress = await acme.client.post('/v1/submit/create-individual-account', {
        userInfo: berliner({ email: 'noaddr@example.de', residentialAddress: null, birthDate: null }),
        serviceTermsSignedAt: signedAt(),
        verificationDocuments: personDocs('DEU'),
      });
      assert.deepEqual(noAddress.body.missingDocuments, ['USER_INFO_BIRTH_DATE', 'USER_INFO_RESIDENTIAL_ADDRESS']);
    });

    it('records every document under the type it was submitted as; the same submission again is the one document (docs/onboarding.md#documents)', async () => {
      const passport = doc('passport', 'DEU');
      const twice = await acme.client.post('/v1/submit/create-individual-account', {
        userInfo: berliner({ email: 'dup@example.de' }),
        serviceTermsSignedAt: signedAt(),
        verificationDocuments: [passport, passport, { ...passport, description: 'again' }],
      });
      assert.equal(twice.status, 201, twice.text);
      assert.deepEqual(twice.body.verificationDocuments.map((d: DocumentView) => d.description), [null, 'again'], 'the exact repeat counts once; another description is another document');

      // An ID card scanned both sides in one image, sent as front and back: both recorded, the identity complete.
      const card = doc('national_id_front', 'DEU');
      const created = await acme.client.post('/v1/submit/create-individual-account', {
        userInfo: berliner({ email: 'one-scan@example.de' }),
        serviceTermsSignedAt: signedAt(),
        verificationDocuments: [card, { ...card, documentType: 'national_id_back' }],
      });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(created.body.verificationDocuments.map((d: DocumentView) => d.documentType).sort(), ['national_id_back', 'national_id_front']);
      assert.deepEqual(created.body.missingDocuments, ['PROOF_OF_ADDRESS_DOCUMENT'], 'IDENTITY_DOCUMENT is not missing');

      // Later, the same bytes under another type (update-user): recorded, with user.updated; a retry of it is not.
      const userId = created.body.userId;
      const later = await acme.client.patch('/v1/submit/update-user', { userId, verificationDocuments: [{ ...card, documentType: 'proof_of_address' }] });
      assert.equal(later.status, 200, later.text);
      assert.deepEqual(later.body.verificationDocuments.map((d: DocumentView) => d.documentType).sort(), ['national_id_back', 'national_id_front', 'proof_of_address']);
      assert.equal(later.body.missingDocuments, undefined);
      server.clock.advance(1000); // a new signature: the same signed request twice is refused before it is read
      const retry = await acme.client.patch('/v1/submit/update-user', { userId, verificationDocuments: [{ ...card, documentType: 'proof_of_address' }] });
      assert.equal(retry.status, 200, retry.text);
      assert.deepEqual(retry.body.verificationDocuments, later.body.verificationDocuments);
      assert.equal((await eventsFor(server.database, userId)).filter((e) => e.type === 'user.updated').length, 1, 'the retry changed nothing');
    });

    it('stores authenticators and reports the passkey; a credential id is registered once', async () => {
      const passkey = new SoftwareAuthenticator();
      const res = await acme.client.post('/v1/submit/create-user', {
        userInfo: berliner({ email: 'passkey@example.de' }),
        partnerSignedAgreementId: 'agr',
        serviceTermsSignedAt: signedAt(),
        authenticators: [passkey.authenticator({ name: 'MacBook Touch ID' })],
      });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.isPasskeyActivated, true);
      const again = await acme.client.post('/v1/submit/create-user', {
        userInfo: berliner({ email: 'passkey2@example.de' }),
        partnerSignedAgreementId: 'agr',
        serviceTermsSignedAt: signedAt(),
        authenticators: [passkey.authenticator()],
      });
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'authenticator_exists');
    });

    it('a passkey registered by a concurrent request after this one checked it is still a 409 authenticator_exists, never a 500', { skip: backend !== 'postgres' && 'PGlite has one connection: requests cannot interleave' }, async () => {
      const passkey = new SoftwareAuthenticator();
      const holder = await acme.client.post('/v1/submit/create-user', { userInfo: berliner({ email: 'holder@example.de' }), partnerSignedAgreementId: 'agr', serviceTermsSignedAt: signedAt() });
      assert.equal(holder.status, 201, holder.text);
      const credentialId = passkey.authenticator().attestation.credentialId;
      const waitingOnLocks = () => statementsWaitingOnLocks(server.database, '%insert into%authenticators%');
      // The other request: its row is written but not committed, so this request's check sees the id free and
      // its insert waits on that row until the other commits.
      const { pending } = await server.database.db.transaction(async (tx) => {
        await tx.insert(authenticators).values({
          id: crypto.randomUUID(),
          integratorId: acme.integratorId,
          userId: holder.body.userId,
          authenticatorName: 'first',
          credentialId,
          challenge: 'c',
          clientDataJson: 'e30',
          attestationObject: 'oA',
          transports: [],
        });
        const request = acme.client.post('/v1/submit/create-user', {
          userInfo: berliner({ email: 'second@example.de' }),
          partnerSignedAgreementId: 'agr',
          serviceTermsSignedAt: signedAt(),
          authenticators: [passkey.authenticator()],
        });
        await eventually(waitingOnLocks, (n) => n === 1, 'create-user to wait for the concurrent registration');
        // Wrapped, so that the transaction commits now rather than waiting for the answer.
        return { pending: request };
      });
      const res = await pending;
      assert.equal(res.status, 409, res.text);
      assert.equal(res.body.code, 'authenticator_exists');
      assert.match(res.body.detail, new RegExp(credentialId));
      const users = (await server.database.db.execute(sql`select count(*)::int as n from users where user_info->>'email' = 'second@example.de'`)) as unknown as { rows: { n: number }[] };
      assert.equal(Number(users.rows[0]!.n), 0, 'nothing of the refused request was kept');
    });

    it('answers another integrator’s user and account with the same 404 as missing ones', async () => {
      const mine = await globex.client.post('/v1/submit/create-individual-account', { userInfo: berliner({ email: 'g@example.de' }), serviceTermsSignedAt: signedAt() });
      const strip = (b: object) => ({ ...b, requestId: undefined });
      const foreignUser = await acme.client.get(`/v1/query/get-user-details?userId=${mine.body.userId}`);
      const missingUser = await acme.client.get(`/v1/query/get-user-details?userId=${crypto.randomUUID()}`);
      assert.equal(foreignUser.status, 404);
      assert.deepEqual(strip(foreignUser.body), strip(missingUser.body));
      const foreignAccount = await acme.client.get(`/v1/query/get-account-details?accountId=${mine.body.accountId}`);
      assert.equal(foreignAccount.status, 404);
      assert.equal((await acme.client.get('/v1/query/get-user-details?userId=not-a-uuid')).status, 400);
    });
  });

  describe(`list-accounts [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;

    before(async () => {
      let globex: SeededIntegrator;
      ({ server, tenants: [acme, globex] } = await startTenants(backend, ['Acme', 'Globex']));
      await globex.client.post('/v1/submit/create-entity-account', { serviceTermsSignedAt: signedAt() });
      for (let i = 0; i < 5; i++) {
        const r = await acme.client.post('/v1/submit/create-individual-account', {
          userInfo: berliner({ email: `u${i}@example.de` }),
          serviceTermsSignedAt: signedAt(),
          ...(i % 2 === 0 ? { verificationDocuments: personDocs('DEU') } : {}),
        });
        assert.equal(r.status, 201, r.text);
      }
      assert.equal((await acme.client.post('/v1/submit/create-entity-account', { serviceTermsSignedAt: signedAt() })).status, 201);
    });
    after(() => server.close());

    it('pages through every account once, oldest first, with hasMore', async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      for (;;) {
        const res = await acme.client.get(`/v1/query/list-accounts?limit=2${cursor ? `&startingAfter=${cursor}` : ''}`);
        assert.equal(res.status, 200);
        pages++;
        seen.push(...res.body.data.map((a: AccountView) => a.accountId));
        if (!res.body.hasMore) break;
        cursor = res.body.data.at(-1).accountId;
      }
      assert.equal(pages, 3);
      assert.equal(seen.length, 6, 'only this integrator’s six accounts');
      assert.deepEqual([...seen].sort(), seen, 'ordered by id (creation)');
      assert.equal(new Set(seen).size, 6);
    });

    it('filters by type and verificationStatus', async () => {
      const entities = await acme.client.get('/v1/query/list-accounts?type=entity');
      assert.deepEqual(entities.body.data.map((a: AccountView) => a.type), ['entity']);
      const review = await acme.client.get('/v1/query/list-accounts?verificationStatus=under_review');
      assert.equal(review.body.data.length, 3);
      assert.ok(review.body.data.every((a: AccountView) => a.verificationStatus === 'under_review' && a.type === 'individual'));
      const waiting = await acme.client.get('/v1/query/list-accounts?verificationStatus=awaiting_information&type=individual');
      assert.equal(waiting.body.data.length, 2);
    });

    it('validates its parameters', async () => {
      for (const q of ['limit=0', 'limit=101', 'limit=abc', 'startingAfter=nope', 'type=company', 'verificationStatus=done', 'color=red']) {
        const res = await acme.client.get(`/v1/query/list-accounts?${q}`);
        assert.equal(res.status, 400, q);
        assert.equal(res.body.errors[0].in, 'query', q);
      }
    });
  });
}

/** Opens a wallet key with the test server's own SecretBox, as the transaction signer will. */
async function openWalletKey(server: TestServer, walletId: string, sealed: string): Promise<`0x${string}`> {
  return server.secrets.open(sealed, `wallet:${walletId}`).toString('utf8') as `0x${string}`;
}
