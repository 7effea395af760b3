import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ANVIL_DEV_KEY } from '../../src/chain/demo-vault.js';
import { createOperator } from '../../src/domain/operators/operators.js';
import { adminRequest } from '../harness/admin.js';
import type { Anvil } from '../harness/anvil.js';
import { consolePage, describeInChromium } from '../harness/chromium.js';
import { createCustomer, ETH, type Customer } from '../harness/customers.js';
import { eventually } from '../harness/eventually.js';
import { verifiedBankAccount, withdrawalInTransfer } from '../harness/money.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenantsWithToken } from '../harness/tokens.js';
import { entry, statementXml } from '../domain/reconciliation/helpers.js';

// The console's "Ledger" and "Reconciliation" sections in headless Chromium (docs/ledger.md, docs/reconciliation.md),
// against the real server and an anvil node as Base, with data made as test/http/reconciliation.test.ts makes it: a
// customer's wallet funded by a real transfer (an incoming transfer), a withdrawal on chain, two deposits paid in a
// USDC the treasury does not hold (their payouts wait: nothing else moves on chain), and the treasury funded from
// outside the service (a break). The trial balance balances; the customer's account shows its balances (now and as of
// before the withdrawal) and its entries; the withdrawal's ledger transaction its legs, summing to zero. A chain run
// started from the console finds the treasury's break, resolved by keyboard with a note and an adjustment: the next
// run finds none. A statement uploaded through the file field gives an unknown credit and an amount off by a cent,
// matched by hand and resolved with a note (a 409 in place); the same file again is the 409 said in words. The run
// page fits a 390 px phone. Same harness and skip rules as the other console tests.

// What the functions passed to page.evaluate use (the test project has no DOM library; see admin-console.test.ts).
declare const document: { documentElement: { scrollWidth: number }; activeElement: { id: string } | null };

const DEV = privateKeyToAccount(ANVIL_DEV_KEY);
/** Two deposits paid in USDC, which the treasury never holds: their fiat is recorded, their payouts wait unsigned. */
const DEPOSITS = ['100.00', '50.00'];
const BREAK_NOTE = 'Treasury funded by a direct transfer from the operations wallet';
const UNKNOWN_NOTE = 'Interest paid by the bank';

interface LedgerEntry {
  ledgerEntryId: string;
  ledgerTransactionId: string;
  amount: string;
  status: string;
  createdAt: string;
  cause: { transactionId: string | null };
}
interface LedgerLeg {
  ledgerAccountId: string;
  accountCode: string;
  accountKind: string;
  amount: string;
}

