import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { type BrowserContext, type Page } from 'playwright-core';
import { createOperator } from '../../src/domain/operators/operators.js';
import type { Anvil } from '../harness/anvil.js';
import { consolePage, describeInChromium, signInConsole } from '../harness/chromium.js';
import { approveAs, teamWithPendingTransfer, type PendingTeam } from '../harness/entity-team.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenantsOnChain } from '../harness/tenants.js';

// An entity's case in the console, in a real headless Chromium (Debian's package; Playwright never downloads a
// browser here), against the real server and a local anvil node: the team that operates the company's wallet (the
// members table) and a member's transfer waiting for a 2-of-3 quorum (the pending approvals table), then another
// member's approval through the integrators' API, which the page's live refresh picks up. Same harness and skip
// rules as admin-console.test.ts.

// What the functions passed to page.evaluate / waitForFunction use. They run in the browser; the test project has
// no DOM library (it would leak into the server's type-check), so just these, declared for this module only.
interface Probed {
  dataset: Record<string, string | undefined>;
}
declare const document: { querySelector(selector: string): Probed | null; querySelectorAll(selector: string): { length: number } };

/** Longer than the case page's 3 s poll: the wait for a change made elsewhere. */
const LIVE_TIMEOUT = 15_000;

describeInChromium('admin console: an entity case’s members and pending approvals in Chromium', "the admin console's entity team browser tests are", (backend, browser) => {
  let server: TestServer;
  let chain: Anvil;
  let acme: SeededIntegrator;
  let operator: { operatorId: string; name: string; token: string };
  let team: PendingTeam;
  let entityId: string;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[] = [];

  before(async () => {
    ({ server, chain, tenants: [acme] } = await startTenantsOnChain(backend, 8453, ['Acme Pay']));
    operator = await createOperator(server.database, 'Alice Moreau', server.clock.now());
    team = await teamWithPendingTransfer(server, chain, acme);
    const details = await acme.client.get(`/v1/query/get-account-details?accountId=${team.account.accountId}`);
    assert.equal(details.status, 200, details.text);
    entityId = details.body.entityId;
    ({ context, page, errors: pageErrors } = await consolePage(browser));
  });
  after(async () => {
    await context?.close();
    await server?.close();
  });

  const membersTable = () => page.getByRole('table', { name: 'Members of the company’s account, oldest first' });
  const pendingTable = () => page.getByRole('table', { name: 'Transactions waiting for the members’ approval, oldest first' });
  const pendingRow = () => page.locator(`#pending-approvals-table tr[data-transaction-id="${team.transactionId}"]`);
  /** The case as the page polls it: two answers in a row mean the first one's render has finished. */
  const casePolled = () => page.waitForResponse((res) => new URL(res.url()).pathname === `/admin/api/reviews/entity/${entityId}`, { timeout: LIVE_TIMEOUT });

  it('opens the entity’s case and lists its members: name, email, role and since, with column headers', async () => {
    await signInConsole(page, server.url, operator);
    await page.goto(`${server.url}/admin/#/case/entity/${entityId}`);
    await page.getByRole('heading', { level: 1, name: 'Acme Robotics Inc.' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Members' }).waitFor();

    const table = membersTable();
    await table.waitFor();
    assert.deepEqual(await table.locator('thead th[scope="col"]').allTextContents(), ['Name', 'Email', 'Role', 'Member since']);
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent)));
    const { owner } = team.account;
    assert.deepEqual(rows, [
      ['Maria Garcia', owner.email, 'Owner'],
      ['Jonas Weber', team.proposer.email, 'Approver'],
      ['Lena Fischer', team.approver.email, 'Approver'],
      ['Tom Becker', team.viewer.email, 'Viewer'],
    ]);
    assert.equal(await table.locator('tbody tr time[datetime]').count(), 4);
    await page.getByText('Each transaction needs 2 approvals; 3 members (owners and approvers) may approve.').waitFor();
  });

  it('shows the pending transfer: amount in ETH, the address shortened, the proposer, 1 of 2 and when it expires', async () => {
    await page.getByRole('heading', { level: 2, name: 'Pending approvals' }).waitFor();
    assert.deepEqual(await pendingTable().locator('thead th[scope="col"]').allTextContents(), ['Kind', 'Amount', 'To', 'Proposed by', 'Approvals', 'Expires']);
    const row = pendingRow();
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    assert.equal(cells[0], 'Transfer');
    assert.equal(cells[1], '0.25 ETH on Base', 'exactly, from the wei, with the chain’s name');
    assert.equal(cells[2], `${team.to.toLowerCase().slice(0, 6)}…${team.to.toLowerCase().slice(-4)}`);
    assert.equal(await row.locator('td code').getAttribute('title'), team.to.toLowerCase());
    assert.equal(cells[3], 'Jonas Weber');
    assert.equal(cells[4], '1 of 2 · Jonas Weber');
    assert.match(await row.locator('.time-left').innerText(), /^in (1 d|23 h)/);
    const read = await acme.client.get(`/v1/query/get-transaction?transactionId=${team.transactionId}`);
    const expiresAt = new Date(Date.parse(read.body.createdAt) + 24 * 60 * 60 * 1000).toISOString();
    assert.equal(await row.locator('time').getAttribute('datetime'), expiresAt);
  });

  it('redraws neither table while nothing changed, and drops the row once another member’s approval completes the quorum', async () => {
    // Marks on the tables' elements survive only as long as the elements are not rebuilt.
    await page.evaluate(() => {
      document.querySelector('#members-table')!.dataset.probe = 'kept';
      document.querySelector('#pending-approvals-table')!.dataset.probe = 'kept';
    });
    await casePolled();
    await casePolled();
    assert.deepEqual(
      await page.evaluate(() => [document.querySelector('#members-table')?.dataset.probe, document.querySelector('#pending-approvals-table')?.dataset.probe]),
      ['kept', 'kept'],
    );

    const approved = await approveAs(server, acme, team.account, team.approver, team.transactionId);
    assert.deepEqual([approved.status, approved.body.status], [200, 'processing'], approved.text);
    await page.waitForFunction((id) => document.querySelectorAll(`tr[data-transaction-id="${id}"]`).length === 0, team.transactionId, { timeout: LIVE_TIMEOUT });
    await page.getByText('No transactions waiting for approval').waitFor();
    assert.equal(await page.evaluate(() => document.querySelector('#members-table')?.dataset.probe), 'kept', 'the members table was not redrawn');
    assert.equal(await membersTable().locator('tbody tr').count(), 4);
    assert.deepEqual(pageErrors, []);
  });
});
