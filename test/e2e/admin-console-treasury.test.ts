import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { getAddress } from 'viem';
import { createOperator } from '../../src/domain/operators/operators.js';
import { consolePage, describeInChromium } from '../harness/chromium.js';
import { createCustomer, ETH } from '../harness/customers.js';
import { eventually } from '../harness/eventually.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenantsWithToken } from '../harness/tokens.js';
import type { TestToken } from '../harness/tokens.js';
import type { Anvil } from '../harness/anvil.js';

// The console's "Treasury" and "Deposits" sections in headless Chromium (issue 34: every amount in its asset's units
// with the chain's name, never base units), against the real server and an anvil node as Base listing a real USDC
// (contracts/DemoToken.sol, 6 decimals). The treasury holds 1,000,000 USDC and 999.9 ETH; a deposit of 1,500,000 USD
// paid in USDC arrives and its payout waits, unsigned, for want of USDC (docs/tokens.md#deposits-in-a-token). The
// treasury page shows both balances and the waiting payout with its reason; the deposit's page its USDC amount and
// payout state; funded, the payout goes out and both pages follow. The deposits list shows it beside a native deposit
// of 0.00001234 ETH (never rounded to 0.00), filters by status and opens either. Same harness and skip rules as the
// other console tests.

/** Longer than the deposit page's 3 s poll and the treasury's 10 s one: the wait for a change made elsewhere. */
const LIVE_TIMEOUT = 15_000;
const USDC = 10n ** 6n;

/** The integrator's view of a deposit, as far as this test reads it (docs/deposits.md). */
interface Deposit {
  transactionId: string;
  status: string;
  deposit?: { reference: string; payoutError?: string };
}

