import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { createOperator } from '../../src/domain/operators/operators.js';
import { consolePage, describeInChromium, signInConsole } from '../harness/chromium.js';
import { berliner, doc, signedAt } from '../harness/fixtures.js';
import { startServer, type TestServer } from '../harness/server.js';
import { ofacFolder, sdnRow, writeOfac } from '../domain/screening/helpers.js';

// Issue 36: a list changes, an active customer is now a hit, and a case opens on them (docs/back-office.md#cases-on-
// active-customers). In the console: the queue says why it is open, closing it is refused while the hit is open,
// and once the hit is dispositioned the case closes with a note and the customer stays active.

const PETROVA = sdnRow(7003, 'PETROVA, Olga', 'individual', 'RUSSIA-EO14024', 'nationality Russia.');
const OTHER = sdnRow(7001, 'KOVALENKO, Dmitri Olegovich', 'individual', 'CYBER2', 'DOB 03 Mar 1979; nationality Russia.');

describeInChromium('admin console: a case reopened on an active customer, in Chromium', "the admin console's reopened-case tests are", (backend, browser) => {
  let server: TestServer;
  let olga: string;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  before(async () => {
    const dir = ofacFolder({ sdn: [OTHER] });
    server = await startServer(backend, { SCREENING_LISTS: `OFAC-SDN=${dir}` });
    const acme = await server.seedIntegrator('Acme Pay');
    const { token } = await createOperator(server.database, 'Rita Reviewer', server.clock.now(), 'reviewer');
    const created = await acme.client.post('/v1/submit/create-individual-account', {
      userInfo: berliner({ firstName: 'Olga', lastName: 'Petrova', email: 'olga.petrova@example.de' }),
      serviceTermsSignedAt: signedAt(),
      verificationDocuments: [doc('passport', 'DEU'), doc('proof_of_address', 'DEU')],
    });
    assert.equal(created.status, 201, created.text);
    olga = created.body.userId;
    const approved = await acme.client.post('/v1/sandbox/simulate-verification', { accountId: created.body.accountId, outcome: 'approve' });
    assert.equal(approved.body.verificationStatus, 'active', approved.text);
    // The list gains her name: the re-screening opens a case on the active customer.
    writeOfac(dir, { sdn: [OTHER, PETROVA] });
    assert.equal((await server.policy.screening!.check()).changed.length, 1);
    await server.rescreen!.runOnce();

    ({ context, page, errors } = await consolePage(browser, { expectedStatuses: [409] }));
    page.setDefaultNavigationTimeout(30_000); // a loaded machine may take longer than the 10 s default
    await signInConsole(page, server.url, { token, name: 'Rita Reviewer' });
  });
  after(async () => {
    await context?.close();
    await server?.close();
  });

  it('lists the reopened case among the open ones, flagged, with why it is open', async () => {
    const row = page.locator(`tbody tr[data-subject-id="${olga}"]`);
    await row.locator('[data-flag="reopened"]', { hasText: 'Reopened: hit' }).waitFor();
    await row.locator('[data-flag="open_hits"]', { hasText: '1 open hit' }).waitFor();
    assert.equal(await row.locator('.badge').textContent(), 'Active');
    await row.getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: 'Olga Petrova' }).waitFor();
    await page.getByText('Reopened: a screening hit on an active customer').waitFor();
    await page.locator('#case-status[data-status="active"]').waitFor();
  });

  it('refuses to close while the hit is open, then closes with a note once it is a false positive; the customer stays active', async () => {
    await page.getByLabel('Add a note').fill('Olga Petrova of Berlin, born 1990: not the listed Russian national');
    await page.getByRole('button', { name: 'Close case with this note' }).click();
    // The server's 409 open_hits_remain, shown as it came.
    await page.locator('.case-work .problem', { hasText: 'The case has screening hits without a disposition' }).waitFor();
    assert.equal(await page.locator('#case-status').getAttribute('data-status'), 'active');

    const hit = page.locator('article.hit[data-status="open"]');
    await hit.getByLabel(/Note/).fill('Born 1990 in Berlin; the entry is a Russian national');
    await hit.getByRole('button', { name: 'False positive' }).click();
    await page.locator('article.hit[data-status="false_positive"]').waitFor();

    await page.getByRole('button', { name: 'Close case with this note' }).click();
    await page.getByText('Case closed: the customer stays active.').waitFor();
    await page.locator('.timeline li[data-kind="closed"]').waitFor();
    await page.getByRole('button', { name: 'Close case with this note' }).waitFor({ state: 'hidden' });
    assert.equal(await page.locator('#case-status').getAttribute('data-status'), 'active');

    await page.getByRole('link', { name: '← Queue' }).click();
    await page.getByRole('heading', { level: 1, name: 'Review queue' }).waitFor();
    await page.getByText('No open cases.').waitFor();
    assert.deepEqual(errors, []);
  });
});
