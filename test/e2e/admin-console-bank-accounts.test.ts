import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { type BrowserContext, type Page, type Route } from 'playwright-core';
import { createOperator } from '../../src/domain/operators/operators.js';
import { adminRequest } from '../harness/admin.js';
import { consolePage, describeInChromium, signInConsole } from '../harness/chromium.js';
import { createCustomer, type Customer } from '../harness/customers.js';
import { eventually } from '../harness/eventually.js';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';

// The console's "Bank accounts" view in a real headless Chromium (the Debian package; Playwright never downloads
// a browser here), against the real server: bank accounts whose holder name did not match the KYC name, listed,
// opened, compared with the expected names, rejected with a reason, approved, and a decision another operator
// made first shown as the server's 409. Same harness and skip rules as admin-console.test.ts.

// What the functions passed to page.evaluate / waitForFunction use. They run in the browser; the test project has
// no DOM library (it would leak into the server's type-check), so just these, declared for this module only.
declare const document: { querySelectorAll(selector: string): { length: number }; activeElement: { id: string } | null };
declare const sessionStorage: { length: number };

/** Longer than the bank account page's 3 s poll: the wait for a status another party changed. */
const LIVE_TIMEOUT = 15_000;

/** The integrator's view of a bank account (docs/bank-accounts.md). */
interface BankAccount {
  bankAccountId: string;
  accountHolderName: string;
  last4: string;
  status: 'verified' | 'pending_review' | 'rejected' | 'removed';
  rejectionReason: string | null;
}

/** Holder names that do not match Maria (Elena) Garcia, each for the operator to compare; oldest first. */
const HOLDERS = [
  { accountHolderName: 'Someone Else', accountNumber: '12345678' },
  { accountHolderName: 'Maria Lopez', accountNumber: '23456789' },
  { accountHolderName: 'Garcia Family Trust', accountNumber: '34567890' },
];
const REJECTION = 'The holder is not the account owner: a third party’s account cannot receive withdrawals';

