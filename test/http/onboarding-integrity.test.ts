import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { backends } from '../harness/backends.js';
import { berliner, californian, companyInfo, doc, entityDocs, pdf, personDocs, signedAt } from '../harness/fixtures.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { useTenants } from '../harness/tenants.js';

/** Every row of every application table as text (bytea as hex), to search for what must not be there. */
async function dumpDatabase(server: TestServer): Promise<string> {
  const tables = ['integrators', 'credentials', 'events', 'idempotency_keys', 'users', 'accounts', 'wallets', 'authenticators', 'entities', 'associated_persons', 'documents'];
  let out = '';
  for (const table of tables) {
    const result = await server.database.db.execute(sql.raw(`select row_to_json(t)::text as row from ${table} t`));
    out += (result as unknown as { rows: { row: string }[] }).rows.map((r) => r.row).join('\n');
  }
  return out;
}

async function accountCount(who: SeededIntegrator): Promise<number> {
  let count = 0;
  let cursor = '';
  for (;;) {
    const page = await who.client.get(`/v1/query/list-accounts?limit=100${cursor}`);
    count += page.body.data.length;
    if (!page.body.hasMore) return count;
    cursor = `&startingAfter=${page.body.data.at(-1).accountId}`;
  }
}

for (const backend of backends()) {
  describe(`onboarding data integrity [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme']);

    it('never stores an SSN or a document byte in clear', async () => {
      const marker = `CONFIDENTIAL-${Date.now()}`;
      const secretDoc = { documentType: 'proof_of_address', issuingCountry: 'USA', document: `data:application/pdf;base64,${pdf(marker).toString('base64')}` };
      const user = await acme.client.post('/v1/submit/create-individual-account', {
        userInfo: californian({ socialSecurityNumber: '536-90-4399' }),
        serviceTermsSignedAt: signedAt(),
        verificationDocuments: [doc('passport'), secretDoc],
      });
      assert.equal(user.status, 201, user.text);
      const entity = await acme.client.post('/v1/submit/create-entity-account', { entityInfo: companyInfo(), entityDocuments: entityDocs(), serviceTermsSignedAt: signedAt() });
      const person = await acme.client.post('/v1/submit/create-associated-person', {
        accountId: entity.body.accountId,
        userInfo: californian({ email: 'ubo@example.com', socialSecurityNumber: '212-67-8901' }),
        beneficiaryDetails: { beneficiaryType: ['ubo'], ownershipPercentage: 51 },
        verificationDocuments: [secretDoc],
      });
      assert.equal(person.status, 201, person.text);

      const dump = await dumpDatabase(server);
      for (const ssn of ['536904399', '536-90-4399', '212678901', '212-67-8901']) assert.ok(!dump.includes(ssn), `SSN ${ssn} in clear`);
      assert.ok(dump.includes('4399'), 'the last four digits are kept for masking');
      assert.ok(!dump.includes(marker), 'document text in clear');
      assert.ok(!dump.includes(Buffer.from(marker).toString('hex')), 'document bytes in clear (hex)');
      assert.ok(!dump.includes(Buffer.from('%PDF-').toString('hex')), 'no PDF header in clear');
      assert.ok(!dump.includes(secretDoc.document.slice(40, 120)), 'no base64 of the document');
    });

    it('replays every POST under its Idempotency-Key, creating nothing twice', async () => {
      const entity = await acme.client.post('/v1/submit/create-entity-account', { serviceTermsSignedAt: signedAt() });
      const person = await acme.client.post('/v1/submit/create-associated-person', {
        accountId: entity.body.accountId,
        userInfo: berliner({ email: 'idem-rep@example.de' }),
        beneficiaryDetails: { beneficiaryType: ['representative'], title: 'Director' },
      });
      const posts: [string, unknown][] = [
        ['/v1/submit/create-user', { userInfo: berliner({ email: 'idem1@example.de' }), partnerSignedAgreementId: 'a', serviceTermsSignedAt: signedAt() }],
        ['/v1/submit/create-individual-account', { userInfo: berliner({ email: 'idem2@example.de' }), serviceTermsSignedAt: signedAt(), verificationDocuments: personDocs('DEU') }],
        ['/v1/submit/create-entity-account', { entityInfo: companyInfo(), serviceTermsSignedAt: signedAt() }],
        [
          '/v1/submit/create-associated-person',
          { accountId: entity.body.accountId, userInfo: berliner({ email: 'idem3@example.de' }), beneficiaryDetails: { beneficiaryType: ['ubo'], ownershipPercentage: 30 } },
        ],
        ['/v1/submit/remove-associated-person', { beneficiaryId: person.body.beneficiaryId }],
      ];
      for (const [path, body] of posts) {
        const before = await dumpDatabase(server);
        const key = `retry-${path}`;
        const first = await acme.client.post(path, body, { headers: { 'Idempotency-Key': key } });
        assert.ok(first.status === 201 || first.status === 200, `${path}: ${first.text}`);
        const afterFirst = await dumpDatabase(server);
        server.clock.advance(2000);
        const retry = await acme.client.post(path, body, { headers: { 'Idempotency-Key': key } });
        assert.equal(retry.status, first.status, path);
        assert.equal(retry.headers.get('idempotent-replayed'), 'true', path);
        assert.equal(retry.text, first.text, path);
        const afterRetry = await dumpDatabase(server);
        assert.notEqual(afterFirst, before, `${path} changed something`);
        assert.equal(afterRetry.length, afterFirst.length, `${path}: the retry wrote nothing new`);
      }
    });

    it('answers garbage in any field with a 4xx and writes nothing (property)', async () => {
      const base = () => ({ userInfo: californian({ email: 'prop@example.com' }), serviceTermsSignedAt: signedAt(), walletAddress: null as unknown, verificationDocuments: personDocs() });
      const paths = [
        ['userInfo'],
        ['userInfo', 'firstName'],
        ['userInfo', 'email'],
        ['userInfo', 'phone'],
        ['userInfo', 'birthDate'],
        ['userInfo', 'nationality'],
        ['userInfo', 'residentialAddress'],
        ['userInfo', 'residentialAddress', 'state'],
        ['userInfo', 'residentialAddress', 'postalCode'],
        ['userInfo', 'residentialAddress', 'country'],
        ['userInfo', 'socialSecurityNumber'],
        ['userInfo', 'profilePictureUrl'],
        ['serviceTermsSignedAt'],
        ['walletAddress'],
        ['verificationDocuments'],
        ['verificationDocuments', '0'],
        ['verificationDocuments', '0', 'document'],
        ['verificationDocuments', '0', 'documentType'],
        ['verificationDocuments', '0', 'issuingCountry'],
        ['additionalUserInfo'],
      ];
      const garbage = fc.oneof(
        fc.jsonValue(),
        fc.string(),
        fc.constantFrom('', ' ', '\u0000', '0x', 'data:;base64,', '9999-99-99', 'USA ', '+', 'US-', '<script>', '-1', '1e309'),
      );
      const before = await accountCount(acme);
      let created = 0;
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...paths), garbage, async (path, value) => {
          const body: Record<string, unknown> = base();
          let target = body;
          for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
          target[path.at(-1)!] = value;
          server.clock.advance(1000);
          const res = await acme.client.post('/v1/submit/create-individual-account', body);
          assert.ok(res.status < 500, `${path.join('/')} = ${JSON.stringify(value)} -> ${res.status} ${res.text}`);
          if (res.status === 201) created++;
          else {
            assert.equal(res.status, 400, `${path.join('/')} = ${JSON.stringify(value)} -> ${res.text}`);
            assert.ok(res.body.errors.length > 0);
          }
        }),
        { numRuns: 120 },
      );
      // Rejected requests wrote nothing: only the accepted ones added an account.
      assert.equal(await accountCount(acme), before + created);
    });
  });
}
