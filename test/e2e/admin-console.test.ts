import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';
import { createOperator } from '../../src/domain/operators/operators.js';
import { backends } from '../harness/backends.js';
import { consolePage, describeInChromium } from '../harness/chromium.js';
import { eventsFor } from '../harness/db.js';
import { berliner, californian, dataUrl, doc } from '../harness/fixtures.js';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';
import type { DocumentView, EventData, StatusChange } from '../harness/types.js';

// The compliance officers' console in a real headless Chromium (the Debian package; Playwright never downloads a
// browser here), against the real server: sign in, queue, case, documents, decisions, live status.

// What the functions passed to page.evaluate / waitForFunction use. They run in the browser; the test project has
// no DOM library (it would leak into the server's type-check), so just these, declared for this module only.
declare const document: { querySelector<T = Element>(selector: string): T | null; querySelectorAll(selector: string): { length: number }; activeElement: { id: string } | null };
declare const sessionStorage: { length: number };
interface Element {
  getAttribute(name: string): string | null;
}
interface HTMLImageElement extends Element {
  complete: boolean;
  naturalWidth: number;
}
interface HTMLElement extends Element {
  shadowRoot: { querySelector(selector: string): Element | null } | null;
}

const UPDATE_SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';
/** Longer than the case page's 3 s poll: the wait for a status another party changed. */
const LIVE_TIMEOUT = 15_000;

interface Applicant {
  userInfo: Record<string, unknown>;
  integrator: 'acme' | 'northwind';
  /** How long ago the case entered review. */
  agoMinutes: number;
  passportCountry?: string;
}

/** A queue that reads like a real one; the first (longest waiting) is the case the officer works on. */
const APPLICANTS: Applicant[] = [
  { userInfo: californian({ email: 'maria.garcia@example.com', nationality: 'MEX' }), integrator: 'acme', agoMinutes: 3 * 1440 + 125, passportCountry: 'USA' },
  { userInfo: berliner({ email: 'jonas.becker@example.de' }), integrator: 'northwind', agoMinutes: 1440 + 310, passportCountry: 'DEU' },
  { userInfo: californian({ firstName: 'Samuel', middleName: undefined, lastName: 'Okafor', email: 'samuel.okafor@example.com', birthDate: '1979-11-02', socialSecurityNumber: '212-67-8901' }), integrator: 'acme', agoMinutes: 1210 },
  { userInfo: berliner({ firstName: 'Sofia', lastName: 'Rossi', email: 'sofia.rossi@example.it', nationality: 'ITA', birthDate: '1993-05-21' }), integrator: 'northwind', agoMinutes: 365, passportCountry: 'ITA' },
  { userInfo: californian({ firstName: 'Priya', middleName: undefined, lastName: 'Raman', email: 'priya.raman@example.com', birthDate: '1991-01-17', socialSecurityNumber: '318-44-1290' }), integrator: 'acme', agoMinutes: 130 },
  { userInfo: californian({ firstName: 'Liam', middleName: 'James', lastName: "O'Connor", email: 'liam.oconnor@example.com', birthDate: '1985-08-09', socialSecurityNumber: '402-19-7731' }), integrator: 'northwind', agoMinutes: 42 },
];

