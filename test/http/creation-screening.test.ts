import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { createOperator } from '../../src/domain/operators/operators.js';
import { reviewCase } from '../harness/admin.js';
import { backends } from '../harness/backends.js';
import { californian, companyInfo, entityDocs, personDocs, signedAt } from '../harness/fixtures.js';
import { ownerInvitation, ownerlessEntity } from '../harness/invitations.js';
import { post } from '../harness/members.js';
import { useTenants } from '../harness/tenants.js';

/*
 * Every way a customer comes into being screens it, in its creating transaction (docs/screening.md#re-screening):
 * create-user, create-individual-account, accept-invitation with a new user, create-associated-person and
 * create-entity-account. Each creates a customer under a name of the shipped sample list and an operator sees the
 * open hit on the customer's case at once, before any change. Black box: HTTP in, HTTP out.
 */

/** Maria Fernanda Sanctioned with the birth date the sample lists (entry 90003). */
const LISTED_PERSON = { firstName: 'Maria', middleName: 'Fernanda', lastName: 'Sanctioned', birthDate: '1975-03-02' };

for (const backend of backends()) {
  describe(`a customer is screened when it is created [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme']);
    let token: string;

    before(async () => {
      ({ token } = await createOperator(server.database, 'Olivia', server.clock.now()));
    });

    /** The customer's case as an operator opens it: its status and its hits (list, entry, status). */
    async function caseOf(subjectType: string, subjectId: string): Promise<{ verificationStatus: string; hits: string[]; findings: string[] }> {
      const body = await reviewCase(server, token, subjectType, subjectId);
      return { verificationStatus: body.verificationStatus, hits: body.hits.map((h) => `${h.list} ${h.entryNumber} ${h.status}`), findings: body.findings.map((f) => f.code) };
    }

    const created = (res: { status: number; text: string }) => assert.equal(res.status, 201, res.text);

    it('create-entity-account: a company under a listed entity’s exact name has its open hit at once, by legal or trade name', async () => {
      const byLegal = await post(server, acme, '/v1/submit/create-entity-account', { entityInfo: companyInfo({ businessLegalName: 'SANCTIONED HOLDINGS LTD' }), entityDocuments: entityDocs(), serviceTermsSignedAt: signedAt() });
      created(byLegal);
      const legal = await caseOf('entity', byLegal.body.entityId);
      assert.equal(legal.verificationStatus, 'awaiting_associated_person_information', 'not in review yet: screened all the same');
      assert.deepEqual(legal.hits, ['OFAC-SAMPLE 90004 open']);

      const byTrade = await post(server, acme, '/v1/submit/create-entity-account', { entityInfo: companyInfo({ businessTradeName: 'Zirconia Capital Partners' }), serviceTermsSignedAt: signedAt() });
      created(byTrade);
      assert.deepEqual((await caseOf('entity', byTrade.body.entityId)).hits, ['OFAC-SAMPLE 90014 open']);

      const clean = await post(server, acme, '/v1/submit/create-entity-account', { entityInfo: companyInfo(), serviceTermsSignedAt: signedAt() });
      created(clean);
      assert.deepEqual((await caseOf('entity', clean.body.entityId)).hits, []);
    });

    it('create-user: a listed person, incomplete and so not in review, has the open hit at once', async () => {
      const res = await post(server, acme, '/v1/submit/create-user', { userInfo: californian({ ...LISTED_PERSON, email: `cu-${randomUUID()}@example.com` }), serviceTermsSignedAt: signedAt(), partnerSignedAgreementId: 'agreement-1' });
      created(res);
      const c = await caseOf('user', res.body.userId);
      assert.notEqual(c.verificationStatus, 'under_review');
      assert.deepEqual(c.hits, ['OFAC-SAMPLE 90003 open']);
    });

    it('create-individual-account: a listed person created complete is in review with the hit and its finding', async () => {
      const res = await post(server, acme, '/v1/submit/create-individual-account', { userInfo: californian({ ...LISTED_PERSON, email: `cia-${randomUUID()}@example.com` }), serviceTermsSignedAt: signedAt(), verificationDocuments: personDocs() });
      created(res);
      const c = await caseOf('user', res.body.userId);
      assert.equal(c.verificationStatus, 'under_review');
      assert.deepEqual(c.hits, ['OFAC-SAMPLE 90003 open']);
      assert.ok(c.findings.includes('watchlist_match'), c.findings.join());
    });

    it('create-associated-person: a listed person added to a company has the open hit at once', async () => {
      const entity = await post(server, acme, '/v1/submit/create-entity-account', { entityInfo: companyInfo(), serviceTermsSignedAt: signedAt() });
      created(entity);
      const res = await post(server, acme, '/v1/submit/create-associated-person', {
        accountId: entity.body.accountId,
        userInfo: californian({ ...LISTED_PERSON, email: `ap-${randomUUID()}@example.com` }),
        beneficiaryDetails: { beneficiaryType: ['ubo'], ownershipPercentage: 40 },
      });
      created(res);
      assert.deepEqual((await caseOf('associated_person', res.body.beneficiaryId)).hits, ['OFAC-SAMPLE 90003 open']);
    });

    it('accept-invitation with a new user: the user it creates under a listed name has the open hit at once', async () => {
      const entity = await ownerlessEntity(server, acme);
      const { token: invitation, email } = await ownerInvitation(server, acme, entity.accountId);
      const res = await post(server, acme, '/v1/submit/accept-invitation', { token: invitation, userInfo: { ...LISTED_PERSON, email }, serviceTermsSignedAt: signedAt() });
      created(res);
      assert.deepEqual((await caseOf('user', res.body.member.userId)).hits, ['OFAC-SAMPLE 90003 open']);
    });
  });
}
