import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { verificationFindings } from '../../src/db/schema/index.js';
import { backends } from '../harness/backends.js';
import { ETH, recipient } from '../harness/customers.js';
import { proposeTransfer } from '../harness/entity-team.js';
import { californian, companyInfo, doc, entityDocs, signedAt } from '../harness/fixtures.js';
import { flowFile, walkEntityLink } from '../harness/entity-flow.js';
import { post, type TeamAccount } from '../harness/members.js';
import { getPage, linkView, makeLink, postFiles } from '../harness/onboarding-flow.js';
import { useTenantsOnChain } from '../harness/tenants.js';

// The representative an entity link makes (docs/onboarding-links.md#the-entity-flow): their own user gives its
// documents in the flow, so it can be verified and, as the entity account's owner, move the company's funds; the same
// passport on their person record is one person's, not a duplicate (docs/verification.md#one-person-two-records).

for (const backend of backends()) {
  describe(`an entity link's representative is verified and acts for the company [${backend}]`, () => {
    const { server, chain, tenants: [acme] } = useTenantsOnChain(backend, 8453, ['Acme Wallet']);
    const userOf = async (userId: string) => {
      server.clock.advance(1000);
      return (await acme.client.get(`/v1/query/get-user-details?userId=${userId}`)).body;
    };

    /** The codes of a record's findings, each once. */
    const findings = async (subjectId: string) => [...new Set((await server.database.db.select().from(verificationFindings).where(eq(verificationFindings.subjectId, subjectId))).map((f) => f.code))].sort();

    it('the same files on a user and on their own person record of a company they are a member of; not on anyone else’s', async () => {
      const email = `rep.${randomUUID()}@example.com`;
      const me = californian({ email });
      const files = [doc('passport', 'USA', { documentNumber: `P${randomUUID().slice(0, 8)}` }), doc('proof_of_address')];
      const user = await post(server, acme, '/v1/submit/create-individual-account', { userInfo: me, serviceTermsSignedAt: signedAt(), verificationDocuments: files });
      assert.equal(user.status, 201, user.text);
      const company = async (name: string) => {
        const created = await post(server, acme, '/v1/submit/create-entity-account', { entityInfo: companyInfo({ businessLegalName: name }), entityDocuments: entityDocs(), serviceTermsSignedAt: signedAt() });
        assert.equal(created.status, 201, created.text);
        return created.body.accountId as string;
      };
      /** A person with the user's files, in review (its checks run as it enters it): its findings. */
      const person = async (accountId: string, userInfo: object) => {
        const created = await post(server, acme, '/v1/submit/create-associated-person', { accountId, userInfo, beneficiaryDetails: { beneficiaryType: ['representative'], title: 'Director' }, verificationDocuments: files });
        assert.equal(created.status, 201, created.text);
        if (created.body.verificationStatus === 'init') assert.equal((await post(server, acme, '/v1/submit/request-verification', { beneficiaryId: created.body.beneficiaryId })).status, 200);
        return findings(created.body.beneficiaryId as string);
      };
      const ours = await company('Garcia Trading Inc');
      // The same email and name make the user the company's owner (the first-owner rule), so a member of it.
      assert.deepEqual(await person(ours, me), [], 'the representative’s own record: one person, not a duplicate');
      server.clock.advance(1000);
      const members = (await acme.client.get(`/v1/query/list-members?accountId=${ours}`)).body.data;
      assert.deepEqual(members.map((m: { userId: string }) => m.userId), [user.body.userId]);
      const duplicates = ['document_number_reused', 'duplicate_document', 'ssn_shared'];
      assert.deepEqual(await person(ours, { ...me, firstName: 'Rosa', email: `rosa.${randomUUID()}@example.com` }), duplicates, 'another person of the same company');
      assert.deepEqual(await person(ours, { ...me, birthDate: '1990-01-01', email: `twin.${randomUUID()}@example.com` }), duplicates, 'the same name born another day');
      const theirs = await company('Other Holdings Inc');
      assert.deepEqual(await person(theirs, { ...me, email: `other.${randomUUID()}@example.com` }), duplicates, 'a company the user is no member of');
      assert.deepEqual(await findings(user.body.userId as string), [], 'the user was checked before any of them');
    });

    it('after the link: verification requested, a refused passport asked again through a fresh link, then approved; their transfer goes', async () => {
      const email = `jonas.${process.pid}@becker-robotics.example`;
      const walked = await walkEntityLink(server, acme, email, 100);
      const user = await userOf(walked.userId);
      assert.deepEqual([user.verificationStatus, user.requirements.currentlyDue], ['under_review', []], 'the link requested their verification');
      assert.ok(user.verificationDocuments.every((d: { errors: unknown }) => d.errors === null), JSON.stringify(user.verificationDocuments));

      // The sandbox refuses their passport: a fresh link goes straight to their own documents, and only the passport.
      const passport = user.verificationDocuments.find((d: { documentType: string }) => d.documentType === 'passport');
      const asked = await post(server, acme, '/v1/sandbox/simulate-verification', { accountId: user.accountId, outcome: 'request_resubmission', reasons: ['The photo is blurred'], documents: [passport.documentId] });
      assert.equal(asked.status, 200, asked.text);
      assert.deepEqual((await userOf(walked.userId)).requirements.currentlyDue, ['document.identity']);
      const link = await makeLink(server, acme, { type: 'entity', userId: walked.userId });
      const first = await getPage(server, link.path);
      assert.match(first.text, new RegExp(`href="${link.token}/documents"`));
      assert.match(first.text, /<li>your own identity document<\/li>/);
      const page = await getPage(server, `${link.path}/documents`);
      assert.match(page.text, /Your earlier document was refused: The photo is blurred/);
      assert.ok(!page.text.includes('name="proof_of_address"'), 'only what is due');
      const done = await postFiles(server, `${link.path}/documents`, { issuingCountry: 'DEU' }, { passport: flowFile('p.png', 150) });
      assert.equal(done.status, 200, `${done.status} ${String(done.headers.location)}`);
      assert.equal((await linkView(server, acme, link.id)).status, 'completed');
      assert.deepEqual([(await userOf(walked.userId)).verificationStatus, (await userOf(walked.userId)).requirements.currentlyDue], ['under_review', []], 'back in review');

      // The company and its person approved; the representative's user not yet: their transfer is 409 member_not_verified.
      server.clock.advance(1000);
      const entity = (await acme.client.get(`/v1/query/get-entity-details?accountId=${walked.accountId}`)).body;
      const [person] = entity.associatedPersons as { beneficiaryId: string }[];
      assert.equal((await post(server, acme, '/v1/sandbox/simulate-verification', { beneficiaryId: person!.beneficiaryId, outcome: 'approve' })).status, 200);
      const active = await post(server, acme, '/v1/sandbox/simulate-verification', { accountId: walked.accountId, outcome: 'approve' });
      assert.equal(active.body.verificationStatus, 'active', active.text);
      server.clock.advance(1000);
      const details = (await acme.client.get(`/v1/query/get-account-details?accountId=${walked.accountId}`)).body;
      const account = { accountId: walked.accountId, organizationId: details.organizationId, walletAddress: details.walletAddress } as TeamAccount;
      await chain.setBalance(account.walletAddress, ETH);
      const member = { userId: walked.userId, passkey: walked.passkey };
      const early = await proposeTransfer(server, acme, account, member, { nonce: 0, to: recipient(), value: ETH / 10n });
      assert.deepEqual([early.status, early.body.code], [409, 'member_not_verified'], early.text);

      const approved = await post(server, acme, '/v1/sandbox/simulate-verification', { accountId: user.accountId, outcome: 'approve' });
      assert.equal(approved.body.verificationStatus, 'active', approved.text);
      const sent = await proposeTransfer(server, acme, account, member, { nonce: 0, to: recipient(), value: ETH / 10n });
      assert.equal(sent.status, 201, sent.text);
      assert.notEqual(sent.body.status, 'failed', sent.text);
    });
  });
}
