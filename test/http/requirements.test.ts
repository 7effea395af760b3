import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../harness/backends.js';
import { eventsFor } from '../harness/db.js';
import { berliner, californian, companyInfo, entityDocs, personDocs, signedAt } from '../harness/fixtures.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { useTenants } from '../harness/tenants.js';

const ALL = ['birthDate', 'nationality', 'residentialAddress', 'document.identity', 'document.proofOfAddress'];
interface Owed {
  currentlyDue: string[];
  pastDue: string[];
  pendingVerification: string[];
  errors: { requirement: string; reason: string }[];
}
const none: Owed = { currentlyDue: [], pastDue: [], pendingVerification: [], errors: [] };

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

    it('an entity’s requirements name its missing fields, document groups and representative, in get-entity-details', async () => {
      const api = send(server, acme);
      const info = companyInfo();
      delete (info as Record<string, unknown>).companyNumber;
      const created = await api.post('/v1/submit/create-entity-account', { entityInfo: info, serviceTermsSignedAt: signedAt() });
      assert.equal(created.status, 201, created.text);
      const details = await api.get(`/v1/query/get-entity-details?accountId=${created.body.accountId}`);
      assert.equal(details.status, 200, details.text);
      assert.deepEqual(details.body.requirements, {
        ...none,
        currentlyDue: ['companyNumber', 'document.companyDetails', 'document.ownershipStructure', 'document.sourceOfFunds', 'document.proofOfAddress', 'associatedPersons.representative'],
      });
      assert.deepEqual(created.body.requirements, details.body.requirements);
      assert.equal((await api.patch('/v1/submit/update-entity-account', { accountId: created.body.accountId, entityInfo: { companyNumber: 'HRB 12345' } })).status, 200);
      const announced = await requirementEvents(server, created.body.entityId);
      assert.deepEqual(announced.map((d) => d.object.requirements), [{ ...none, currentlyDue: ['document.companyDetails', 'document.ownershipStructure', 'document.sourceOfFunds', 'document.proofOfAddress', 'associatedPersons.representative'] }]);
    });

    it('an entity’s requirements name a missing representative and each associated person’s requirements under its id', async () => {
      const api = send(server, acme);
      const created = await api.post('/v1/submit/create-entity-account', { entityInfo: companyInfo(), entityDocuments: entityDocs(), serviceTermsSignedAt: signedAt() });
      assert.equal(created.status, 201, created.text);
      const { accountId, entityId } = created.body;
      const owed = async () => {
        const res = await api.get(`/v1/query/get-entity-details?accountId=${accountId}`);
        assert.equal(res.status, 200, res.text);
        return res.body.requirements as Owed;
      };
      const own = await owed();
      assert.deepEqual(own.currentlyDue, ['associatedPersons.representative'], 'complete, but no representative: review cannot start');
      assert.deepEqual(created.body.requirements, own);
      const waiting = own.pendingVerification;
      assert.ok(waiting.includes('companyNumber') && waiting.includes('document.companyDetails'), 'what it gave waits for its persons');

      // A representative without documents: the entity owes the person's documents, by the person's id.
      const added = await api.post('/v1/submit/create-associated-person', { accountId, userInfo: berliner(), beneficiaryDetails: { beneficiaryType: ['representative'], title: 'CEO' } });
      assert.equal(added.status, 201, added.text);
      const id = added.body.beneficiaryId as string;
      const due = [`${id}.document.identity`, `${id}.document.proofOfAddress`];
      assert.deepEqual(await owed(), { ...none, currentlyDue: due, pendingVerification: [...waiting, 'associatedPersons.representative'] });

      assert.equal((await api.patch('/v1/submit/update-associated-person', { beneficiaryId: id, verificationDocuments: personDocs('DEU') })).status, 200);
      assert.deepEqual((await owed()).currentlyDue, [], 'the person is complete (init): nothing is due');
      assert.equal((await api.post('/v1/submit/request-verification', { beneficiaryId: id })).status, 200);
      const reviewed = (await owed()).pendingVerification.filter((name) => name.startsWith(`${id}.`));
      assert.deepEqual(reviewed, ALL.map((name) => `${id}.${name}`), 'the person under review: its requirements are pending verification');

      const person = await api.get(`/v1/query/get-associated-person-details?beneficiaryId=${id}`);
      const passport = person.body.verificationDocuments.find((d: { documentType: string }) => d.documentType === 'passport');
      const asked = await api.post('/v1/sandbox/simulate-verification', { beneficiaryId: id, outcome: 'request_resubmission', reasons: ['The photo is blurred'], documents: [passport.documentId] });
      assert.equal(asked.status, 200, asked.text);
      const refused = await owed();
      assert.deepEqual([refused.currentlyDue, refused.pastDue], [[`${id}.document.identity`], [`${id}.document.identity`]]);
      assert.deepEqual(refused.errors, [{ requirement: `${id}.document.identity`, reason: 'The photo is blurred' }]);

      assert.equal((await api.post('/v1/submit/remove-associated-person', { beneficiaryId: id })).status, 200);
      assert.deepEqual((await owed()).currentlyDue, ['associatedPersons.representative']);

      // Each person change that moved them wrote requirements.updated for the entity, in its transaction (its time).
      const events = await eventsFor(server.database, entityId);
      const announced = events.filter((e) => e.type === 'requirements.updated');
      assert.deepEqual(
        announced.map((e) => (e.data as { object: { requirements: Owed } }).object.requirements.currentlyDue),
        [due, [], [], [`${id}.document.identity`], ['associatedPersons.representative']],
        'person added, documents given, person under review, resubmission asked, person removed',
      );
      assert.deepEqual((announced[0]!.data as { previousAttributes: { requirements: unknown } }).previousAttributes.requirements, own);
      const personEvents = await eventsFor(server.database, id);
      const personChanges = personEvents.filter((e) => e.type === 'associated_person.created' || e.type === 'associated_person.removed');
      assert.deepEqual([announced[0]!.createdAt, announced[4]!.createdAt], personChanges.map((e) => e.createdAt));
    });
  });
}
