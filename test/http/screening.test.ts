import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { verificationFindings } from '../../src/db/schema/index.js';
import { backends } from '../harness/backends.js';
import { berliner, doc, signedAt } from '../harness/fixtures.js';
import { runToExit, startServerProcess } from '../harness/process.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';
import { addRow, altRow, ofacFolder, sdnRow, writeOfac } from '../domain/screening/helpers.js';

/** A list in OFAC's format, written for this test (not the shipped sample). */
const SDN = [
  sdnRow(7001, 'KOVALENKO, Dmitri Olegovich', 'individual', 'CYBER2] [UKRAINE-EO13660', 'DOB 03 Mar 1979; nationality Russia; Gender Male.'),
  sdnRow(7002, 'ESTRELLA AZUL EXPORTACIONES S.A.', null, 'SDNTK', null),
];
const ALT = [altRow(7001, 1, 'KOVALENKO, Dima'), altRow(7001, 2, 'КОВАЛЕНКО, Дмитрий Олегович')];
const ADD = [addRow(7002, 1, 'Cali', 'Colombia')];

for (const backend of backends()) {
  describe(`screening at case entry with SCREENING_LISTS in OFAC's format [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;
    before(async () => {
      const dir = ofacFolder({ sdn: SDN, alt: ALT, add: ADD });
      ({ server, tenants: [acme] } = await startTenants(backend, ['Acme'], { SCREENING_LISTS: `OFAC-SDN=${dir}` }));
    });
    after(() => server.close());

    const person = async (userInfo: object) => {
      const res = await acme.client.post('/v1/submit/create-individual-account', { userInfo, serviceTermsSignedAt: signedAt(), verificationDocuments: [doc('passport', 'DEU'), doc('proof_of_address', 'DEU')] });
      assert.equal(res.status, 201, res.text);
      return (await server.database.db.select().from(verificationFindings).where(eq(verificationFindings.subjectId, res.body.userId))).map((f) => [f.code, f.severity, f.message]);
    };

    it('hits an alias, a misspelt name with its birth date, and Cyrillic; not the sample list, not a stranger', async () => {
      assert.deepEqual(await person(berliner({ firstName: 'Dima', lastName: 'Kovalenko', birthDate: '1979-03-03', email: 'dima@example.de' })), [
        ['watchlist_match', 'error', 'Matches "KOVALENKO, Dima" (a.k.a. of "KOVALENKO, Dmitri Olegovich") on OFAC-SDN entry 7001 (CYBER2, UKRAINE-EO13660): score 1; name and birth date agree, country differs'],
      ]);
      assert.deepEqual(await person(berliner({ firstName: 'Dima', lastName: 'Kovalenko', birthDate: '1990-01-01', email: 'dima2@example.de' })), [], 'another birth date: another person');
      const fuzzy = await person(berliner({ firstName: 'Dmitry', middleName: 'Olegovich', lastName: 'Kowalenko', birthDate: '1979-03-03', email: 'dk@example.de' }));
      assert.equal(fuzzy.length, 1);
      assert.deepEqual(fuzzy[0]!.slice(0, 2), ['watchlist_match', 'error']);
      // Dmitry is nearer the Cyrillic alias's Dmitriy than the entry's Dmitri: the alias is the hit's name.
      assert.match(fuzzy[0]![2]!, /^Matches "КОВАЛЕНКО, Дмитрий Олегович" \(a\.k\.a\. of "KOVALENKO, Dmitri Olegovich"\) on OFAC-SDN entry 7001 \(CYBER2, UKRAINE-EO13660\): score 0\.9\d+; name and birth date agree, country differs$/);
      assert.deepEqual((await person(berliner({ firstName: 'Дмитрий', lastName: 'Коваленко', birthDate: '1979-03-03', email: 'cy@example.de' }))).map((f) => f[0]), ['watchlist_match']);
      assert.deepEqual(await person(berliner({ firstName: 'Wei Min', lastName: 'Zhang', email: 'zw@example.de' })), [], 'SCREENING_LISTS replaces the sample');
      assert.deepEqual(await person(berliner({ firstName: 'Dmitri', lastName: 'Ivanov', email: 'di@example.de' })), []);
    });
  });
}

describe('screening lists and the server process', () => {
  it('a list that cannot be parsed stops the start: exit 78, one line naming the file and line', async () => {
    const dir = ofacFolder({ sdn: [...SDN, '7003,"half a row"'] });
    const run = await runToExit('src/main.ts', [], { SCREENING_LISTS: `OFAC-SDN=${dir}`, DATA_DIR: mkdtempSync(join(tmpdir(), 'screening-')), PORT: '0' });
    assert.equal(run.code, 78, run.stderr);
    assert.equal(run.stderr, `configuration error: SCREENING_LISTS OFAC-SDN: ${dir}/SDN.CSV line 3: SDN.CSV has 12 columns, this row 2\n`);
  });

  it('SIGHUP reloads a changed list and leaves the server running', async () => {
    const dir = ofacFolder({ sdn: SDN });
    const server = await startServerProcess({ SCREENING_LISTS: `OFAC-SDN=${dir}`, DATA_DIR: mkdtempSync(join(tmpdir(), 'screening-')) });
    try {
      writeOfac(dir, { sdn: [...SDN, sdnRow(7003, 'NEW, Entry', 'individual', 'SDGT', null)] });
      server.child.kill('SIGHUP');
      for (let i = 0; i < 100 && !server.logs().includes('screening list reloaded'); i++) await new Promise((r) => setTimeout(r, 50));
      assert.match(server.logs(), /"list":"OFAC-SDN".*"entries":3.*"msg":"screening list reloaded"/);
      assert.equal((await fetch(`${server.url}/livez`)).status, 200, 'still serving');
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});