describeInChromium('admin console: bank accounts in Chromium', "the admin console's bank account browser tests are", (backend, browser) => {
  let server: TestServer;
  let acme: SeededIntegrator;
  let operator: { operatorId: string; name: string; token: string };
  let colleague: { operatorId: string; name: string; token: string };
  let customer: Customer;
  let accounts: BankAccount[];
  let expectedNames: string[];
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[] = [];

  before(async () => {
    server = await startServer(backend);
    acme = await server.seedIntegrator('Acme Pay');
    operator = await createOperator(server.database, 'Alice Moreau', server.clock.now());
    colleague = await createOperator(server.database, 'Bruno Keller', server.clock.now());
    customer = await createCustomer(server, acme);
    accounts = [];
    for (const { accountHolderName, accountNumber } of HOLDERS) {
      server.clock.advance(1000);
      const created = await acme.client.post<BankAccount>('/v1/submit/create-bank-account', {
        accountId: customer.accountId,
        currency: 'USD',
        accountHolderName,
        us: { accountNumber, routingNumber: '021000021', accountType: 'checking' },
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.status, 'pending_review', 'the holder name does not match the KYC name');
      accounts.push(created.body);
    }
    const reviewCase = await adminRequest(server, 'GET', `/admin/api/bank-accounts/${accounts[0]!.bankAccountId}`, { token: operator.token });
    assert.equal(reviewCase.status, 200, reviewCase.text);
    expectedNames = reviewCase.body.expectedHolderNames;
    assert.ok(expectedNames.includes('Maria Elena Garcia'), JSON.stringify(expectedNames));

    ({ context, page, errors: pageErrors } = await consolePage(browser, { expectedStatuses: [409] }));
  });
  after(async () => {
    await context?.close();
    await server?.close();
  });

  const statusIs = (status: string) => page.locator(`#bank-account-status[data-status="${status}"]`).waitFor({ timeout: LIVE_TIMEOUT });
  const rows = (n: number) => page.waitForFunction((count) => document.querySelectorAll('tbody tr[data-bank-account-id]').length === count, n, { timeout: LIVE_TIMEOUT });
  const sections = () => page.getByRole('navigation', { name: 'Sections' });
  const integratorView = async (bankAccountId: string) => {
    const res = await acme.client.get<BankAccount>(`/v1/query/get-bank-account?bankAccountId=${bankAccountId}`);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };

  it('signs in, follows the header link to Bank accounts and lists the pending ones, longest waiting first', async () => {
    await signInConsole(page, server.url, operator);
    await page.getByRole('heading', { level: 1, name: 'Review queue' }).waitFor();
    assert.equal(await sections().getByRole('link', { name: 'Verification reviews' }).getAttribute('aria-current'), 'page');
    assert.equal(await sections().getByRole('link', { name: 'Bank accounts' }).getAttribute('aria-current'), null);

    await sections().getByRole('link', { name: 'Bank accounts' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bank accounts' }).waitFor();
    assert.equal(new URL(page.url()).hash, '#/bank-accounts');
    assert.equal(await sections().getByRole('link', { name: 'Bank accounts' }).getAttribute('aria-current'), 'page');
    assert.equal(await sections().getByRole('link', { name: 'Verification reviews' }).getAttribute('aria-current'), null);

    await rows(HOLDERS.length);
    assert.deepEqual(await page.locator('tbody a.row-link').allTextContents(), HOLDERS.map((h) => h.accountHolderName));
    const first = page.locator(`tbody tr[data-bank-account-id="${accounts[0]!.bankAccountId}"]`);
    for (const name of expectedNames) await first.getByText(name).waitFor();
    await first.getByText('ACH · USD').waitFor();
    await first.getByText('•••• 5678').waitFor();
    // The integrator by name, its id on hover.
    const integrator = first.getByText('Acme Pay', { exact: true });
    assert.equal(await integrator.getAttribute('title'), acme.integratorId);
  });

  it('opens a bank account: the holder name beside the expected names, the details with only the last four digits', async () => {
    const first = accounts[0]!;
    await page.getByRole('link', { name: first.accountHolderName }).click();
    await page.getByRole('heading', { level: 1, name: first.accountHolderName }).waitFor();
    assert.equal(new URL(page.url()).hash, `#/bank-account/${first.bankAccountId}`);
    await statusIs('pending_review');
    // Still in the bank accounts section (on one of its cases).
    assert.equal(await sections().getByRole('link', { name: 'Bank accounts' }).getAttribute('aria-current'), 'true');

    assert.equal(await page.locator('.holder-name').textContent(), first.accountHolderName);
    assert.deepEqual(await page.locator('ul.expected-names li').allTextContents(), expectedNames);
    await page.locator('dd', { hasText: '•••• 5678' }).waitFor();
    await page.locator('dd', { hasText: '021000021' }).waitFor();
    const text = (await page.locator('main').textContent()) ?? '';
    assert.ok(!text.includes(HOLDERS[0]!.accountNumber), 'never more than the last four digits');
    assert.deepEqual(await Promise.all(['Approve', 'Reject'].map((name) => page.getByRole('button', { name }).isEnabled())), [true, true]);
    await page.locator('.timeline li', { hasText: 'by Integrator' }).waitFor();
  });

  it('refuses to reject without a reason, then rejects with one; the integrator sees it rejected with that reason', async () => {
    const first = accounts[0]!;
    await page.getByRole('button', { name: 'Reject' }).click();
    await page.getByText('A reason is required to reject.').waitFor();
    assert.equal(await page.locator('#bank-reason').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'bank-reason');
    await statusIs('pending_review');

    await page.locator('#bank-reason').fill(REJECTION);
    await page.getByRole('button', { name: 'Reject' }).click();
    await statusIs('rejected');
    await page.getByText('Rejected: the bank account is now rejected.').waitFor();
    await page.locator('dd', { hasText: REJECTION }).waitFor();
    await page.locator('.timeline li', { hasText: 'by Compliance officer Alice Moreau' }).getByText(REJECTION).waitFor();
    assert.deepEqual(await Promise.all(['Approve', 'Reject'].map((name) => page.getByRole('button', { name }).isDisabled())), [true, true]);

    const seen = await integratorView(first.bankAccountId);
    assert.equal(seen.status, 'rejected');
    assert.equal(seen.rejectionReason, REJECTION);
  });

  it('goes back with Esc to the list, which no longer holds it, and approves the next one from the keyboard', async () => {
    const second = accounts[1]!;
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { level: 1, name: 'Bank accounts' }).waitFor();
    await rows(HOLDERS.length - 1);
    assert.deepEqual(await page.locator('tbody a.row-link').allTextContents(), HOLDERS.slice(1).map((h) => h.accountHolderName));

    await page.locator('tbody tr[aria-current="true"] a.row-link').waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: second.accountHolderName }).waitFor();
    await statusIs('pending_review');
    // a alone approves nothing: it shows the confirmation, focused; Enter on it approves.
    await page.keyboard.press('a');
    await page.getByText('Approve this bank account? It becomes verified').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'confirm-bank-decision');
    assert.equal(await page.locator('#bank-account-status').getAttribute('data-status'), 'pending_review');
    await page.keyboard.press('Enter');
    await statusIs('verified');
    await page.getByText('Approved: the bank account is now verified.').waitFor();
    await page.locator('.timeline li', { hasText: 'by Compliance officer Alice Moreau' }).waitFor();

    const seen = await integratorView(second.bankAccountId);
    assert.equal(seen.status, 'verified');
    assert.equal(seen.rejectionReason, null);
  });

  it('shows the server’s 409 when another operator decided first, then the status they chose', async () => {
    const third = accounts[2]!;
    await page.goto(`${server.url}/admin/#/bank-account/${third.bankAccountId}`);
    await page.getByRole('heading', { level: 1, name: third.accountHolderName }).waitFor();
    await statusIs('pending_review');

    // Hold the page's refreshes of this bank account, so it cannot learn of the colleague's decision before
    // the click (the poll runs every 3 s); the decision itself goes through.
    const path = `/admin/api/bank-accounts/${third.bankAccountId}`;
    const matches = (url: URL) => url.pathname === path;
    const held: Route[] = [];
    await page.route(matches, (route) => {
      held.push(route);
    });
    await eventually(
      async () => held.length,
      (n) => n > 0,
      'the page to poll the bank account',
      LIVE_TIMEOUT,
    );
    const decided = await adminRequest(server, 'POST', `${path}/decisions`, { token: colleague.token, body: { outcome: 'approve' } });
    assert.equal(decided.status, 200, decided.text);

    await page.locator('#bank-reason').fill('Trust accounts are not accepted');
    await page.getByRole('button', { name: 'Reject' }).click();
    const problem = page.locator('#bank-decision-problem');
    await problem.getByText('only one in pending_review can be approved or rejected').waitFor();
    assert.match((await problem.textContent()) ?? '', /The bank account is verified/);

    await page.unroute(matches);
    for (const route of held) await route.continue().catch(() => {});
    await statusIs('verified');
    await page.locator('.timeline li', { hasText: 'by Compliance officer' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Approve' }).isDisabled(), true);
    assert.equal((await integratorView(third.bankAccountId)).status, 'verified');
  });

  it('shows the empty list, signs out, and logged no error (no CSP violation)', async () => {
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { level: 1, name: 'Bank accounts' }).waitFor();
    await page.getByText('No bank accounts are waiting for review.').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Operator token').waitFor();
    assert.equal(await sections().isHidden(), true);
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
    assert.deepEqual(pageErrors, []);
  });
});
