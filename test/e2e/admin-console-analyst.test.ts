import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { createOperator } from '../../src/domain/operators/operators.js';
import { describeInChromium, signedInConsole } from '../harness/chromium.js';
import { berliner, doc, signedAt } from '../harness/fixtures.js';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';

// Issue 56, the console as an analyst reads it, in headless Chromium against the real server and its sample list
// (config/screening/ofac-sample): a hit shows the entry's other remarks, the list's version and the entry's page at
// OFAC; every date of birth on a screen is in one form; a requirement whose documents were refused as duplicates
// says so; every decision that changes a status takes the same confirmation step; and on a 390 px phone the case
// has a jump to its Decision panel, the header's links say they scroll, a Cyrillic name wraps between words and the
// shortcuts open at their top.

// What the functions passed to page.evaluate use (the test project has no DOM library; see admin-console.test.ts).
declare const document: {
  activeElement: { id: string } | null;
  createRange(): { setStart(node: unknown, offset: number): void; setEnd(node: unknown, offset: number): void; getClientRects(): { length: number } };
  querySelector(selector: string): { scrollLeft: number; scrollWidth: number; scrollTop: number; scrollHeight: number; clientHeight: number; firstChild: { textContent: string | null } | null } | null;
};

describeInChromium('admin console for an analyst (issue 56) in Chromium', "the admin console's analyst tests are", (backend, browser) => {
  let server: TestServer;
  let acme: SeededIntegrator;
  let operator: { token: string; name: string };
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  const person = async (userInfo: Record<string, unknown>, documents = [doc('passport', 'DEU'), doc('proof_of_address', 'DEU')]) => {
    const created = await acme.client.post('/v1/submit/create-individual-account', { userInfo, serviceTermsSignedAt: signedAt(), verificationDocuments: documents });
    assert.equal(created.status, 201, created.text);
    return { userId: created.body.userId as string, documents };
  };
  const openCase = async (userId: string, name: string) => {
    await page.goto(`${server.url}/admin/#/case/user/${userId}`);
    await page.getByRole('heading', { level: 1, name }).waitFor();
  };
  const statusIs = (status: string) => page.locator(`#case-status[data-status="${status}"]`).waitFor();

  before(async () => {
    server = await startServer(backend);
    acme = await server.seedIntegrator('Acme Pay');
    operator = await createOperator(server.database, 'Alice Moreau', server.clock.now());
    ({ context, page, errors } = await signedInConsole(browser, server.url, operator));
  });
  after(async () => {
    await context?.close();
    await server?.close();
    assert.deepEqual(errors, [], 'no page logged an error (no CSP violation)');
  });

  it('shows a hit’s other remarks, the list’s version and the entry at OFAC, and every date of birth in one form', async () => {
    const { userId } = await person(berliner({ firstName: 'Elena', middleName: 'Sergeyevna', lastName: 'Volkova', birthDate: '1980-07-21', nationality: 'UKR', email: 'elena.v@example.de' }));
    await openCase(userId, 'Elena Sergeyevna Volkova');
    const hit = page.locator('article.hit').first();
    await hit.getByRole('heading', { name: /OFAC-SAMPLE entry 90007/ }).waitFor();
    assert.deepEqual(await hit.locator('tr[data-field="remarks"] li').allTextContents(), ['POB Minsk, Belarus', 'Gender Female', 'Passport MP4711358 (Belarus)']);
    assert.match((await hit.locator('code.list-version').textContent())!, /^[0-9a-f]{16}$/);
    const source = hit.getByRole('link', { name: /OFAC-SAMPLE entry 90007 at its source/ });
    assert.equal(await source.getAttribute('href'), 'https://sanctionssearch.ofac.treas.gov/Details.aspx?id=90007');
    assert.equal(await source.getAttribute('rel'), 'noopener noreferrer');

    // The customer's date beside the list's, in the record and in the score's explanation: day, month name, year.
    assert.match((await hit.locator('tr[data-field="birthDate"]').textContent())!, /agrees.*Jul 1980.*21 Jul 1980/);
    await hit.locator('tr[data-adjustment="birth_date"]', { hasText: '21 Jul 1980 agrees with Jul 1980' }).waitFor();
    await page.locator('.details dd', { hasText: /^21 Jul 1980$/ }).waitFor();
    const shown = await page.locator('main').innerText();
    assert.doesNotMatch(shown, /1980-07-21/, 'no date of birth in another form');
  });

  it('says a requirement’s documents were refused as duplicates of another case’s, instead of missing', async () => {
    const first = await person(berliner({ firstName: 'Anna', lastName: 'Schmidt', email: 'anna.schmidt@example.de' }));
    // The same files again, for another person: both refused (errors), so neither requirement is met.
    const copy = await person(berliner({ firstName: 'Bruno', lastName: 'Schmidt', email: 'bruno.schmidt@example.de' }), first.documents);
    await openCase(copy.userId, 'Bruno Schmidt');
    const missing = page.locator('section[aria-labelledby="missing-title"]');
    const refused = missing.locator('li[data-refused]');
    await refused.first().waitFor();
    assert.deepEqual(await refused.allTextContents(), ['Passport refused: duplicate of a document on Anna Schmidt (User)', 'Proof of address refused: duplicate of a document on Anna Schmidt (User)']);
    assert.match((await missing.textContent())!, /Document: Identity document: .*Document: Proof of address document: /);
    await refused.first().getByRole('link', { name: 'Anna Schmidt' }).click();
    await page.getByRole('heading', { level: 1, name: 'Anna Schmidt' }).waitFor();
    assert.equal(new URL(page.url()).hash, `#/case/user/${first.userId}`);
  });

  it('asks the same confirmation for every decision that changes the status: reject, reopen, approve, deactivate, reactivate', async () => {
    const { userId } = await person(berliner({ firstName: 'Carl', lastName: 'Weber', email: 'carl.weber@example.de' }));
    await openCase(userId, 'Carl Weber');
    const confirmStep = async (decision: string, question: string, confirm: string, status: string, next: string, reason?: string) => {
      if (reason) await page.locator('#reason').fill(reason);
      await page.locator(`button[data-decision="${decision}"]`).click();
      await page.getByText(`${question} The integrator is told at once.`).waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'confirm-decision', `${decision}: the confirmation has focus`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(await page.locator('#case-status').getAttribute('data-status'), status, `${decision}: one click decided nothing`);
      await page.getByRole('button', { name: confirm, exact: true }).click();
      await statusIs(next);
    };
    // A reason first, where one is needed; the confirmation only then.
    await page.locator('button[data-decision="reject"]').click();
    await page.getByText('A reason is required to reject.').waitFor();
    assert.equal(await page.locator('#confirm-decision').isVisible(), false);
    await confirmStep('reject', 'Reject this case?', 'Confirm rejection', 'under_review', 'rejected', 'Documents do not match the applicant');
    await confirmStep('reopen', 'Reopen this case?', 'Confirm reopening', 'rejected', 'under_review', 'Rejected in error');
    await confirmStep('approve', 'Approve this case?', 'Confirm approval', 'under_review', 'active');
    await confirmStep('deactivate', 'Deactivate this customer?', 'Confirm deactivation', 'active', 'inactive', 'Account closed at the customer’s request');
    // Cancel takes the step away and decides nothing.
    await page.locator('button[data-decision="reactivate"]').click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.locator('#confirm-decision').waitFor({ state: 'hidden' });
    assert.equal(await page.locator('#case-status').getAttribute('data-status'), 'inactive');
    await confirmStep('reactivate', 'Reactivate this customer?', 'Confirm reactivation', 'inactive', 'active');
  });

  it('on a 390 px phone: a jump to the decision, header links that say they scroll, a Cyrillic name whole, the shortcuts from their top', async () => {
    const { userId } = await person(berliner({ firstName: 'Elena', middleName: 'Sergeyevna', lastName: 'Volkova', birthDate: '1980-07-21', nationality: 'UKR', email: 'elena.phone@example.de' }));
    await page.setViewportSize({ width: 390, height: 844 });
    await openCase(userId, 'Elena Sergeyevna Volkova');
    await page.locator('article.hit').first().waitFor();
    const decision = page.getByRole('heading', { level: 2, name: 'Decision' });
    assert.ok((await decision.boundingBox())!.y > 844, 'the Decision panel starts below the first screen');
    await page.getByRole('button', { name: 'Jump to the decision ↓' }).click();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'decision-title');
    const top = (await decision.boundingBox())!.y;
    assert.ok(top >= 0 && top < 844, `the Decision panel is in view (at ${top} px)`);

    // The header's links run past the edge: the edge says so, and the other edge once scrolled to the end.
    const sections = page.locator('#sections');
    assert.equal(await sections.getAttribute('data-more'), 'end');
    await sections.evaluate((nav) => ((nav as unknown as { scrollLeft: number; scrollWidth: number }).scrollLeft = (nav as unknown as { scrollWidth: number }).scrollWidth));
    await page.locator('#sections[data-more="start"]').waitFor();

    // Every word of the Cyrillic alias on one line: a word cut in two has two boxes.
    const alias = page.locator('ul.aliases li', { hasText: 'ВОЛКОВА' });
    const broken = await alias.evaluate((li) => {
      const text = (li as unknown as { firstChild: { textContent: string } }).firstChild;
      const words: string[] = [];
      for (const match of text.textContent.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(text, match.index);
        range.setEnd(text, match.index + match[0].length);
        if (range.getClientRects().length > 1) words.push(match[0]);
      }
      return words;
    });
    assert.deepEqual(broken, [], 'no word of the alias breaks');

    // The shortcuts, taller than the screen, open at their first section.
    await page.setViewportSize({ width: 390, height: 600 });
    await page.getByRole('heading', { level: 1 }).focus();
    await page.keyboard.press('?');
    await page.getByRole('heading', { name: 'Keyboard shortcuts' }).waitFor();
    const dialog = await page.evaluate(() => {
      const d = document.querySelector('#shortcuts')!;
      return { top: d.scrollTop, overflows: d.scrollHeight > d.clientHeight };
    });
    assert.deepEqual(dialog, { top: 0, overflows: true });
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1360, height: 860 });
  });
});
