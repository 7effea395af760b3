import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { type BrowserContext, type Page, type Route } from 'playwright-core';
import { createOperator } from '../../src/domain/operators/operators.js';
import { adminRequest } from '../harness/admin.js';
import { startAnvil, type Anvil } from '../harness/anvil.js';
import { consolePage, describeInChromium, signInConsole } from '../harness/chromium.js';
import { createCustomer, ETH, type Customer } from '../harness/customers.js';
import { verifiedBankAccount, withdrawalInTransfer } from '../harness/money.js';
import { eventually } from '../harness/eventually.js';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';

// The console's "Withdrawals" section in a real headless Chromium (the Debian package; Playwright never downloads
// a browser here), against the real server and a local anvil node: withdrawals approved with a passkey, their
// crypto on chain, their fiat payouts listed, opened with the beneficiary's full bank details, marked sent,
// settled (the withdrawal completes), returned with a reason (it fails as payout_returned), and a step another
// operator took first shown as the server's 409. Same harness and skip rules as admin-console.test.ts.

// What the functions passed to page.evaluate / waitForFunction use. They run in the browser; the test project has
// no DOM library (it would leak into the server's type-check), so just these, declared for this module only.
declare const document: { querySelectorAll(selector: string): { length: number }; activeElement: { id: string } | null };
declare const sessionStorage: { length: number };
declare const navigator: { clipboard: { readText(): Promise<string> } };

/** Longer than the payout page's 3 s poll and the list's 10 s one: the wait for a change made elsewhere. */
const LIVE_TIMEOUT = 15_000;

/** The integrator's view of a withdrawal (docs/withdrawals.md). */
interface Withdrawal {
  transactionId: string;
  status: string;
  failureReason?: string;
  transactionHash: string | null;
  unsignedTransaction: string;
  withdrawal: { amount: string; currency: string; cryptoAmount: string };
}

const ACCOUNT_NUMBER = '000123456789';
/** The routing number verifiedBankAccount gives. */
const ROUTING_NUMBER = '021000021';
/** Two withdrawals, oldest first: the first is sent then settled, the second returned. */
const AMOUNTS = ['25.00', '7.50'];
const RETURN_REASON = 'R03: no account / unable to locate account';