describeInChromium('admin console: ledger and reconciliation in Chromium', "the admin console's ledger and reconciliation browser tests are", (backend, browser) => {
  let server: TestServer;
  let chain: Anvil;
  let acme: SeededIntegrator;
  let alice: Customer;
  let operator: { operatorId: string; name: string; token: string };
  let withdrawalId: string;
  /** The deposits' references, in DEPOSITS' order. */
  let references: string[];
  let dir: string;
  let statementFile: string;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[] = [];
  /** The bank run, once uploaded. */
  let bankRunId: string;

  const admin = async (path: string) => {
    const res = await adminRequest(server, 'GET', `/admin/api${path}`, { token: operator.token });
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const send = async (to: string, wei: bigint) => chain.mined(await chain.rpc<Hex>('eth_sendTransaction', [{ from: DEV.address, to, value: `0x${wei.toString(16)}` }]));
  /** Alice's ETH ledger account, as the API reads it. */
  const aliceAccount = async () => {
    const accounts = (await admin(`/ledger/accounts?kind=customer&accountId=${alice.accountId}`)).data as { ledgerAccountId: string; code: string; balances: { posted: string } }[];
    const eth = accounts.find((a) => a.code.endsWith('/slip44:60'));
    assert.ok(eth, 'alice has an ETH ledger account');
    return eth;
  };

  before(async () => {
    ({ server, chain, tenants: [acme] } = await startTenantsWithToken(backend, 8453, ['Acme Pay'], { CHAIN_CONFIRMATIONS: '8453=1', INCOMING_POLL_MS: '60000', WITHDRAWAL_RAILS: 'ach' }));
    await server.incoming!.runOnce();
    alice = await createCustomer(server, acme);
    operator = await createOperator(server.database, 'Alice Moreau', server.clock.now());
    // Funded by a real transfer: an incoming transfer, posted once final.
    await send(alice.walletAddress, ETH);
    await server.incoming!.runOnce();
    const bank = await verifiedBankAccount(server, acme, alice.accountId);
    withdrawalId = (await withdrawalInTransfer(server, acme, alice, bank, '20.00')).transactionId;
    references = [];
    for (const amount of DEPOSITS) {
      server.clock.advance(1000);
      const created = await acme.client.post('/v1/submit/create-deposit', { accountId: alice.accountId, amount, currency: 'USD', chainId: 8453, asset: 'USDC' });
      assert.equal(created.status, 201, created.text);
      server.clock.advance(1000);
      const funded = await acme.client.post('/v1/sandbox/simulate-deposit', { transactionId: created.body.transactionId, amount });
      assert.equal(funded.status, 200, funded.text);
      references.push(created.body.fiatDepositInstructions.reference);
    }
    // Money reaching the treasury from outside the service: the chain run's break.
    await send(server.treasury!.address, 2n * ETH);
    const { ledgerAccountId } = await aliceAccount();
    await eventually(
      async () => {
        await server.incoming!.runOnce();
        return (await admin(`/ledger/accounts/${ledgerAccountId}/entries`)).data as LedgerEntry[];
      },
      (entries) => entries.length >= 3 && entries.every((e) => e.status === 'posted'),
      'alice’s entries (the incoming transfer, the withdrawal and its gas) posted',
    );

    // The statement: the first deposit's credit, the second's off by a cent, and a credit nobody expects.
    dir = mkdtempSync(join(tmpdir(), 'console-statements-'));
    const today = server.clock.now().toISOString().slice(0, 10);
    const line = (amount: string, reference: string) => entry('001.08', { amount, currency: 'USD', indicator: 'CRDT', bookingDate: today, ustrd: [reference] });
    statementFile = join(dir, 'statement.xml');
    writeFileSync(statementFile, statementXml('001.08', [line('100.00', references[0]!), line('50.01', references[1]!), line('33.00', 'INVOICE 991')].join(''), { currency: 'USD' }));
    writeFileSync(join(dir, 'intraday.xml'), '<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.02"/>');

    ({ context, page, errors: pageErrors } = await consolePage(browser, { expectedStatuses: [400, 409] }));
  });
  after(async () => {
    await context?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const sections = () => page.getByRole('navigation', { name: 'Sections' });
  const current = (name: string) => sections().getByRole('link', { name, exact: true }).getAttribute('aria-current');
  const text = async (selector: string) => (await page.locator(selector).textContent())?.trim();
  const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
  const fits = async (where: string) => {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `${where}: the page is ${width} px wide`);
  };
  const upload = async (file: string) => {
    await page.getByLabel('Bank statement (camt.053 XML)').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload and reconcile' }).click();
  };

  it('signs in and opens the Ledger: the trial balance balances, each asset per kind of account', async () => {
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Operator token').fill(operator.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading('Review queue');

    await sections().getByRole('link', { name: 'Ledger', exact: true }).click();
    await heading('Ledger');
    assert.equal(new URL(page.url()).hash, '#/ledger');
    assert.deepEqual([await current('Ledger'), await current('Reconciliation'), await current('Verification reviews')], ['page', null, null]);

    const trial = page.getByRole('region', { name: 'Trial balance' });
    await trial.locator('#trial-balance-status', { hasText: /^Balanced$/ }).waitFor();
    const eth = trial.getByRole('region', { name: 'ETH on Base' });
    const usd = trial.getByRole('region', { name: 'USD', exact: true });
    for (const asset of [eth, usd]) {
      await asset.locator('.badge', { hasText: /^Balanced$/ }).waitFor();
      assert.equal(await asset.getAttribute('data-balanced'), 'true');
    }
    assert.equal(await eth.locator('td.sum-posted').textContent(), '0.00 ETH');
    assert.equal(await eth.locator('td.sum-pending').textContent(), '0.00 ETH');
    assert.equal(await usd.locator('td.sum-posted').textContent(), '0.00 USD');
    // The two deposits' fiat in the bank's clearing account, against the exchange.
    assert.deepEqual(await usd.locator('tr[data-kind="fiat_clearing"] td').allTextContents(), ['1', '150.00 USD', '150.00 USD']);
    assert.deepEqual(await eth.locator('tr[data-kind="customer"] td').first().textContent(), '1');
    const kinds = await eth.locator('tbody tr').evaluateAll((rows) => rows.map((r) => (r as unknown as { dataset: { kind: string } }).dataset.kind));
    assert.ok(kinds.includes('treasury') && kinds.includes('network_fees') && kinds.includes('external'), kinds.join());
    // The accounts' wide table scrolls in its own box: the page is as wide as the window.
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 1360, 'the ledger page scrolls sideways');
  });

  it('lists the accounts of a kind and opens the customer’s: its balances in ETH and its entries, newest first', async () => {
    const account = await aliceAccount();
    await page.getByLabel('Kind of account').selectOption('customer');
    await page.waitForURL(/#\/ledger\?kind=customer$/);
    const row = page.locator(`tr[data-ledger-account-id="${account.ledgerAccountId}"]`);
    await row.waitFor();
    assert.equal(await row.getAttribute('data-account-id'), alice.accountId);
    assert.equal(await row.locator('td.posted').textContent(), `${account.balances.posted} ETH`);
    assert.ok(!account.balances.posted.startsWith('1'), 'the withdrawal and the gas came out');

    await row.getByRole('link').click();
    await heading(`Customer wallet ${alice.accountId.slice(0, 8)}… · ETH on Base`);
    assert.equal(new URL(page.url()).hash, `#/ledger-account/${account.ledgerAccountId}`);
    assert.equal(await current('Ledger'), 'true');
    await page.getByRole('heading', { level: 2, name: 'Balances now' }).waitFor();
    assert.equal(await text('#balance-posted'), `${account.balances.posted} ETH`);

    const entries = (await admin(`/ledger/accounts/${account.ledgerAccountId}/entries`)).data as LedgerEntry[];
    const table = page.getByRole('table', { name: 'The account’s entries, newest first' });
    await table.locator('tbody tr[data-ledger-entry-id]').first().waitFor();
    assert.deepEqual(
      await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => (r as unknown as { dataset: { ledgerEntryId: string } }).dataset.ledgerEntryId)),
      entries.map((e) => e.ledgerEntryId),
      'newest first, as the API pages them',
    );
    // The oldest: the incoming transfer of 1 ETH, posted, caused by its transaction.
    const incoming = table.locator(`tr[data-ledger-entry-id="${entries.at(-1)!.ledgerEntryId}"]`);
    assert.equal(await incoming.locator('td.movement').textContent(), '+1.00 ETH');
    assert.equal(await incoming.locator('.badge').textContent(), 'Posted');
    assert.equal(await incoming.locator('td.cause').textContent(), `Transaction ${entries.at(-1)!.cause.transactionId!.slice(0, 8)}…`);
    for (const e of entries.slice(0, -1)) assert.match((await table.locator(`tr[data-ledger-entry-id="${e.ledgerEntryId}"] td.movement`).textContent()) ?? '', /^-0\.0\d+ ETH$/);
    // Never base units.
    const body = (await page.locator('main').textContent()) ?? '';
    assert.ok(!body.includes(String(ETH)), 'wei is shown');
  });

  it('reads the balances as of a time before the withdrawal: the 1 ETH the transfer brought', async () => {
    const account = await aliceAccount();
    const entries = (await admin(`/ledger/accounts/${account.ledgerAccountId}/entries`)).data as LedgerEntry[];
    const withdrawn = entries.find((e) => e.cause.transactionId === withdrawalId)!;
    const before = new Date(Math.floor(Date.parse(withdrawn.createdAt) / 1000) * 1000 - 1000).toISOString();
    await page.getByLabel('As of (UTC)').fill(before.slice(0, 19));
    await page.getByRole('button', { name: 'Show balances then' }).click();
    await page.waitForURL((url) => url.hash.includes('asOf='));
    assert.equal(new URL(`http://x/?${new URL(page.url()).hash.split('?')[1]}`).searchParams.get('asOf'), before);
    await page.getByRole('heading', { level: 2, name: /^Balances as of / }).waitFor();
    await page.locator('#balance-posted', { hasText: '1.00 ETH' }).waitFor();
    assert.equal(await text('#balance-available'), '1.00 ETH');
    await page.getByRole('button', { name: 'Now', exact: true }).click();
    await page.getByRole('heading', { level: 2, name: 'Balances now' }).waitFor();
    assert.equal(await text('#balance-posted'), `${account.balances.posted} ETH`);
  });

  it('opens the withdrawal’s ledger transaction from its entry: every leg with its account, kind and signed amount, summing to zero', async () => {
    const caused = (await admin(`/ledger/transactions?causeId=${withdrawalId}`)).data as { ledgerTransactionId: string; entries: LedgerLeg[] }[];
    const moved = caused.find((t) => t.entries.some((l) => l.accountKind === 'treasury'))!;
    assert.ok(moved, 'the withdrawal’s crypto to the treasury');
    const row = page.locator(`tr[data-ledger-transaction-id="${moved.ledgerTransactionId}"]`);
    // By keyboard: the selection moves to the row, Enter opens its transaction.
    const rows = await page.locator('tbody tr[data-ledger-entry-id]').evaluateAll((r) => r.map((x) => (x as unknown as { dataset: { ledgerTransactionId: string } }).dataset.ledgerTransactionId));
    await page.locator('#page-title').focus();
    for (let i = 0; i < rows.indexOf(moved.ledgerTransactionId); i++) await page.keyboard.press('j');
    await row.and(page.locator('[aria-current="true"]')).waitFor();
    await page.keyboard.press('Enter');
    await heading('Ledger transaction');
    assert.equal(new URL(page.url()).hash, `#/ledger-transaction/${moved.ledgerTransactionId}`);
    assert.equal(await text('#ledger-transaction-status'), 'Posted');

    const legs = page.getByRole('table', { name: 'Every leg of the transaction, and each asset’s sum' });
    await legs.locator('tbody tr').first().waitFor();
    const shown = await legs.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...(tr as unknown as { cells: { textContent: string }[] }).cells].map((c) => c.textContent)));
    const signed = (amount: string) => (amount.startsWith('-') ? amount : `+${amount}`);
    assert.deepEqual(
      shown,
      moved.entries.map((l) => [l.accountCode, l.accountKind === 'customer' ? 'Customer wallet' : 'Treasury', 'ETH on Base', `${signed(l.amount)} ETH`]),
    );
    assert.deepEqual(moved.entries.map((l) => l.accountKind).sort(), ['customer', 'treasury']);
    const sum = legs.locator('tfoot tr');
    assert.equal(await sum.locator('th').textContent(), 'Sum in ETH on Base Balanced');
    assert.equal(await sum.locator('td').textContent(), '0.00 ETH');

    // A leg's account opens; Esc comes back to the ledger as it was left (customers only).
    await legs.getByRole('link', { name: moved.entries.find((l) => l.accountKind === 'treasury')!.accountCode }).click();
    await heading('Treasury · ETH on Base');
    await page.keyboard.press('Escape');
    await heading('Ledger');
    await page.waitForURL(/#\/ledger\?kind=customer$/);
  });

  it('runs a chain reconciliation from the console: the treasury’s break, the ledger and chain figures, the difference', async () => {
    await server.incoming!.runOnce();
    await sections().getByRole('link', { name: 'Reconciliation', exact: true }).click();
    await heading('Reconciliation');
    assert.equal(new URL(page.url()).hash, '#/reconciliations');
    assert.equal(await current('Reconciliation'), 'page');
    await page.getByText('No reconciliation has run yet.').waitFor();

    await page.getByRole('button', { name: 'Run against the chain' }).click();
    await heading('Chain reconciliation');
    assert.match(new URL(page.url()).hash, /^#\/reconciliation\/[0-9a-f-]{36}$/);
    assert.equal(await current('Reconciliation'), 'true');
    await page.getByText(/^Chain reconciliation done: 1 break · \d+ holdings\.$/).waitFor();
    assert.match((await text('#run-counts')) ?? '', /^1 break · \d+ holdings$/);

    const found = page.locator('article[data-break-id]');
    assert.equal(await found.count(), 1);
    const item = found.first();
    assert.equal(await item.getByRole('heading', { level: 3 }).textContent(), 'Treasury · ETH on Base');
    assert.equal(await item.locator('.badge').textContent(), 'Open');
    assert.equal(await item.locator('.difference').textContent(), '+2.00 ETH');
    const ledger = (await item.locator('.ledger-figure').textContent())!;
    const onChain = (await item.locator('.chain-figure').textContent())!;
    assert.match(ledger, /^0\.\d+ ETH$/, 'the withdrawal’s crypto, in ETH');
    assert.equal(onChain, `2${ledger.slice(1)}`, 'the chain holds 2 ETH more');
    assert.ok(await item.locator('dd', { hasText: server.treasury!.address.toLowerCase() }).count());
    await item.locator('dd', { hasText: /^\d+ on Base$/ }).waitFor();
    assert.ok(!((await page.locator('main').textContent()) ?? '').includes(String(2n * ETH)), 'never base units');
  });

  it('resolves the break by keyboard with a required note and the adjustment; the next run finds none', async () => {
    const item = page.locator('article[data-break-id]');
    // No note: refused here, before the server.
    await item.getByRole('button', { name: 'Resolve break' }).click();
    await item.getByText('A note is required to resolve a break: say what the difference was.').waitFor();
    const note = item.getByLabel('Note (required)');
    assert.equal(await note.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement?.id), await note.getAttribute('id'));

    await page.keyboard.type(BREAK_NOTE);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    assert.equal(await item.getByRole('checkbox', { name: /^Adjust the ledger: post the difference \(\+2\.00 ETH\) against adjustments$/ }).isChecked(), true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await item.locator('.badge', { hasText: 'Resolved' }).waitFor();
    await page.getByText('Break resolved: +2.00 ETH posted to the ledger against adjustments.').waitFor();
    await item.locator('blockquote', { hasText: BREAK_NOTE }).waitFor();
    await item.locator('dd', { hasText: 'You (Alice Moreau)' }).waitFor();
    assert.equal(await item.locator('form').count(), 0, 'a worked break has no form');

    // The adjustment's legs: the treasury +2 ETH against adjustments.
    await item.getByRole('link', { name: 'The adjustment’s legs' }).click();
    await heading('Ledger transaction');
    const legs = page.locator('table.ledger-legs tbody tr');
    await legs.first().waitFor();
    assert.deepEqual((await legs.locator('td:nth-child(2)').allTextContents()).sort(), ['Adjustments', 'Treasury']);
    assert.deepEqual((await legs.locator('td.movement').allTextContents()).sort(), ['+2.00 ETH', '-2.00 ETH']);
    await page.goBack();
    await heading('Chain reconciliation');

    await server.incoming!.runOnce();
    await sections().getByRole('link', { name: 'Reconciliation', exact: true }).click();
    await heading('Reconciliation');
    await page.getByRole('button', { name: 'Run against the chain' }).click();
    await page.locator('#no-breaks').waitFor();
    assert.equal(await text('#no-breaks'), 'No breaks: every holding equals the ledger at the block read.');
    assert.equal((await admin('/ledger/trial-balance')).balanced, true);
  });

  it('refuses a file that is not a camt.053 statement, naming the field as the API does', async () => {
    await sections().getByRole('link', { name: 'Reconciliation', exact: true }).click();
    await heading('Reconciliation');
    // No file chosen: said here.
    await page.getByRole('button', { name: 'Upload and reconcile' }).click();
    await page.getByText('Choose the statement file to upload.').waitFor();

    await upload(join(dir, 'intraday.xml'));
    const problem = page.locator('#run-problem');
    await problem.locator('li', { hasText: '/statement' }).waitFor();
    assert.match((await problem.textContent()) ?? '', /not a camt\.053 statement/);
    assert.match((await text('#statement-error')) ?? '', /^The statement file: not a camt\.053 statement/);
    assert.equal(await page.getByLabel('Bank statement (camt.053 XML)').getAttribute('aria-invalid'), 'true');
    assert.equal(new URL(page.url()).hash, '#/reconciliations');
  });

  it('uploads a statement: the unknown credit and the amount off by a cent are exceptions, the deposit matched; fits a 390 px phone', async () => {
    await upload(statementFile);
    await heading('Bank reconciliation');
    bankRunId = new URL(page.url()).hash.split('/')[2]!;
    await page.getByText('Bank reconciliation done: 1 matched · 2 exceptions · 3 lines.').waitFor();

    const unknown = page.locator('article[data-type="unknown_line"]');
    await unknown.getByRole('heading', { level: 3, name: 'Unknown line: no movement expected' }).waitFor();
    await unknown.locator('dd', { hasText: 'Credit 33.00 USD' }).waitFor();
    await unknown.locator('dd code', { hasText: 'INVOICE 991' }).waitFor();
    const cent = page.locator('article[data-type="amount_mismatch"]');
    await cent.getByRole('heading', { level: 3, name: 'Amount differs' }).waitFor();
    await cent.locator('dd', { hasText: 'Credit 50.01 USD' }).waitFor();
    await cent.locator('dd', { hasText: `Deposit ${references[1]} · 50.00 USD` }).getByRole('link', { name: references[1] }).waitFor();
    assert.equal(await cent.locator('.badge').textContent(), 'Open');
    const matched = page.getByRole('table', { name: 'Statement lines matched to a movement' });
    const [amount, booked, ...rest] = await matched.locator(`tr[data-reference="${references[0]}"] td`).allTextContents();
    assert.deepEqual([amount, rest], ['Credit 100.00 USD', [`Deposit ${references[0]}`, 'Automatically']]);
    assert.match(booked!, /^\d{1,2} \w+ \d{4}$/, 'a date as the console writes them');

    await page.setViewportSize({ width: 390, height: 844 });
    await fits('a bank run with its open exceptions');
    await page.goBack();
    await heading('Reconciliation');
    await fits('the runs');
    await page.goForward();
    await heading('Bank reconciliation');
    await page.setViewportSize({ width: 1360, height: 860 });
  });

  it('matches the cent-off line by hand; the unknown credit cannot be matched to the same deposit (409 in place), and is resolved with a note', async () => {
    const cent = page.locator('article[data-type="amount_mismatch"]');
    assert.equal(await cent.getByLabel('Movement').inputValue(), 'deposit');
    assert.equal(await cent.getByLabel('Reference').inputValue(), references[1]);
    await cent.getByLabel('Note (optional)').fill('The sender paid a cent more');
    await cent.getByRole('button', { name: 'Match', exact: true }).click();
    await cent.locator('.badge', { hasText: 'Matched' }).waitFor();
    await page.getByText(`Matched by hand to deposit ${references[1]}.`).waitFor();
    const matched = page.getByRole('table', { name: 'Statement lines matched to a movement' });
    assert.deepEqual((await matched.locator(`tr[data-reference="${references[1]}"] td`).allTextContents()).slice(2), [`Deposit ${references[1]}`, 'You (Alice Moreau)']);

    const unknown = page.locator('article[data-type="unknown_line"]');
    await unknown.getByLabel('Reference').fill(references[1]!);
    await unknown.getByRole('button', { name: 'Match', exact: true }).click();
    const problem = unknown.locator('.problem');
    await problem.getByText('A statement line is matched to this movement already').waitFor();
    await problem.getByText(`A statement line is matched to ${references[1]} already`).waitFor();
    assert.equal(await unknown.locator('.badge').textContent(), 'Open');

    // Resolved with a note, by keyboard: Ctrl+Enter in the note sends its form.
    await unknown.getByLabel('Note (required)').fill(UNKNOWN_NOTE);
    await unknown.getByLabel('Note (required)').press('Control+Enter');
    await unknown.locator('.badge', { hasText: 'Resolved' }).waitFor();
    await page.getByText('Exception resolved with the note.').waitFor();
    await unknown.locator('blockquote', { hasText: UNKNOWN_NOTE }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), `item-${await unknown.getAttribute('data-exception-id')}`, 'the focus on the item worked');
    assert.equal(await page.getByRole('heading', { level: 2, name: /^Exceptions/ }).textContent(), 'Exceptions (0 open of 2)');
  });

  it('uploads the same statement again: the 409 said in words, with the way to the run that imported it', async () => {
    await sections().getByRole('link', { name: 'Reconciliation', exact: true }).click();
    await heading('Reconciliation');
    await upload(statementFile);
    const problem = page.locator('#run-problem');
    await problem.getByText('This bank statement was imported already').waitFor();
    await problem.getByText('This statement was imported already: its run matched what it could, and nothing is matched again').waitFor();
    await problem.getByRole('link', { name: 'Open the run that imported it' }).click();
    await heading('Bank reconciliation');
    assert.equal(new URL(page.url()).hash, `#/reconciliation/${bankRunId}`);
  });

  it('lists the runs newest first with what each found; filters them; j and Enter open one, Esc comes back', async () => {
    await page.keyboard.press('Escape');
    await heading('Reconciliation');
    const table = page.getByRole('table', { name: 'Reconciliation runs, newest first' });
    await table.locator('tbody tr[data-run-id]').nth(2).waitFor();
    assert.deepEqual(await table.locator('thead th').allTextContents(), ['Completed', 'Kind', 'Started by', 'Found', 'Statement']);
    const kinds = await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => (r as unknown as { dataset: { kind: string } }).dataset.kind));
    assert.deepEqual(kinds, ['bank', 'chain', 'chain']);
    assert.deepEqual((await table.locator('tbody tr').first().locator('td').allTextContents()).slice(1, 5), ['Bank statement', 'Operator', '1 matched · 2 exceptions · 3 lines', 'MSG-1 · STMT-1']);
    assert.match((await table.locator('tbody tr').nth(1).locator('td.counts').textContent()) ?? '', /^0 breaks · \d+ holdings$/);

    await page.getByLabel('Kind', { exact: true }).selectOption('chain');
    await page.waitForURL(/#\/reconciliations\?kind=chain$/);
    await page.getByText('Runs 1–2. Newest first.').waitFor();
    await table.locator('tbody tr[data-run-id][aria-current="true"]').waitFor();
    await page.keyboard.press('j');
    await table.locator('tbody tr').nth(1).and(page.locator('[aria-current="true"]')).waitFor();
    await page.keyboard.press('Enter');
    await heading('Chain reconciliation');
    await page.locator('article[data-break-id] .badge', { hasText: 'Resolved' }).waitFor();
    await page.keyboard.press('Escape');
    await page.waitForURL(/#\/reconciliations\?kind=chain$/);
    await heading('Reconciliation');
  });

  it('logged no error (no CSP violation)', () => {
    assert.deepEqual(pageErrors, []);
  });
});