/** A passport-like picture, drawn by the browser itself, so the documents on screen look like documents. */
async function specimenPassport(browser: Browser, info: Record<string, unknown>, country: string, number: string): Promise<Buffer> {
  const page = await browser.newPage({ viewport: { width: 600, height: 390 } });
  const esc = (v: unknown) => String(v ?? '').replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const surname = esc(info.lastName).toUpperCase();
  const given = esc([info.firstName, info.middleName].filter(Boolean).join(' ')).toUpperCase();
  const mrz = `P<${country}${surname.replace(/[^A-Z]/g, '')}<<${given.replace(/[^A-Z]/g, '<')}`.padEnd(44, '<').slice(0, 44);
  await page.setContent(`<body style="margin:0;font:13px/1.3 Helvetica,Arial,sans-serif;background:#fff">
    <div style="position:relative;margin:12px;height:366px;border-radius:14px;background:linear-gradient(135deg,#e8eef6,#d9e4ef 60%,#e4ecf4);border:1px solid #9fb1c6;overflow:hidden">
      <div style="padding:12px 18px;font-weight:700;letter-spacing:.12em;color:#2b3f5c">PASSPORT · ${esc(country)}</div>
      <div style="position:absolute;left:18px;top:48px;width:130px;height:165px;border-radius:6px;background:#c9d3df;overflow:hidden">
        <div style="position:absolute;left:38px;top:22px;width:54px;height:64px;border-radius:50%;background:#8d9bb0"></div>
        <div style="position:absolute;left:18px;top:92px;width:94px;height:90px;border-radius:46px 46px 0 0;background:#8d9bb0"></div>
      </div>
      <div style="position:absolute;left:170px;top:48px;right:18px;display:grid;grid-template-columns:1fr 1fr;gap:6px 14px;color:#1c2a3d">
        <div><small style="color:#5a6b82">Surname</small><br><b>${surname}</b></div><div><small style="color:#5a6b82">Passport No.</small><br><b>${esc(number)}</b></div>
        <div><small style="color:#5a6b82">Given names</small><br><b>${given}</b></div><div><small style="color:#5a6b82">Nationality</small><br><b>${esc(info.nationality)}</b></div>
        <div><small style="color:#5a6b82">Date of birth</small><br><b>${esc(info.birthDate)}</b></div><div><small style="color:#5a6b82">Place of birth</small><br><b>${esc(info.countryOfBirth)}</b></div>
        <div><small style="color:#5a6b82">Date of issue</small><br><b>2021-03-15</b></div><div><small style="color:#5a6b82">Date of expiry</small><br><b>2031-03-14</b></div>
      </div>
      <div style="position:absolute;left:150px;top:170px;transform:rotate(-18deg);font-size:44px;font-weight:800;letter-spacing:.2em;color:rgba(180,35,24,.28)">SPECIMEN</div>
      <div style="position:absolute;left:18px;right:18px;bottom:16px;font:15px/1.5 'DejaVu Sans Mono',monospace;letter-spacing:.08em;color:#1c2a3d">${mrz}<br>${esc(number).padEnd(10, '<')}${country}${String(info.birthDate ?? '').replace(/-/g, '').slice(2)}<<<<<<<<<<<<<<<<<<<04</div>
    </div></body>`);
  const png = await page.screenshot({ type: 'png' });
  await page.close();
  return png;
}

/** A utility bill as a real PDF (Chromium prints it), for the proof of address the officer looks at. */
async function specimenBill(browser: Browser, info: Record<string, unknown>): Promise<Buffer> {
  const page = await browser.newPage();
  const address = info.residentialAddress as Record<string, string>;
  const esc = (v: unknown) => String(v ?? '').replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  await page.setContent(`<body style="font:12pt/1.5 Helvetica,Arial,sans-serif;margin:40px 48px;color:#1c2430">
    <div style="display:flex;justify-content:space-between;align-items:center;border-bottom:3px solid #0b5cab;padding-bottom:10px">
      <div style="font-size:22pt;font-weight:700;color:#0b5cab">Bay Area Power &amp; Water</div><div style="text-align:right">Statement date<br><b>2024-05-02</b></div></div>
    <p style="margin-top:28px">${esc(info.firstName)} ${esc(info.middleName ?? '')} ${esc(info.lastName)}<br>${esc(address.streetLine1)} ${esc(address.streetLine2 ?? '')}<br>${esc(address.city)}, CA ${esc(address.postalCode)}</p>
    <h2 style="margin-top:28px">Your monthly statement</h2>
    <table style="width:100%;border-collapse:collapse"><tr><td>Electricity, 412 kWh</td><td style="text-align:right">$118.40</td></tr><tr><td>Water, 9 CCF</td><td style="text-align:right">$46.12</td></tr><tr><td>Taxes and fees</td><td style="text-align:right">$9.87</td></tr>
    <tr style="border-top:1px solid #999;font-weight:700"><td>Amount due by 2024-05-23</td><td style="text-align:right">$174.39</td></tr></table>
    <p style="margin-top:40px;color:#5b6675">Account 4471-2290-18 · SPECIMEN</p></body>`);
  const pdf = await page.pdf({ width: '210mm', height: '297mm' });
  await page.close();
  return pdf;
}

