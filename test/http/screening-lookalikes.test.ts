import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { createOperator } from '../../src/domain/operators/operators.js';
import { reviewCase } from '../harness/admin.js';
import { backends } from '../harness/backends.js';
import { californian, companyInfo, personDocs, signedAt } from '../harness/fixtures.js';
import { post } from '../harness/members.js';
import { useTenants } from '../harness/tenants.js';

/*
 * Names disguised by lookalike letters, marks inside a word, words run together or digits for letters hit as the
 * listed name does (docs/screening.md#lookalike-letters-marks-and-words-run-together), through the API: an integrator
 * creates the customer, an operator opens its case and sees the open hit and, with the listed birth date, its
 * error-level finding. Black box: HTTP in, HTTP out, against the shipped sample (SIDOROV, Ivan Petrovich, entry 90001,
 * born 14 Jul 1961, Russian; ZIRCON CAPITAL and NORTHWIND SHIPPING LLC, aliases of 90014 and 90008).
 */

for (const backend of backends()) {
  describe(`lookalike letters and split names hit through the API [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme']);
    let token: string;

    before(async () => {
      ({ token } = await createOperator(server.database, 'Olivia', server.clock.now()));
    });

    async function caseOf(subjectType: string, subjectId: string): Promise<{ hits: string[]; findings: string[] }> {
      const body = await reviewCase(server, token, subjectType, subjectId);
      return { hits: body.hits.map((h) => `${h.list} ${h.entryNumber} ${h.status}`), findings: body.findings.filter((f) => f.code.includes('watchlist')).map((f) => `${f.code} ${f.severity}`) };
    }

    async function person(firstName: string, lastName: string) {
      const userInfo = californian({ firstName, middleName: undefined, lastName, birthDate: '1961-07-14', nationality: 'RUS', email: `s-${randomUUID()}@example.com` });
      // Born in 1961, over 60: the account asks for the additional information.
      const additionalUserInfo = { employmentStatus: 'employed', expectedMonthlyPaymentsUsd: '1000_5000', sourceOfFunds: 'salary', mostRecentOccupation: '15-0000' };
      const res = await post(server, acme, '/v1/submit/create-individual-account', { userInfo, additionalUserInfo, serviceTermsSignedAt: signedAt(), verificationDocuments: personDocs() });
      assert.equal(res.status, 201, res.text);
      return caseOf('user', res.body.userId);
    }

    const LISTED = { hits: ['OFAC-SAMPLE 90001 open'], findings: ['watchlist_match error'] };

    it('a Cyrillic letter for a Latin one, in one word or in every one, is the listed person; genuine Cyrillic still is', async () => {
      assert.deepEqual(await person('Ivan', '\u0405idorov'), LISTED, 'Ѕ (U+0405)');
      assert.deepEqual(await person('\u0406van', '\u0405\u0456d\u043er\u043ev'), LISTED, 'І, Ѕ, і, о');
      assert.deepEqual(await person('\u0418\u0432\u0430\u043d', '\u0421\u0438\u0434\u043e\u0440\u043e\u0432'), LISTED, 'Иван Сидоров');
      assert.deepEqual(await person('\u041elga', '\u0405mirnova'), { hits: [], findings: [] }, 'Оlga Ѕmirnova is not listed, as Olga Smirnova is not');
    });

    it('marks inside the name, the name spelt out, run together, or with digits for letters, is the listed person', async () => {
      for (const [first, last] of [
        ['Ivan', 'Si-dorov'],
        ['Ivan', 'Si\u00b7dorov'],
        ['Ivan', 'S.i.d.o.r.o.v'],
        ['Ivan', 'S i d o r o v'],
        ['Ivan', 'PetrovichSidorov'],
        ['IVANPETROVICH', 'SIDOROV'],
        ['Ivan', 'S1d0r0v'],
      ]) {
        assert.deepEqual(await person(first!, last!), LISTED, `${first} ${last}`);
      }
    });

    it('companies: a lookalike letter or the name run together hits the listed entity', async () => {
      for (const [name, entry] of [
        ['Zir\u0441on Capital', '90014'],
        ['Northwind \u0405hipping LLC', '90008'],
        ['ZirconCapital', '90014'],
      ]) {
        const res = await post(server, acme, '/v1/submit/create-entity-account', { entityInfo: companyInfo({ businessLegalName: name, businessTradeName: undefined }), serviceTermsSignedAt: signedAt() });
        assert.equal(res.status, 201, res.text);
        assert.deepEqual((await caseOf('entity', res.body.entityId)).hits, [`OFAC-SAMPLE ${entry} open`], name);
      }
    });
  });
}
