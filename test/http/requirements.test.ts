import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../harness/backends.js';
import { eventsFor } from '../harness/db.js';
import { californian, companyInfo, personDocs, signedAt } from '../harness/fixtures.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { useTenants } from '../harness/tenants.js';

const ALL = ['birthDate', 'nationality', 'residentialAddress', 'document.identity', 'document.proofOfAddress'];
const none = { currentlyDue: [], pastDue: [], pendingVerification: [], errors: [] };

/** Each request a second after the last (the same signed request twice in a second is a replay). */
function send(server: TestServer, who: SeededIntegrator) {
  return {
    get: (path: string) => (server.clock.advance(1000), who.client.get(path)),
    post: (path: string, body: unknown) => (server.clock.advance(1000), who.client.post(path, body)),
    patch: (path: string, body: unknown) => (server.clock.advance(1000), who.client.patch(path, body)),
  };
}

async function requirementEvents(server: TestServer, id: string) {
  return (await eventsFor(server.database, id)).filter((e) => e.type === 'requirements.updated').map((e) => e.data as { object: { requirements: unknown }; previousAttributes: { requirements: unknown } });
}

for (const backend of backends()) {
  describe(`customer requirements [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme Wallet']);

    it('a user’s requirements follow its data, documents and review, with requirements.updated on each change only', async () => {
      const api = send(server, acme);
      const terms = signedAt();
      const created = await api.post('/v1/submit/create-individual-account', { userInfo: californian(), serviceTermsSignedAt: terms });
      assert.equal(created.status, 201, created.text);
      const { userId, accountId } = created.body;
      const user = async () => {
        const res = await api.get(`/v1/query/get-user-details?userId=${userId}`);
        assert.equal(res.status, 200, res.text);
        return res.body;
      };
      const first = await user();
      assert.deepEqual(first.requirements, { ...none, currentlyDue: ['document.identity', 'document.proofOfAddress'] });
      assert.deepEqual([first.termsAcceptedAt, first.termsVersion], [first.serviceTermsSignedAt, null]);
      assert.equal(Date.parse(first.termsAcceptedAt), Date.parse(terms));
      assert.deepEqual(await requirementEvents(server, userId), [], 'creation announces nothing beyond user.created, which carries them');
      const createdEvent = (await eventsFor(server.database, userId)).find((e) => e.type === 'user.created')!;
      assert.deepEqual((createdEvent.data as { object: { requirements: unknown } }).object.requirements, first.requirements);

      // A change that leaves them as they are announces nothing.
      assert.equal((await api.patch('/v1/submit/update-user', { userId, userInfo: { phone: '+14155550123' } })).status, 200);
      assert.equal((await requirementEvents(server, userId)).length, 0);

      const documents = personDocs();
      assert.equal((await api.patch('/v1/submit/update-user', { userId, verificationDocuments: documents })).status, 200);
      assert.deepEqual((await user()).requirements, none, 'complete, not yet under review (init)');
      assert.equal((await api.post('/v1/submit/request-verification', { accountId })).status, 200);
      assert.deepEqual((await user()).requirements, { ...none, pendingVerification: ALL });

      const passport = (await user()).verificationDocuments.find((d: { documentType: string }) => d.documentType === 'passport');
      const resubmit = await api.post('/v1/sandbox/simulate-verification', { accountId, outcome: 'request_resubmission', reasons: ['The photo is blurred'], documents: [passport.documentId] });
      assert.equal(resubmit.status, 200, resubmit.text);
      const owed = { currentlyDue: ['document.identity'], pastDue: ['document.identity'], pendingVerification: [], errors: [{ requirement: 'document.identity', reason: 'The photo is blurred' }] };
      assert.deepEqual((await user()).requirements, owed);

      assert.equal((await api.patch('/v1/submit/update-user', { userId, verificationDocuments: [personDocs()[0]] })).status, 200);
      const back = await user();
      assert.equal(back.verificationStatus, 'under_review');
      assert.deepEqual(back.requirements, { ...none, pendingVerification: ALL }, 'the refused passport is history once a new one meets the requirement');
      assert.equal((await api.post('/v1/sandbox/simulate-verification', { accountId, outcome: 'approve' })).status, 200);
      assert.deepEqual((await user()).requirements, none);

      const announced = await requirementEvents(server, userId);
      assert.deepEqual(
        announced.map((d) => d.object.requirements),
        [none, { ...none, pendingVerification: ALL }, owed, { ...none, pendingVerification: ALL }, none],
        'one event per change: documents given, under review, resubmission asked (status and errors together), given again, approved',
      );
      assert.deepEqual(announced[2]!.previousAttributes.requirements, { ...none, pendingVerification: ALL });
      const [event] = (await eventsFor(server.database, userId)).filter((e) => e.type === 'requirements.updated');
      assert.deepEqual([event!.objectType, (event!.data as { object: { userId: string; accountId: string } }).object.userId], ['user', userId]);
    });

    it('an entity’s requirements name its missing fields and document groups, in get-entity-details', async () => {
      const api = send(server, acme);
      const info = companyInfo();
      delete (info as Record<string, unknown>).companyNumber;
      const created = await api.post('/v1/submit/create-entity-account', { entityInfo: info, serviceTermsSignedAt: signedAt() });
      assert.equal(created.status, 201, created.text);
      const details = await api.get(`/v1/query/get-entity-details?accountId=${created.body.accountId}`);
      assert.equal(details.status, 200, details.text);
      assert.deepEqual(details.body.requirements, {
        ...none,
        currentlyDue: ['companyNumber', 'document.companyDetails', 'document.ownershipStructure', 'document.sourceOfFunds', 'document.proofOfAddress'],
      });
      assert.deepEqual(created.body.requirements, details.body.requirements);
      assert.equal((await api.patch('/v1/submit/update-entity-account', { accountId: created.body.accountId, entityInfo: { companyNumber: 'HRB 12345' } })).status, 200);
      const announced = await requirementEvents(server, created.body.entityId);
      assert.deepEqual(announced.map((d) => d.object.requirements), [{ ...none, currentlyDue: ['document.companyDetails', 'document.ownershipStructure', 'document.sourceOfFunds', 'document.proofOfAddress'] }]);
    });
  });
}