describeInChromium('admin console in Chromium', "the admin console's browser tests are", (backend, browser) => {
  const index = backends().indexOf(backend);
  let server: TestServer;
  let integrators: Record<Applicant['integrator'], SeededIntegrator>;
  let operator: { operatorId: string; name: string; token: string };
  let cases: { userId: string; name: string; passportId: string }[];
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[] = [];

  before(async () => {
    server = await startServer(backend);
    integrators = { acme: await server.seedIntegrator('Acme Pay'), northwind: await server.seedIntegrator('Northwind Wallet') };
    operator = await createOperator(server.database, 'Alice Moreau', server.clock.now());
    // Each case entered review some time ago: the clock is set back for its creation (requests are signed and
    // checked with the same clock), then returns to real time for the browser's part.
    cases = [];
    for (const [i, a] of APPLICANTS.entries()) {
      server.clock.freeze(Date.now() - a.agoMinutes * 60_000);
      const passportCountry = a.passportCountry ?? 'USA';
      const residence = (a.userInfo.residentialAddress as { country: string }).country;
      // Only the first case is opened: it gets documents that look the part, the others the usual fixtures.
      const number = `${passportCountry.slice(0, 1)}${String(48213570 + i * 7919)}`;
      const verificationDocuments =
        i === 0
          ? [
              { documentType: 'passport', issuingCountry: passportCountry, documentNumber: number, document: dataUrl('image/png', await specimenPassport(browser, a.userInfo, passportCountry, number)) },
              { documentType: 'proof_of_address', issuingCountry: residence, document: dataUrl('application/pdf', await specimenBill(browser, a.userInfo)) },
            ]
          : [doc('passport', passportCountry, { documentNumber: number }), doc('proof_of_address', residence)];
      const created = await integrators[a.integrator].client.post('/v1/submit/create-individual-account', {
        userInfo: a.userInfo,
        serviceTermsSignedAt: new Date(server.clock.now().getTime() - 3600_000).toISOString(),
        verificationDocuments,
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.verificationStatus, 'under_review');
      const name = [a.userInfo.firstName, a.userInfo.lastName].join(' ');
      cases.push({ userId: created.body.userId, name, passportId: created.body.verificationDocuments.find((d: DocumentView) => d.documentType === 'passport').documentId });
    }
    server.clock.reset();

    ({ context, page, errors: pageErrors } = await consolePage(browser, { expectedStatuses: [401] }));
  });
  after(async () => {
    await context?.close();
    await server?.close();
  });

  const statusIs = (status: string) => page.locator(`#case-status[data-status="${status}"]`).waitFor({ timeout: LIVE_TIMEOUT });

  it('signs in with a pasted token and lists the under_review queue, longest waiting first', async () => {
    await page.goto(`${server.url}/admin`);
    assert.equal(new URL(page.url()).pathname, '/admin/');
    await page.getByLabel('Operator token').fill('op_not-a-real-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('This token is not accepted').waitFor();

    await page.getByLabel('Operator token').fill(operator.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Signed in as Alice Moreau').waitFor();
    await page.locator('tbody tr[data-subject-id]').nth(APPLICANTS.length - 1).waitFor();
    const names = await page.locator('tbody a.row-link').allTextContents();
    assert.deepEqual(names, cases.map((c) => c.name));
    assert.deepEqual(await page.locator('tbody tr td:nth-child(3)').allTextContents(), APPLICANTS.map((a) => (a.integrator === 'acme' ? 'Acme Pay' : 'Northwind Wallet')));
    assert.equal(await page.locator('#status-filter').inputValue(), '', 'the open cases: every one under review, and any reopened');
    assert.equal(await page.getByRole('button', { name: 'Next →' }).isDisabled(), true, 'one page of 50');
    assert.equal(await page.evaluate(() => sessionStorage.length), 1, 'the token is kept in this tab');

    // The integrator filter narrows the queue; the hash keeps it (deep links, Back).
    await page.getByRole('button', { name: 'Northwind Wallet' }).first().click();
    await page.waitForFunction(() => document.querySelectorAll('tbody tr[data-subject-id]').length === 3);
    assert.match(page.url(), /#\/queue\?integrator=/);
    await page.goBack();
    await page.waitForFunction((n) => document.querySelectorAll('tbody tr[data-subject-id]').length === n, APPLICANTS.length);

    if (UPDATE_SCREENSHOTS && index === 0) {
      mkdirSync('docs/images', { recursive: true });
      await page.screenshot({ path: 'docs/images/admin-queue.png' });
    }
  });

  it('opens a case from the keyboard and renders its documents from blob: URLs', async () => {
    const first = cases[0]!;
    await page.locator('tbody tr.selected a.row-link').waitFor();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    assert.equal(await page.locator('tbody tr[aria-current="true"]').getAttribute('data-subject-id'), cases[1]!.userId);
    await page.keyboard.press('k');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Maria Elena Garcia' }).waitFor();
    assert.equal(new URL(page.url()).hash, `#/case/user/${first.userId}`);
    await statusIs('under_review');

    const passport = page.locator(`.document[data-document-id="${first.passportId}"]`);
    await page.waitForFunction((id) => {
      const img = document.querySelector<HTMLImageElement>(`.document[data-document-id="${id}"] img`);
      return !!img && img.complete && img.naturalWidth > 0;
    }, first.passportId);
    assert.match((await passport.locator('img').getAttribute('src'))!, /^blob:/);
    assert.match((await page.locator('.document[data-document-type="proof_of_address"] iframe').getAttribute('src'))!, /^blob:/);
    // The automated check's warning is on the passport (issued by USA, nationality MEX).
    await passport.getByText('Issued by USA, but the nationality is MEX').waitFor();
    assert.equal(await page.locator('dd', { hasText: '***-**-6789' }).count(), 1, 'the SSN arrives masked');
    assert.deepEqual(
      await Promise.all(['Approve', 'Request resubmission', 'Reject', 'Deactivate', 'Reactivate', 'Reopen'].map((name) => page.getByRole('button', { name }).isEnabled())),
      [true, true, true, false, false, false],
    );
    if (UPDATE_SCREENSHOTS && index === 0) {
      // Chromium's PDF viewer draws in a frame of its own; wait for it so the picture shows the bill.
      const isViewer = (f: Frame) => f.url().startsWith('chrome-extension://');
      const viewer = page.frames().find(isViewer) ?? (await page.waitForEvent('framenavigated', { predicate: isViewer }));
      await viewer.waitForFunction(() => {
        const v = document.querySelector('pdf-viewer') as (HTMLElement & { docLength?: number; docLength_?: number }) | null;
        return (v?.docLength_ ?? v?.docLength ?? 0) > 0;
      });
      await page.screenshot({ path: 'docs/images/admin-case.png' });
    }
  });

  it('requests resubmission of the selected document with a reason (checked client-side first)', async () => {
    const first = cases[0]!;
    await page.getByRole('button', { name: 'Reject' }).click();
    await page.getByText('A reason is required to reject.').waitFor();
    assert.equal(await page.locator('#reason').getAttribute('aria-invalid'), 'true');

    await page.locator(`#resubmit-${first.passportId}`).check();
    await page.getByText('1 document selected for resubmission.').waitFor();
    await page.locator('#reason').press('Escape'); // leave the field so the next key is a shortcut
    await page.keyboard.press('r');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'reason');
    await page.keyboard.type('Passport photo is blurred; the machine-readable zone cannot be read');
    // Ctrl+Enter asks, as every decision that changes the status does: its confirmation, focused; Enter on it decides.
    await page.keyboard.press('Control+Enter');
    await page.getByText('Request a resubmission? The integrator is told at once.').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'confirm-decision');
    assert.equal(await page.locator('#case-status').getAttribute('data-status'), 'under_review', 'nothing decided yet');
    await page.keyboard.press('Enter');
    await statusIs('resubmission_requested');
    await page.getByText('Request resubmission: the case is now resubmission requested.').waitFor();
    await page.locator('.timeline li', { hasText: 'by Compliance officer Alice Moreau' }).getByText('Passport photo is blurred').waitFor();
    await page.locator(`.document[data-document-id="${first.passportId}"]`).getByText('Flagged: Passport photo is blurred').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Approve' }).isDisabled(), true);

    const details = await integrators.acme.client.get(`/v1/query/get-user-details?userId=${first.userId}`);
    assert.equal(details.body.verificationStatus, 'resubmission_requested');
    assert.deepEqual(details.body.verificationDocuments.find((d: DocumentView) => d.documentId === first.passportId).errors, ['Passport photo is blurred; the machine-readable zone cannot be read']);
  });

  it('shows the integrator’s resubmission by live polling, then approves; the integrator sees active and the events', async () => {
    const first = cases[0]!;
    const a = APPLICANTS[0]!;
    const replacement = await specimenPassport(browser, a.userInfo, 'USA', 'U77120455');
    const resubmitted = await integrators.acme.client.patch('/v1/submit/update-user', {
      userId: first.userId,
      verificationDocuments: [{ documentType: 'passport', issuingCountry: 'USA', documentNumber: 'U77120455', document: dataUrl('image/png', replacement) }],
    });
    assert.equal(resubmitted.status, 200, resubmitted.text);
    assert.equal(resubmitted.body.verificationStatus, 'under_review');

    // No reload: the case page's poll picks the change up.
    await statusIs('under_review');
    await page.locator('.document[data-document-type="passport"]', { hasText: 'No. U77120455' }).locator('img').waitFor();
    await page.getByText('Status changed: Under review.').waitFor();

    await page.locator('#reason').press('Escape'); // out of the reason field, where "a" would be typed
    // "a" alone decides nothing: it shows the approval's confirmation, focused; Enter on it approves.
    await page.keyboard.press('a');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'confirm-decision');
    await page.getByText('Approve this case? The integrator is told at once.').waitFor();
    assert.equal(await page.locator('#case-status').getAttribute('data-status'), 'under_review');
    await page.keyboard.press('Enter');
    await statusIs('active');
    assert.equal(await page.getByRole('button', { name: 'Deactivate' }).isEnabled(), true);

    const details = await integrators.acme.client.get(`/v1/query/get-user-details?userId=${first.userId}`);
    assert.equal(details.status, 200);
    assert.equal(details.body.verificationStatus, 'active');
    // The record was created under review (user.created); each later move wrote a status event.
    const changes = (await eventsFor(server.database, first.userId)).filter((e) => e.type === 'user.verification_status.changed');
    assert.deepEqual(
      changes.map((e) => (e.data as EventData<StatusChange>).object.verificationStatus),
      ['resubmission_requested', 'under_review', 'active'],
    );

    // Esc goes back to the queue, which no longer holds the approved case.
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { level: 1, name: 'Review queue' }).waitFor();
    await page.waitForFunction((n) => document.querySelectorAll('tbody tr[data-subject-id]').length === n, APPLICANTS.length - 1);
    assert.ok(!(await page.locator('tbody a.row-link').allTextContents()).includes(first.name));
  });

  it('pages through the queue with the keyset cursor: n / Next forward, p / Previous back through the cursor stack', async () => {
    // Two a page (the address may set 1-100; 50 by default): the five cases still under review make three pages.
    const waiting = cases.slice(1).map((c) => c.name);
    const shown = async (names: string[]) => {
      await page.locator('tbody a.row-link').first().filter({ hasText: names[0]! }).waitFor();
      assert.deepEqual(await page.locator('tbody a.row-link').allTextContents(), names);
    };
    await page.goto(`${server.url}/admin/#/queue?limit=2`);
    await shown(waiting.slice(0, 2));
    await page.keyboard.press('n');
    await shown(waiting.slice(2, 4));
    await page.getByText('Page 2', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Next →' }).click();
    await shown(waiting.slice(4));
    assert.equal(await page.getByRole('button', { name: 'Next →' }).isDisabled(), true);
    await page.keyboard.press('p');
    await shown(waiting.slice(2, 4));
    await page.getByRole('button', { name: '← Previous' }).click();
    await shown(waiting.slice(0, 2));
    assert.equal(await page.getByRole('button', { name: '← Previous' }).isDisabled(), true);
  });

  it('shows the shortcuts with "?", signs out, and logged no error (no CSP violation)', async () => {
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Operator token').waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
    assert.deepEqual(pageErrors, []);
  });
});
