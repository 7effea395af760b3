import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { events, reviewCases, screeningHits } from '../../src/db/schema/index.js';
import { createOperator } from '../../src/domain/operators/operators.js';
import { adminRequest } from '../harness/admin.js';
import { backends } from '../harness/backends.js';
import { berliner, doc, signedAt } from '../harness/fixtures.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';
import { altRow, ofacFolder, sdnRow, writeOfac } from '../domain/screening/helpers.js';

// A list changed on disk: every customer is screened again in the background, and only new hits open cases
// (docs/back-office.md#cases-on-active-customers). The lists are written here, in OFAC's format.
const KOVALENKO = sdnRow(7001, 'KOVALENKO, Dmitri Olegovich', 'individual', 'CYBER2', 'DOB 03 Mar 1979; nationality Russia.');
const PETROVA = sdnRow(7003, 'PETROVA, Olga', 'individual', 'RUSSIA-EO14024', 'nationality Russia.');

for (const backend of backends()) {
  describe(`re-screening when a list changes [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;
    let dir: string;
    let token: string;
    before(async () => {
      dir = ofacFolder({ sdn: [KOVALENKO] });
      ({ server, tenants: [acme] } = await startTenants(backend, ['Acme'], { SCREENING_LISTS: `OFAC-SDN=${dir}` }));
      ({ token } = await createOperator(server.database, 'Olivia', server.clock.now()));
    });
    after(() => server.close());

    const customer = async (userInfo: object, approve: boolean) => {
      server.clock.advance(1000);
      const res = await acme.client.post('/v1/submit/create-individual-account', { userInfo, serviceTermsSignedAt: signedAt(), verificationDocuments: [doc('passport', 'DEU'), doc('proof_of_address', 'DEU')] });
      assert.equal(res.status, 201, res.text);
      if (approve) assert.equal((await acme.client.post('/v1/sandbox/simulate-verification', { accountId: res.body.accountId, outcome: 'approve' })).body.verificationStatus, 'active');
      accounts.set(res.body.userId, res.body.accountId);
      return res.body.userId as string;
    };
    const accounts = new Map<string, string>();
    const hitsOf = async (userId: string) => (await server.database.db.select().from(screeningHits).where(eq(screeningHits.subjectId, userId))).map((h) => [h.entryNumber, h.status]).sort();
    const caseOf = async (userId: string) => (await server.database.db.select().from(reviewCases).where(eq(reviewCases.subjectId, userId)))[0]?.openReason ?? null;
    const opened = async () => (await server.database.db.select().from(events).where(eq(events.type, 'review_case.opened'))).map((e) => e.objectId).sort();
    const reload = async (files: { sdn: string[]; alt?: string[] }) => {
      writeOfac(dir, files);
      assert.equal((await server.policy.screening!.check()).changed.length, 1);
      await server.rescreen!.runOnce();
    };

    it('screens every customer again; opens cases only for new hits on active customers; a false positive stays quiet until the entry changes', async () => {
      // Dmitri was a hit at review, found false by an operator, then approved.
      const dmitri = await customer(berliner({ firstName: 'Dmitri', lastName: 'Kovalenko', birthDate: '1979-03-03', email: 'dk@example.de' }), false);
      const [hit] = await server.database.db.select().from(screeningHits).where(eq(screeningHits.subjectId, dmitri));
      const disposed = await adminRequest(server, 'POST', `/admin/api/screening-hits/${hit!.id}/disposition`, { token, body: { disposition: 'false_positive', note: 'another Dmitri: passport from Hamburg' } });
      assert.equal(disposed.status, 200, disposed.text);
      const approved = await acme.client.post('/v1/sandbox/simulate-verification', { accountId: accounts.get(dmitri), outcome: 'approve' });
      assert.equal(approved.body.verificationStatus, 'active', approved.text);
      const olga = await customer(berliner({ firstName: 'Olga', lastName: 'Petrova', email: 'op@example.de' }), true);
      const olgaInReview = await customer(berliner({ firstName: 'Olga', lastName: 'Petrova', birthDate: '1991-01-01', email: 'op2@example.de' }), false);
      const stranger = await customer(berliner({ firstName: 'Jonas', lastName: 'Becker', email: 'jb@example.de' }), true);
      assert.deepEqual(await opened(), []);

      await reload({ sdn: [KOVALENKO, PETROVA] });
      assert.deepEqual(await hitsOf(olga), [['7003', 'open']]);
      assert.equal(await caseOf(olga), 'screening_hit', 'a new hit on an active customer opens a case');
      assert.deepEqual(await hitsOf(olgaInReview), [['7003', 'open']]);
      assert.equal(await caseOf(olgaInReview), null, 'a customer in review has its case already');
      assert.deepEqual(await hitsOf(dmitri), [['7001', 'false_positive']], 'the same entry and data: not raised again');
      assert.deepEqual(await hitsOf(stranger), []);
      assert.deepEqual(await opened(), [olga]);

      // The queue shows Olga's case beside the cases in review, flagged.
      const queue = await adminRequest(server, 'GET', '/admin/api/reviews?flag=open_hits', { token });
      const item = (queue.body as { data: { subjectId: string; openReason: string | null; verificationStatus: string; flags: { openHits: number } }[] }).data.find((i) => i.subjectId === olga);
      assert.deepEqual([item?.openReason, item?.verificationStatus, item?.flags.openHits], ['screening_hit', 'active', 1]);

      // Screening again against the same lists changes nothing.
      await server.rescreen!.runOnce();
      assert.deepEqual(await opened(), [olga]);

      // The entry changes (a new alias): its data is not what the operator found false, so Dmitri's hit is raised again.
      await reload({ sdn: [KOVALENKO, PETROVA], alt: [altRow(7001, 1, 'KOVALENKO, Dima')] });
      assert.deepEqual(await hitsOf(dmitri), [['7001', 'false_positive'], ['7001', 'open']]);
      assert.deepEqual(await opened(), [dmitri, olga].sort());
    });
  });
}