describeInChromium('admin console: treasury and deposits in Chromium', "the admin console's treasury browser tests are", (backend, browser) => {
  let server: TestServer;
  let acme: SeededIntegrator;
  let token: TestToken;
  let operator: { operatorId: string; name: string; token: string };
  let chain: Anvil;
  let deposit: Deposit & { deposit: NonNullable<Deposit['deposit']> };
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[] = [];

  const read = async (transactionId: string): Promise<Deposit> => (await acme.client.get(`/v1/query/get-transaction?transactionId=${transactionId}`)).body;

  before(async () => {
    ({ server, tenants: [acme], token, chain } = await startTenantsWithToken(backend, 8453, ['Acme Pay']));
    operator = await createOperator(server.database, 'Alice Moreau', server.clock.now());
    const customer = await createCustomer(server, acme);
    const treasury = server.treasury!.address;
    await chain.setBalance(treasury, (9999n * ETH) / 10n);
    await token.mint(treasury, 1_000_000n * USDC);

    server.clock.advance(1000);
    const created = await acme.client.post('/v1/submit/create-deposit', { accountId: customer.accountId, amount: '1500000.00', currency: 'USD', chainId: 8453, asset: 'USDC' });
    assert.equal(created.status, 201, created.text);
    server.clock.advance(1000);
    const funded = await acme.client.post('/v1/sandbox/simulate-deposit', { transactionId: created.body.transactionId, amount: '1500000.00' });
    assert.equal(funded.status, 200, funded.text);
    // The payout is refused before signing (the treasury holds 1,000,000 USDC) and waits with its reason.
    deposit = (await eventually(() => read(created.body.transactionId), (t) => t.deposit?.payoutError !== undefined, 'the payout refused for want of USDC')) as typeof deposit;
    assert.match(deposit.deposit.payoutError!, /^insufficient_funds/);

    ({ context, page, errors: pageErrors } = await consolePage(browser, { expectedStatuses: [404] }));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  });
  after(async () => {
    await context?.close();
    await server?.close();
  });

  const sections = () => page.getByRole('navigation', { name: 'Sections' });
  const current = (name: string) => sections().getByRole('link', { name }).getAttribute('aria-current');
  const text = (selector: string) => page.locator(selector).textContent();
  const statusIs = (status: string) => page.locator(`#deposit-status[data-status="${status}"]`).waitFor({ timeout: LIVE_TIMEOUT });

  it('signs in and opens the Treasury: its address, USDC and ETH in their units on Base, the waiting payout with why', async () => {
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Operator token').fill(operator.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Review queue' }).waitFor();

    await sections().getByRole('link', { name: 'Treasury' }).click();
    await page.getByRole('heading', { level: 1, name: 'Treasury' }).waitFor();
    assert.equal(new URL(page.url()).hash, '#/treasury');
    assert.deepEqual([await current('Treasury'), await current('Verification reviews'), await current('Deposits')], ['page', null, null]);

    await page.locator('#treasury-address', { hasText: server.treasury!.address }).waitFor();
    const balances = page.getByRole('region', { name: 'Balances' });
    await balances.locator('tr[data-symbol="USDC"] td.balance', { hasText: '1,000,000.00 USDC on Base' }).waitFor();
    assert.equal(await text('tr[data-symbol="ETH"] td.balance'), '999.90 ETH on Base');
    assert.equal(await balances.locator('tr[data-symbol="USDC"] code').textContent(), getAddress(token.address), 'the token, checksummed as the API lists it');

    const waiting = page.getByRole('region', { name: 'Waiting payouts' }).locator(`tr[data-transaction-id="${deposit.transactionId}"]`);
    await waiting.getByRole('link', { name: deposit.deposit.reference }).waitFor();
    await waiting.getByText('1,500,000.00 USDC on Base').waitFor();
    await waiting.getByText(/^insufficient_funds: the treasury .* holds 1000000 USDC .*needs 1500000 USDC/).waitFor();

    // Never base units: neither the USDC's (10^6 a unit) nor the wei.
    const body = (await page.locator('main').textContent()) ?? '';
    for (const raw of [String(1_000_000n * USDC), String(1_500_000n * USDC), String((9999n * ETH) / 10n)]) assert.ok(!body.includes(raw), `${raw} is shown`);
  });

  it('follows the payout to its deposit: the amount paid in USDC on Base, the status, and why the payout waits', async () => {
    const { reference } = deposit.deposit;
    await page.getByRole('link', { name: reference }).click();
    await page.getByRole('heading', { level: 1, name: `Deposit ${reference}` }).waitFor();
    assert.equal(new URL(page.url()).hash, `#/deposit/${reference}`);
    assert.equal(await current('Deposits'), 'true');
    await statusIs('funds_in_transfer');

    const details = page.getByRole('region', { name: 'Deposit' });
    assert.equal(await text('#deposit-crypto'), '1,500,000.00 USDC on Base');
    await details.locator('dd', { hasText: '1,500,000.00 USD' }).first().waitFor();
    await details.locator('dd', { hasText: '1 USDC per USD' }).waitFor();
    assert.match((await text('#deposit-payout')) ?? '', /^Waiting, tried again later: insufficient_funds: .*needs 1500000 USDC/);
    await page.getByRole('region', { name: 'History' }).getByText('by Sandbox simulation').first().waitFor();
  });

  it('funded, the payout goes out: the deposit page shows it paid, and the treasury nothing waiting and 500,000 USDC', async () => {
    await token.mint(server.treasury!.address, 1_000_000n * USDC);
    // Past the payout's backoff (2^attempts s), then the watcher runs at once rather than on its next round.
    server.clock.advance(60_000);
    server.watcher?.kick();
    await statusIs('completed');
    assert.equal(await text('#deposit-payout'), 'Paid');
    await page.getByText('Status changed: Completed.').waitFor();

    await sections().getByRole('link', { name: 'Treasury' }).click();
    await page.getByText('No payouts waiting: the treasury covers every payout due.').waitFor();
    assert.equal(await text('tr[data-symbol="USDC"] td.balance'), '500,000.00 USDC on Base');
    // The payout's gas came out of the ETH.
    assert.match((await text('tr[data-symbol="ETH"] td.balance')) ?? '', /^999\.8\d+ ETH on Base$/);
  });

  it('lists the deposits newest first: reference, integrator, fiat, what each pays in its asset’s units on Base, status; filters and opens one', async () => {
    const { reference } = deposit.deposit;
    // A native deposit too: 12.34 USD at 10^12 wei a dollar is 0.00001234 ETH, which two decimals would show as 0.00.
    const customer = await createCustomer(server, acme);
    server.clock.advance(1000);
    const small = await acme.client.post('/v1/submit/create-deposit', { accountId: customer.accountId, amount: '12.34', currency: 'USD', chainId: 8453 });
    assert.equal(small.status, 201, small.text);
    const smallReference = small.body.fiatDepositInstructions.reference as string;

    await sections().getByRole('link', { name: 'Deposits' }).click();
    await page.getByRole('heading', { level: 1, name: 'Deposits' }).waitFor();
    assert.equal(new URL(page.url()).hash, '#/deposits');
    assert.equal(await current('Deposits'), 'page');
    const table = page.getByRole('table', { name: 'Deposits, newest first' });
    assert.deepEqual(await table.locator('thead th').allTextContents(), ['Reference', 'Integrator', 'Amount', 'Pays out', 'Status', 'Created']);
    await table.locator(`tr[data-reference="${smallReference}"]`).waitFor();
    assert.deepEqual(await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => (r as unknown as { dataset: { reference: string } }).dataset.reference)), [smallReference, reference]);
    const cells = (ref: string) => table.locator(`tr[data-reference="${ref}"] td`).allTextContents();
    assert.deepEqual((await cells(smallReference)).slice(0, 5), [smallReference, 'Acme Pay', '12.34 USD', '0.00001234 ETH on Base', 'Waiting for funds']);
    assert.deepEqual((await cells(reference)).slice(0, 5), [reference, 'Acme Pay', '1,500,000.00 USD', '1,500,000.00 USDC on Base', 'Completed']);
    await page.getByText('Deposits 1–2. Newest first.').waitFor();
    // Never base units.
    const body = (await page.locator('main').textContent()) ?? '';
    for (const raw of [String(1_500_000n * USDC), String(1234n * 10n ** 10n)]) assert.ok(!body.includes(raw), `${raw} is shown`);

    // The selection starts on the newest; j moves it, Enter opens it; Esc comes back to the list.
    await page.keyboard.press('j');
    await table.locator(`tr[data-reference="${reference}"][aria-current="true"]`).waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: `Deposit ${reference}` }).waitFor();
    assert.equal(await current('Deposits'), 'true');
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { level: 1, name: 'Deposits' }).waitFor();
    await table.locator(`tr[data-reference="${reference}"][aria-current="true"]`).waitFor();

    // The status filter is in the address.
    await page.getByLabel('Status').selectOption('waiting_for_funds');
    await page.waitForURL(/#\/deposits\?status=waiting_for_funds$/);
    // The filtered page's own summary: drawn once its answer is in, whatever the old page showed meanwhile.
    await page.getByText('Deposits 1–1. Newest first.').waitFor();
    assert.deepEqual(await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => (r as unknown as { dataset: { reference: string } }).dataset.reference)), [smallReference]);
    await page.getByLabel('Status').selectOption('failed');
    await page.getByText('No deposits with status “Failed”.').waitFor();
    await page.getByLabel('Status').selectOption('');
    await page.waitForURL(/#\/deposits$/);

    // A row's link opens the deposit's page.
    await table.getByRole('link', { name: smallReference }).click();
    await page.getByRole('heading', { level: 1, name: `Deposit ${smallReference}` }).waitFor();
    await statusIs('waiting_for_funds');
    assert.equal(await text('#deposit-crypto'), '0.00001234 ETH on Base');
  });

  it('finds a deposit by its reference typed loosely, says when the form is wrong or there is no such deposit', async () => {
    const { reference } = deposit.deposit;
    await sections().getByRole('link', { name: 'Deposits' }).click();
    await page.getByRole('heading', { level: 1, name: 'Deposits' }).waitFor();
    assert.equal(await current('Deposits'), 'page');
    const field = page.getByLabel('Deposit reference');
    await page.getByRole('table', { name: 'Deposits, newest first' }).locator('tbody tr[aria-current="true"]').waitFor();
    await page.keyboard.press('/');
    assert.equal(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id), 'deposit-reference');

    await field.fill('DEP-123');
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.getByText('A deposit reference is DEP- followed by 12 letters and digits.').waitFor();
    assert.equal(await field.getAttribute('aria-invalid'), 'true');

    await field.fill('DEP-000000000000');
    await field.press('Enter');
    await page.getByRole('alert').getByText('No such deposit.').waitFor();

    await field.fill(` ${reference.toLowerCase().replace('-', '- ')} `);
    await field.press('Enter');
    await page.getByRole('heading', { level: 1, name: `Deposit ${reference}` }).waitFor();
    await statusIs('completed');
    assert.equal(await text('#deposit-crypto'), '1,500,000.00 USDC on Base');
  });

  it('logged no error (no CSP violation)', () => {
    assert.deepEqual(pageErrors, []);
  });
});
