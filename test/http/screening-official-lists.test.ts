import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { verificationFindings } from '../../src/db/schema/index.js';
import { backends } from '../harness/backends.js';
import { berliner, doc, signedAt } from '../harness/fixtures.js';
import { runToExit } from '../harness/process.js';
import { ROOT_URL } from '../harness/root.js';
import { useTenants } from '../harness/tenants.js';

/** The shipped samples of the EU's, the UN's and the UK's lists, each in its official format. */
const sample = (name: string) => new URL(`config/screening/${name}`, ROOT_URL).pathname;
const LISTS = `EU=${sample('eu-sample')},UN=${sample('un-sample')},UK=${sample('uk-sample')}`;

for (const backend of backends()) {
  describe(`screening against the EU's, the UN's and the UK's lists as published [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme'], { SCREENING_LISTS: LISTS });

    /** The watch-list findings of a new customer's case. */
    const findings = async (userInfo: object) => {
      const res = await acme.client.post('/v1/submit/create-individual-account', { userInfo, serviceTermsSignedAt: signedAt(), verificationDocuments: [doc('passport', 'DEU'), doc('proof_of_address', 'DEU')] });
      assert.equal(res.status, 201, res.text);
      const rows = await server.database.db.select().from(verificationFindings).where(eq(verificationFindings.subjectId, res.body.userId));
      return rows.filter((f) => f.code.includes('watchlist')).map((f) => [f.code, f.message]);
    };

    it('finds a sample person of each list by name and birth date; a stranger is on none', async () => {
      const eu = await findings(berliner({ firstName: 'Yelena', lastName: 'Sofronova', birthDate: '1980-03-21', nationality: 'RUS', email: 'ys@example.de' }));
      assert.deepEqual(
        eu.map((f) => f[0]),
        ['watchlist_match'],
      );
      assert.match(eu[0]![1]!, /^Matches "Yelena Igorevna Sofronova" \(a\.k\.a\. of "Lena Sofronova"\) on EU entry 190005 \(CYB\): score [\d.]+; name and birth date/);

      const un = await findings(berliner({ firstName: 'Nabil', lastName: 'Al-Qarrani', middleName: 'Fawzi', birthDate: '1972-03-09', email: 'nq@example.de' }));
      assert.deepEqual(
        un.map((f) => f[0]),
        ['watchlist_match'],
      );
      assert.match(un[0]![1]!, /on UN entry QDi\.901 \(Al-Qaida\): score [\d.]+; name and birth date agree/);

      const uk = await findings(berliner({ firstName: 'Gleb', lastName: 'Zavoronkov', birthDate: '1969-02-14', email: 'gz@example.de' }));
      assert.deepEqual(
        uk.map((f) => f[0]),
        ['watchlist_match'],
      );
      assert.match(uk[0]![1]!, /on UK entry RUS9001 \(The Russia \(Sanctions\) \(EU Exit\) Regulations 2019\): score [\d.]+; name and birth date agree/);

      assert.deepEqual(await findings(berliner({ firstName: 'Jonas', lastName: 'Becker', email: 'jb@example.de' })), []);
    });
  });
}

describe("the EU's list and the server process", () => {
  it('a malformed EU file stops the start: exit 78, one line naming the file and line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eu-'));
    const text = readFileSync(join(sample('eu-sample'), 'eu-sample.xml'), 'utf8').replace('</sanctionEntity>', '</sanctionEntty>');
    writeFileSync(join(dir, 'eu.xml'), text);
    const line = text.slice(0, text.indexOf('</sanctionEntty>')).split('\n').length;
    const run = await runToExit('src/main.ts', [], { SCREENING_LISTS: `EU=${dir}`, DATA_DIR: mkdtempSync(join(tmpdir(), 'screening-')), PORT: '0' });
    assert.equal(run.code, 78, run.stderr);
    assert.match(run.stderr, new RegExp(`^configuration error: SCREENING_LISTS EU: ${dir}/eu\\.xml line ${line}: not well-formed XML \\(.*\\)\\n$`));
  });
});