describeInChromium('admin console: withdrawals in Chromium', "the admin console's withdrawal browser tests are", (backend, browser) => {
  let anvil: Anvil;
  let server: TestServer;
  let acme: SeededIntegrator;
  let operator: { operatorId: string; name: string; token: string };
  let colleague: { operatorId: string; name: string; token: string };
  let customer: Customer;
  /** The withdrawals in funds_in_transfer, each with its payout's reference. */
  let payouts: { reference: string; withdrawal: Withdrawal }[];
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[] = [];

  before(async () => {
    anvil = await startAnvil(8453);
    server = await startServer(backend, { CHAIN_RPC_URLS: `8453=${anvil.url}` });
    acme = await server.seedIntegrator('Acme Pay');
    operator = await createOperator(server.database, 'Alice Moreau', server.clock.now());
    colleague = await createOperator(server.database, 'Bruno Keller', server.clock.now());
    customer = await createCustomer(server, acme);
    await anvil.setBalance(customer.walletAddress, ETH);
    // The treasury pays the refund of the returned payout (and its gas).
    await anvil.setBalance(server.treasury!.address, ETH);
    const bankAccountId = await verifiedBankAccount(server, acme, customer.accountId, ACCOUNT_NUMBER);
    const inTransfer: Withdrawal[] = [];
    for (const amount of AMOUNTS) {
      const moved = (await withdrawalInTransfer(server, acme, customer, bankAccountId, amount)) as unknown as Withdrawal;
      assert.ok(moved.transactionHash, 'on chain');
      inTransfer.push(moved);
    }
    const open = await adminRequest(server, 'GET', '/admin/api/withdrawals?limit=100', { token: operator.token });
    assert.equal(open.status, 200, open.text);
    payouts = inTransfer.map((withdrawal) => {
      const payout = (open.body.data as { reference: string; transaction: { transactionId: string } }[]).find((p) => p.transaction.transactionId === withdrawal.transactionId);
      assert.ok(payout, `a payout for ${withdrawal.transactionId}`);
      return { reference: payout.reference, withdrawal };
    });

    ({ context, page, errors: pageErrors } = await consolePage(browser, { expectedStatuses: [409] }));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  });
  after(async () => {
    await context?.close();
    await server?.close();
    await anvil?.stop();
  });

  const statusIs = (status: string) => page.locator(`#payout-status[data-status="${status}"]`).waitFor({ timeout: LIVE_TIMEOUT });
  const rows = (n: number) => page.waitForFunction((count) => document.querySelectorAll('tbody tr[data-reference]').length === count, n, { timeout: LIVE_TIMEOUT });
  const sections = () => page.getByRole('navigation', { name: 'Sections' });
  const button = (name: string) => page.getByRole('button', { name, exact: true });
  const enabled = () => Promise.all(['Mark sent', 'Settled', 'Returned'].map((name) => button(name).isEnabled()));
  const integratorView = async (transactionId: string) => {
    const res = await acme.client.get<Withdrawal>(`/v1/query/get-transaction?transactionId=${transactionId}`);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };

  it('signs in, follows the header link to Withdrawals and lists the open payouts, oldest first; filters them', async () => {
    await signInConsole(page, server.url, operator);
    await page.getByRole('heading', { level: 1, name: 'Review queue' }).waitFor();
    assert.equal(await sections().getByRole('link', { name: 'Withdrawals' }).getAttribute('aria-current'), null);

    await sections().getByRole('link', { name: 'Withdrawals' }).click();
    await page.getByRole('heading', { level: 1, name: 'Withdrawals' }).waitFor();
    assert.equal(new URL(page.url()).hash, '#/withdrawals');
    assert.equal(await sections().getByRole('link', { name: 'Withdrawals' }).getAttribute('aria-current'), 'page');
    assert.equal(await sections().getByRole('link', { name: 'Verification reviews' }).getAttribute('aria-current'), null);
    assert.equal(await sections().getByRole('link', { name: 'Bank accounts' }).getAttribute('aria-current'), null);

    await rows(payouts.length);
    assert.deepEqual(await page.locator('tbody a.row-link').allTextContents(), payouts.map((p) => p.reference));
    const first = page.locator(`tbody tr[data-reference="${payouts[0]!.reference}"]`);
    await first.getByText('25.00 USD').waitFor();
    await first.getByText('ACH · USD').waitFor();
    await first.getByText('Maria Garcia').waitFor();
    await first.locator('.badge[data-status="pending"]').waitFor();
    assert.equal(await first.getByText('Acme Pay', { exact: true }).getAttribute('title'), acme.integratorId, 'the integrator by name, its id on hover');

    // Sent only: none yet. The filter is in the address.
    await page.getByLabel('Status').selectOption('sent');
    await page.getByText('No payouts waiting for confirmation.').waitFor();
    assert.equal(new URL(page.url()).hash, '#/withdrawals?status=sent');
    await page.getByLabel('Status').selectOption('pending');
    await rows(payouts.length);
    assert.equal(new URL(page.url()).hash, '#/withdrawals?status=pending');
    await page.getByLabel('Status').selectOption('');
    await rows(payouts.length);
    assert.equal(new URL(page.url()).hash, '#/withdrawals');
  });

  it('opens a payout: the beneficiary’s full account and routing numbers, the amount, the on-chain hash', async () => {
    const { reference, withdrawal } = payouts[0]!;
    await page.getByRole('link', { name: reference }).click();
    await page.getByRole('heading', { level: 1, name: reference }).waitFor();
    assert.equal(new URL(page.url()).hash, `#/withdrawal/${reference}`);
    await statusIs('pending');
    assert.equal(await sections().getByRole('link', { name: 'Withdrawals' }).getAttribute('aria-current'), 'true');

    const transfer = page.getByRole('region', { name: 'Bank transfer' });
    await transfer.locator('dd', { hasText: ACCOUNT_NUMBER }).waitFor();
    await transfer.locator('dd', { hasText: ROUTING_NUMBER }).waitFor();
    await transfer.locator('dd', { hasText: 'Maria Garcia' }).waitFor();
    await transfer.locator('dd', { hasText: '25.00 USD' }).waitFor();
    await transfer.locator('dd', { hasText: reference }).waitFor();
    await page.locator('dd', { hasText: withdrawal.transactionHash! }).waitFor();
    await page.locator('#transaction-status[data-status="funds_in_transfer"]').waitFor();
    // In the asset's units with the chain's name (docs/tokens.md), never raw wei.
    assert.equal(await page.locator('#crypto-received').textContent(), `${withdrawal.withdrawal.cryptoAmount} ETH on Base`);
    assert.deepEqual(await enabled(), [true, true, true]);

    // The copy affordance puts the exact number on the clipboard.
    await page.getByRole('button', { name: 'Copy account number' }).click();
    await page.getByText('Account number copied.').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), ACCOUNT_NUMBER);
  });

  it('marks it sent, refuses Returned without a reason, then settles it: the withdrawal is completed', async () => {
    const { reference, withdrawal } = payouts[0]!;
    await button('Mark sent').click();
    await statusIs('sent');
    await page.getByText(`Marked sent: payout ${reference} is now sent; the withdrawal completes when it is settled.`).waitFor();
    assert.deepEqual(await enabled(), [false, true, true]);
    assert.equal((await integratorView(withdrawal.transactionId)).status, 'funds_in_transfer', 'sent is not yet paid');

    await button('Returned').click();
    await page.getByText('A reason is required to mark the payout returned.').waitFor();
    assert.equal(await page.locator('#payout-reason').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'payout-reason');
    await statusIs('sent');

    await button('Settled').click();
    await statusIs('settled');
    await page.getByText(`Settled: payout ${reference} is settled; the withdrawal is completed.`).waitFor();
    assert.deepEqual(await enabled(), [false, false, false]);
    await page.locator('#transaction-status[data-status="completed"]').waitFor();
    await page.locator('.timeline li[data-status="settled"]').waitFor();
    assert.equal((await integratorView(withdrawal.transactionId)).status, 'completed');
  });

  it('shows the server’s 409 when another operator marked it sent first, then returns it with a reason: the withdrawal fails', async () => {
    const { reference, withdrawal } = payouts[1]!;
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { level: 1, name: 'Withdrawals' }).waitFor();
    await rows(1);
    await page.getByRole('link', { name: reference }).click();
    await page.getByRole('heading', { level: 1, name: reference }).waitFor();
    await statusIs('pending');

    // Hold the page's refreshes of this payout, so it cannot learn of the colleague's step before the click
    // (the poll runs every 3 s); the step itself goes through.
    const path = `/admin/api/withdrawals/${reference}`;
    const matches = (url: URL) => url.pathname === path;
    const held: Route[] = [];
    await page.route(matches, (route) => {
      held.push(route);
    });
    await eventually(
      async () => held.length,
      (n) => n > 0,
      'the page to poll the payout',
      LIVE_TIMEOUT,
    );
    const sent = await adminRequest(server, 'POST', `${path}/payout-sent`, { token: colleague.token, body: {} });
    assert.equal(sent.status, 200, sent.text);

    await button('Mark sent').click();
    const problem = page.locator('#payout-problem');
    await problem.getByText('The payout is sent: it cannot be marked sent').waitFor();
    assert.match((await problem.textContent()) ?? '', /Request /, 'the request id, to find it in the logs');

    await page.unroute(matches);
    for (const route of held) await route.continue().catch(() => {});
    await statusIs('sent');
    assert.deepEqual(await enabled(), [false, true, true]);

    await page.locator('#payout-reason').fill(RETURN_REASON);
    await button('Returned').click();
    await statusIs('returned');
    await page.getByText(`Returned: payout ${reference} is returned; the withdrawal failed (payout_returned) and its crypto is refunded to the wallet.`).waitFor();
    await page.locator('.timeline li[data-status="returned"]').getByText(RETURN_REASON).waitFor();
    assert.deepEqual(await enabled(), [false, false, false]);

    const seen = await integratorView(withdrawal.transactionId);
    assert.deepEqual([seen.status, seen.failureReason], ['failed', 'payout_returned']);
  });

  it('shows the empty list, signs out, and logged no error (no CSP violation)', async () => {
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { level: 1, name: 'Withdrawals' }).waitFor();
    await page.getByText('No payouts to make or to confirm.').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Operator token').waitFor();
    assert.equal(await sections().isHidden(), true);
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
    assert.deepEqual(pageErrors, []);
  });
});
