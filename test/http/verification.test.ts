import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { verificationTransitions } from '../../src/db/schema/index.js';
import { backends } from '../harness/backends.js';
import { eventsFor } from '../harness/db.js';
import { berliner, californian, companyInfo, doc, entityDocs, personDocs, signedAt } from '../harness/fixtures.js';
import { startServer, type TestServer } from '../harness/server.js';
import { useTenants } from '../harness/tenants.js';
import type { ChangeData, DocumentView, EventData, StatusChange } from '../harness/types.js';

for (const backend of backends()) {
  describe(`verification lifecycle [${backend}]`, () => {
    const { server, tenants: [acme, globex] } = useTenants(backend, ['Acme', 'Globex']);

    const simulate = (body: object) => {
      server.clock.advance(1000);
      return acme.client.post('/v1/sandbox/simulate-verification', body);
    };
    const status = async (userId: string) => (await acme.client.get(`/v1/query/get-user-details?userId=${userId}`)).body.verificationStatus;

    it('refuses request-verification with 422 and what is missing, then accepts it once complete', async () => {
      const created = await acme.client.post('/v1/submit/create-individual-account', { userInfo: berliner({ email: 'rv@example.de' }), serviceTermsSignedAt: signedAt() });
      assert.equal(created.body.verificationStatus, 'awaiting_information');
      const refused = await acme.client.post('/v1/submit/request-verification', { accountId: created.body.accountId });
      assert.equal(refused.status, 422);
      assert.equal(refused.body.code, 'verification_requirements_missing');
      assert.deepEqual(refused.body.missingDocuments, ['IDENTITY_DOCUMENT', 'PROOF_OF_ADDRESS_DOCUMENT']);

      // Completing the record later leaves it in init until verification is requested.
      const updated = await acme.client.patch('/v1/submit/update-user', { userId: created.body.userId, verificationDocuments: personDocs('DEU') });
      assert.equal(updated.status, 200, updated.text);
      assert.equal(updated.body.verificationStatus, 'init');
      server.clock.advance(1000); // the same body as the refused request: a new second, or it is a replay
      const requested = await acme.client.post('/v1/submit/request-verification', { accountId: created.body.accountId });
      assert.equal(requested.status, 200, requested.text);
      assert.deepEqual(requested.body, { accountId: created.body.accountId, verificationStatus: 'under_review' });

      // Asking again is not a move the state machine allows.
      server.clock.advance(1000);
      const again = await acme.client.post('/v1/submit/request-verification', { accountId: created.body.accountId });
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'invalid_state_transition');
      assert.deepEqual([again.body.fromStatus, again.body.toStatus, again.body.action], ['under_review', 'under_review', 'request_verification']);

      const rows = await server.database.db.select().from(verificationTransitions).where(eq(verificationTransitions.subjectId, created.body.userId));
      assert.deepEqual(
        rows.map((r) => [r.fromStatus, r.toStatus, r.action, r.actorType]),
        [
          ['not_started', 'awaiting_information', 'created', 'integrator'],
          ['awaiting_information', 'init', 'data_changed', 'integrator'],
          ['init', 'under_review', 'request_verification', 'integrator'],
        ],
      );
      const events = (await eventsFor(server.database, created.body.userId)).map((e) => e.type);
      // Giving the documents and requesting verification each moved the user's requirements (docs/onboarding-links.md#requirements).
      assert.deepEqual(events, ['user.created', 'user.verification_status.changed', 'user.updated', 'requirements.updated', 'user.verification_status.changed', 'requirements.updated']);
    });

    it('sandbox: approve makes a user active; reject is final; each decision is one event with previous and new status', async () => {
      const a = await acme.client.post('/v1/submit/create-individual-account', { userInfo: californian({ email: 'ok@example.com' }), serviceTermsSignedAt: signedAt(), verificationDocuments: personDocs() });
      assert.equal(a.body.verificationStatus, 'under_review');
      const approved = await simulate({ accountId: a.body.accountId, outcome: 'approve' });
      assert.deepEqual(approved.body, { accountId: a.body.accountId, verificationStatus: 'active' });
      const decided = await eventsFor(server.database, a.body.userId);
      // The decision's status change, and its requirements (nothing pending verification any more) in the same transaction.
      assert.deepEqual(decided.slice(-2).map((e) => e.type), ['user.verification_status.changed', 'requirements.updated']);
      const last = decided.at(-2)!;
      assert.deepEqual((last.data as ChangeData<StatusChange, 'verificationStatus'>).previousAttributes, { verificationStatus: 'under_review' });
      assert.equal((last.data as EventData<StatusChange>).object.verificationStatus, 'active');

      const r = await acme.client.post('/v1/submit/create-individual-account', { userInfo: californian({ email: 'no@example.com' }), serviceTermsSignedAt: signedAt(), verificationDocuments: personDocs() });
      const rejected = await simulate({ accountId: r.body.accountId, outcome: 'reject', reasons: ['Document forged'] });
      assert.equal(rejected.body.verificationStatus, 'rejected');
      const [row] = (await server.database.db.select().from(verificationTransitions).where(eq(verificationTransitions.subjectId, r.body.userId))).slice(-1);
      assert.deepEqual([row!.actorType, row!.reason], ['sandbox', 'Document forged']);
      const eventsBefore = (await eventsFor(server.database, r.body.userId)).length;
      const refused = await simulate({ accountId: r.body.accountId, outcome: 'approve' });
      assert.equal(refused.status, 409);
      assert.match(refused.body.detail, /from rejected to active/);
      assert.equal((await eventsFor(server.database, r.body.userId)).length, eventsBefore, 'a refused move records nothing');
      assert.equal(await status(r.body.userId), 'rejected');
    });

    it('sandbox: request_resubmission flags the documents; a replacement sends the user back to review; then approve', async () => {
      const created = await acme.client.post('/v1/submit/create-individual-account', {
        userInfo: californian({ email: 'resub@example.com' }),
        serviceTermsSignedAt: signedAt(),
        verificationDocuments: personDocs(),
      });
      const passport = created.body.verificationDocuments.find((d: DocumentView) => d.documentType === 'passport');
      const asked = await simulate({ accountId: created.body.accountId, outcome: 'request_resubmission', reasons: ['Passport photo unreadable'], documents: [passport.documentId] });
      assert.equal(asked.status, 200, asked.text);
      assert.equal(asked.body.verificationStatus, 'resubmission_requested');
      const details = await acme.client.get(`/v1/query/get-user-details?userId=${created.body.userId}`);
      assert.deepEqual(details.body.verificationDocuments.find((d: DocumentView) => d.documentId === passport.documentId).errors, ['Passport photo unreadable']);
      assert.deepEqual(details.body.missingDocuments, ['IDENTITY_DOCUMENT']);

      const resubmitted = await acme.client.patch('/v1/submit/update-user', { userId: created.body.userId, verificationDocuments: [doc('passport')] });
      assert.equal(resubmitted.status, 200, resubmitted.text);
      assert.equal(resubmitted.body.verificationStatus, 'under_review');
      assert.equal(resubmitted.body.missingDocuments, undefined);
      assert.equal((await simulate({ accountId: created.body.accountId, outcome: 'approve' })).body.verificationStatus, 'active');
      assert.equal(await status(created.body.userId), 'active');
    });

    it('an entity waits in awaiting_associated_person_information until a representative and every UBO are active', async () => {
      const entity = await acme.client.post('/v1/submit/create-entity-account', { entityInfo: companyInfo(), entityDocuments: entityDocs(), serviceTermsSignedAt: signedAt() });
      assert.equal(entity.body.verificationStatus, 'awaiting_associated_person_information');
      const add = (userInfo: object, beneficiaryDetails: object) =>
        acme.client.post('/v1/submit/create-associated-person', { accountId: entity.body.accountId, userInfo, beneficiaryDetails, verificationDocuments: personDocs() });
      const ceo = await add(californian({ email: 'ceo@acme.example' }), { beneficiaryType: ['representative'], title: 'CEO' });
      const ubo = await add(californian({ email: 'ubo@acme.example', socialSecurityNumber: '212-67-8901' }), { beneficiaryType: ['ubo'], ownershipPercentage: 60 });
      assert.equal(ceo.body.verificationStatus, 'under_review');
      const entityStatus = async () => (await acme.client.get(`/v1/query/get-entity-details?accountId=${entity.body.accountId}`)).body.verificationStatus;
      assert.equal(await entityStatus(), 'awaiting_associated_person_information');
      await simulate({ beneficiaryId: ceo.body.beneficiaryId, outcome: 'approve' });
      assert.equal(await entityStatus(), 'awaiting_associated_person_information', 'the UBO is not active yet');
      await simulate({ beneficiaryId: ubo.body.beneficiaryId, outcome: 'approve' });
      assert.equal(await entityStatus(), 'under_review');
      // A new UBO under review makes the entity wait again.
      const late = await add(berliner({ email: 'late@acme.example' }), { beneficiaryType: ['ubo'], ownershipPercentage: 30 });
      assert.equal(late.status, 201, late.text);
      assert.equal(await entityStatus(), 'awaiting_associated_person_information');
      await simulate({ beneficiaryId: late.body.beneficiaryId, outcome: 'approve' });
      assert.equal((await simulate({ accountId: entity.body.accountId, outcome: 'approve' })).body.verificationStatus, 'active');
      const types = (await eventsFor(server.database, entity.body.entityId)).map((e) => e.type);
      assert.equal(types.filter((t) => t === 'entity.verification_status.changed').length, 4);
    });

    it('answers another integrator’s records with the plain 404, and validates the subject', async () => {
      const theirs = await globex.client.post('/v1/submit/create-individual-account', { userInfo: berliner({ email: 'g@example.de' }), serviceTermsSignedAt: signedAt() });
      assert.equal((await acme.client.post('/v1/submit/request-verification', { accountId: theirs.body.accountId })).status, 404);
      assert.equal((await simulate({ accountId: theirs.body.accountId, outcome: 'approve' })).status, 404);
      const fields = (res: { body: { errors: { pointer: string; code: string }[] } }) => res.body.errors.map((e) => `${e.pointer} ${e.code}`);
      const neither = await acme.client.post('/v1/submit/request-verification', {});
      assert.deepEqual([neither.status, fields(neither)], [400, ['/accountId required']], neither.text);
      const both = await acme.client.post('/v1/submit/request-verification', { accountId: theirs.body.accountId, beneficiaryId: theirs.body.accountId });
      assert.deepEqual([both.status, fields(both)], [400, ['/accountId not_allowed', '/beneficiaryId not_allowed']], both.text);
      const simulated = await simulate({ outcome: 'approve' });
      assert.deepEqual([simulated.status, fields(simulated)], [400, ['/accountId required']], simulated.text);
    });
  });

  describe(`sandbox routes in production [${backend}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(backend, { APP_ENV: 'production', ENCRYPTION_KEY: 'ab'.repeat(32) });
    });
    after(() => server.close());

    it('has no simulate-verification route (plain 404)', async () => {
      const acme = await server.seedIntegrator('Acme');
      const res = await acme.client.post('/v1/sandbox/simulate-verification', { accountId: crypto.randomUUID(), outcome: 'approve' });
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'route_not_found');
    });
  });
}
