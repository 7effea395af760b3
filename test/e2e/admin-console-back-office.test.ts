import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { eq } from 'drizzle-orm';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { screeningHits } from '../../src/db/schema/index.js';
import { createOperator } from '../../src/domain/operators/operators.js';
import { consolePage, describeInChromium, signInConsole } from '../harness/chromium.js';
import { berliner, californian, doc, signedAt } from '../harness/fixtures.js';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';

// Issue 36, the console as a back office, in headless Chromium against the real server and its sample screening
// list (config/screening/ofac-sample): a reviewer and a supervisor, each in a browser context of their own (the
// supervisor's browser in another time zone). A hit is looked at and dispositioned; a shared SSN links the two cases.
// Issue 51's four-eyes reproduction end to end: an approval waits for every hit's disposition, before the click and
// at the confirmation (a hit raised after the proposal); the button says "Propose approval: needs a supervisor"
// before it is pressed; the confirmation takes a note; the proposer withdraws; the counts of error findings agree
// between the queue, the checks and the case's warning; every time is in UTC and says so.
// Issue 52: each hit explains its score (the words paired, the words left over, each adjustment, the score); a hit
// raised before hits explained themselves says it has no explanation.

// What the functions passed to page.evaluate use (the test project has no DOM library; see admin-console.test.ts).
declare const document: { documentElement: { scrollWidth: number }; querySelectorAll(selector: string): { length: number } & Iterable<{ textContent: string | null }> };

/** Longer than the case page's 3 s poll: the wait for a change another operator made. */
const LIVE_TIMEOUT = 15_000;

type Operator = Awaited<ReturnType<typeof createOperator>>;

describeInChromium('admin console as a back office in Chromium', "the admin console's back-office tests are", (backend, browser) => {
  let server: TestServer;
  let acme: SeededIntegrator;
  let reviewer: Operator;
  let otherReviewer: Operator;
  let supervisor: Operator;
  /** Elena Volkova: the name and birth month of the sample list's entry 90007 (which has a Cyrillic alias). */
  let listed: string;
  /** Wei Min Zhang: the name of entry 90002, which gives no birth date, and another nationality. */
  let namesake: string;
  let sharedSsn: [string, string];
  const contexts: BrowserContext[] = [];
  const errors: string[][] = [];

  const person = async (userInfo: Record<string, unknown>) => {
    const created = await acme.client.post('/v1/submit/create-individual-account', {
      userInfo,
      serviceTermsSignedAt: signedAt(),
      verificationDocuments: [doc('passport', 'DEU'), doc('proof_of_address', 'DEU')],
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.verificationStatus, 'under_review');
    return created.body.userId as string;
  };

  before(async () => {
    server = await startServer(backend);
    acme = await server.seedIntegrator('Acme Pay');
    reviewer = await createOperator(server.database, 'Rita Reviewer', server.clock.now(), 'reviewer');
    otherReviewer = await createOperator(server.database, 'Ravi Reviewer', server.clock.now(), 'reviewer');
    supervisor = await createOperator(server.database, 'Sam Supervisor', server.clock.now(), 'supervisor');
    listed = await person(berliner({ firstName: 'Elena', middleName: 'Sergeyevna', lastName: 'Volkova', birthDate: '1980-07-21', nationality: 'UKR', email: 'elena.volkova@example.de' }));
    namesake = await person(berliner({ firstName: 'Wei Min', lastName: 'Zhang', birthDate: '1992-02-11', email: 'weimin.zhang@example.de' }));
    await explainHits();
    sharedSsn = [
      await person(californian({ firstName: 'Carla', middleName: undefined, lastName: 'Mendes', email: 'carla.mendes@example.com', socialSecurityNumber: '301-55-6789' })),
      await person(californian({ firstName: 'Carl', middleName: undefined, lastName: 'Mendez', email: 'carl.mendez@example.com', socialSecurityNumber: '301-55-6789' })),
    ];
  });
  /**
   * The stored hits as the test needs them, written into the database (the hits are raised by screening, and until
   * the matcher of issue 52 lands the engine records an empty explanation). Wei Min Zhang's gets a stand-in with every
   * part filled, a word left over on each side among them (these names agree word for word, so the matcher would
   * leave none: only the console's rendering is tested here); Elena Volkova's loses its explanation, as a hit raised
   * before hits explained themselves has none.
   */
  async function explainHits(): Promise<void> {
    const db = server.database.db;
    const [zhang] = await db.select().from(screeningHits).where(eq(screeningHits.subjectId, namesake));
    const [volkova] = await db.select().from(screeningHits).where(eq(screeningHits.subjectId, listed));
    assert.ok(zhang && volkova, 'both customers have a hit');
    const nameScore = Number(zhang.details.nameScore);
    const explanation = {
      pairs: [
        { subject: 'zhang', listed: 'zhang', similarity: 1, weight: 0.5 },
        { subject: 'wei', listed: 'wei', similarity: 1, weight: 0.25 },
        { subject: 'min', listed: 'ming', similarity: 0.917, weight: 0.25 },
      ],
      onlySubject: ['jr'],
      onlyListed: ['li'],
      adjustments: [
        { kind: 'extra_words', effect: -0.02, detail: 'one word on each side has no counterpart' },
        { kind: 'country', effect: Number((zhang.score - nameScore).toFixed(3)), detail: 'listed CHN; the customer gives DEU' },
      ],
    };
    await db.update(screeningHits).set({ details: { ...zhang.details, explanation } }).where(eq(screeningHits.id, zhang.id));
    const { explanation: _old, ...unexplained } = volkova.details;
    await db.update(screeningHits).set({ details: unexplained }).where(eq(screeningHits.id, volkova.id));
  }

  after(async () => {
    for (const context of contexts) await context.close();
    await server?.close();
    assert.deepEqual(errors.flat(), [], 'no page logged an error (no CSP violation)');
  });

  async function signIn(operator: Operator, role: string, options: Parameters<typeof consolePage>[1] = {}): Promise<Page> {
    const { context, page, errors: pageErrors } = await consolePage(browser, options);
    contexts.push(context);
    errors.push(pageErrors);
    page.setDefaultNavigationTimeout(30_000); // a loaded machine may take longer than the 10 s default
    await signInConsole(page, server.url, operator);
    assert.equal(await page.locator('#operator-role').textContent(), role);
    return page;
  }
  const openCase = async (page: Page, userId: string, name: string) => {
    await page.goto(`${server.url}/admin/#/case/user/${userId}`);
    await page.getByRole('heading', { level: 1, name }).waitFor();
  };
  const statusIs = (page: Page, status: string) => page.locator(`#case-status[data-status="${status}"]`).waitFor({ timeout: LIVE_TIMEOUT });
  /** The operator API as the console calls it, with one operator's token. */
  const post = async (operator: Operator, path: string, body: unknown = {}) => {
    const res = await fetch(`${server.url}/admin/api${path}`, { method: 'POST', headers: { authorization: `Bearer ${operator.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  let rita: Page, sam: Page;

  it('shows the queue’s flags and filters them: open hits, errors and duplicates, mine, and a search', async () => {
    rita = await signIn(reviewer, 'Reviewer');
    await rita.getByRole('heading', { level: 1, name: 'Review queue' }).waitFor();
    const row = (userId: string) => rita.locator(`tbody tr[data-subject-id="${userId}"]`);
    await row(listed).locator('[data-flag="open_hits"]', { hasText: '1 open hit' }).waitFor();
    await row(namesake).locator('[data-flag="open_hits"]').waitFor();
    await row(sharedSsn[1]).locator('[data-flag="duplicates"]').waitFor();
    assert.equal(await row(listed).locator('td').nth(5).textContent(), 'Unassigned');

    await rita.locator('#flag-filter').selectOption('open_hits');
    assert.match(rita.url(), /flag=open_hits/);
    await rita.waitForFunction(() => document.querySelectorAll('tbody tr[data-subject-id]').length === 2);
    const shown = async () => (await rita.locator('tbody a.row-link').allTextContents()).sort();
    assert.deepEqual(await shown(), ['Elena Volkova', 'Wei Min Zhang']);

    await rita.locator('#flag-filter').selectOption('');
    // The change navigates (the hash), and the queue is mounted again, on hashchange, with new filters: type into
    // those, not into the old ones the mount replaces (on a loaded machine the text once went with them).
    await rita.waitForFunction(() => document.querySelectorAll('tbody tr[data-subject-id]').length > 2);
    await rita.locator('#search-filter').fill('mendez');
    await rita.locator('#search-filter').press('Enter');
    await rita.waitForURL(/q=mendez/);
    await rita.waitForFunction(() => document.querySelectorAll('tbody tr[data-subject-id]').length === 1);
    assert.deepEqual(await shown(), ['Carl Mendez']);

    await rita.locator('#search-filter').fill('');
    await rita.locator('#assignee-filter').selectOption('me');
    await rita.getByText('No open cases claimed by you.').waitFor();
  });

  it('shows a hit beside the customer, and records a false positive with its required note', async () => {
    await openCase(rita, namesake, 'Wei Min Zhang');
    const hit = rita.locator('article.hit').first();
    await hit.getByRole('heading', { name: /OFAC-SAMPLE entry 90002/ }).waitFor();
    await hit.getByText('Programs: SDGT').waitFor();
    assert.match((await hit.locator('tr[data-field="name"]').textContent())!, /ZHANG, Wei Min.*Wei Min Zhang/);
    assert.match((await hit.locator('tr[data-field="country"]').textContent())!, /differs.*CHN.*DEU/);
    assert.match((await hit.locator('tr[data-field="birthDate"]').textContent())!, /not compared.*none given.*11 Feb 1992/);

    // Why it scored what it did: the words paired, those only one side has, each adjustment signed, the score.
    const words = hit.getByRole('table', { name: 'Word by word' });
    const texts = async (rows: Locator) => Promise.all((await rows.all()).map(async (r) => (await r.locator('th, td').allTextContents()).join(' | ')));
    assert.deepEqual(await words.locator('thead th').allTextContents(), ['Customer’s word', 'Listed word', 'Similarity', 'Weight']);
    assert.deepEqual(await texts(words.locator('tbody tr')), [
      'zhang | zhang | 100% | 50%',
      'wei | wei | 100% | 25%',
      'min | ming | 92% | 25%',
      'jr | none | only the customer’s name has it',
      'none | li | only the listed name has it',
    ]);
    const adjustments = hit.getByRole('table', { name: 'What raised or lowered the score' });
    const shown = await texts(adjustments.locator('tbody tr'));
    assert.equal(shown[0], 'Words only one side has | \u22120.020 | one word on each side has no counterpart');
    assert.match(shown[1]!, /^Country \| [+\u2212]?0\.\d{3} \| listed CHN; the customer gives DEU$/);
    assert.match((await texts(adjustments.locator('tfoot tr')))[0]!, /^Score \| 0\.\d{3} \| the name alone (0|1)\.\d{3}$/);

    await hit.getByRole('button', { name: 'False positive' }).click();
    await hit.getByText('A note is required to mark this hit false positive.').waitFor();
    await hit.getByLabel(/Note/).fill('Born 1992 in Hamburg, German passport; the listed Zhang Wei Min is a Chinese national');
    await hit.getByRole('button', { name: 'False positive' }).click();
    await rita.getByText('Hit on OFAC-SAMPLE entry 90002 marked false positive.').waitFor();
    const settled = rita.locator('article.hit[data-status="false_positive"]');
    await settled.getByText(/False positive by Rita Reviewer, .* UTC: /).waitFor();
    await settled.getByText('Born 1992 in Hamburg').waitFor();
    await rita.locator('.timeline li[data-kind="hit_dispositioned"]').waitFor();
    assert.match((await rita.locator('.timeline time').first().textContent())!, / UTC$/);
    // Nothing open any more, but Rita found the hit false: the approval is another operator's, and the button
    // says so before it is pressed.
    const approve = rita.locator('button[data-decision="approve"]');
    await rita.locator('button[data-decision="approve"][data-path="proposal"]').waitFor();
    assert.equal((await approve.textContent())?.replace(/a$/, ''), 'Propose approval: needs a supervisor');
    await rita.getByRole('heading', { level: 1 }).focus();
    await rita.keyboard.press('a');
    await rita.getByText('A second operator must confirm this approval: you marked OFAC-SAMPLE entry 90002 a false positive.', { exact: false }).waitFor();
    await rita.keyboard.press('Escape');
    await statusIs(rita, 'under_review');
  });

  it('links a shared SSN to the other case', async () => {
    await openCase(rita, sharedSsn[1], 'Carl Mendez');
    await rita.getByRole('link', { name: 'Carla Mendes' }).click();
    await rita.getByRole('heading', { level: 1, name: 'Carla Mendes' }).waitFor();
    assert.equal(new URL(rita.url()).hash, `#/case/user/${sharedSsn[0]}`);
  });

  it('a reviewer cannot approve or propose over an open hit; once she marks it false, the button says it needs a supervisor, and she proposes', async () => {
    await openCase(rita, listed, 'Elena Sergeyevna Volkova');
    const hit = rita.locator('article.hit[data-status="open"]');
    await hit.getByRole('heading', { name: /OFAC-SAMPLE entry 90007/ }).waitFor();
    assert.match((await hit.locator('tr[data-field="birthDate"]').textContent())!, /agrees/);
    await hit.locator('[data-explanation="none"]').getByText('No explanation: this hit was raised before hits recorded why they scored what they did.').waitFor();
    assert.equal(await hit.getByRole('table', { name: 'Word by word' }).count(), 0);

    await rita.getByRole('button', { name: 'Claim' }).click();
    await rita.getByText('Claimed by you.').waitFor();
    await rita.getByLabel('Add a note').fill('Called the customer: born in Minsk, in Berlin since 2004');
    await rita.getByRole('button', { name: 'Add note' }).click();
    await rita.locator('.timeline li[data-kind="note"]', { hasText: 'Called the customer' }).waitFor();

    // Before any click: no approval while the hit waits for its disposition, and the page says why.
    const approve = rita.locator('button[data-decision="approve"]');
    await rita.locator('button[data-decision="approve"][data-path="dispositions_first"]').waitFor();
    assert.equal(await approve.isDisabled(), true);
    await rita.getByText('Approve waits for every screening hit’s disposition: 1 screening hit has no disposition (OFAC-SAMPLE entry 90007).', { exact: false }).waitFor();
    await rita.getByRole('heading', { level: 1 }).focus();
    await rita.keyboard.press('a');
    assert.equal(await rita.locator('#confirm-decision').isVisible(), false, 'a press of a offers nothing');

    await hit.getByLabel(/Note/).fill('Born in Minsk in 1980, Ukrainian passport; the listed Volkova is a Belarusian official');
    await hit.getByRole('button', { name: 'False positive' }).click();
    await rita.locator('article.hit[data-status="false_positive"]').waitFor();
    // Now the button itself says where the approval goes, before it is pressed.
    await rita.locator('button[data-decision="approve"][data-path="proposal"]').waitFor();
    assert.equal((await approve.textContent())?.replace(/a$/, ''), 'Propose approval: needs a supervisor');
    await rita.getByRole('heading', { level: 1 }).focus();
    await rita.keyboard.press('a');
    await rita.getByText(/A second operator must confirm this approval: the case has 1 error finding \(watchlist_match\)|A second operator must confirm this approval: you marked OFAC-SAMPLE entry 90007 a false positive/).waitFor();
    await rita.getByRole('button', { name: 'Propose approval', exact: true }).click();
    await rita.getByText('A note is required to propose approval.').waitFor();
    await rita.locator('#reason').fill('Same name and birth date, but the passport and the residence history say another woman');
    await rita.getByRole('button', { name: 'Propose approval', exact: true }).click();
    await rita.getByText('Approve proposed: a supervisor confirms or overturns it.').waitFor();
    const proposal = rita.locator('section.proposal');
    await proposal.getByText('Rita Reviewer proposed: Approve').waitFor();
    await proposal.getByText('You proposed this: a supervisor other than you confirms or overturns it, or you withdraw it.').waitFor();
    assert.equal(await proposal.getByRole('button', { name: /Confirm/ }).count(), 0, 'no confirmation offered to the proposer');
    await proposal.getByRole('button', { name: 'Withdraw proposal' }).waitFor();
    assert.equal(await approve.isDisabled(), true);
    await statusIs(rita, 'under_review');
  });

  it('refuses the confirmation to a reviewer, the proposer or another, and the overturn too', async () => {
    for (const [who, codes] of [
      [reviewer, ['supervisor_required', 'four_eyes_same_operator']],
      [otherReviewer, ['supervisor_required']],
    ] as const) {
      const confirm = await post(who, `/reviews/user/${listed}/proposal/confirm`, { note: 'fine' });
      assert.equal(confirm.status, 403, JSON.stringify(confirm.body));
      assert.ok((codes as readonly string[]).includes(String(confirm.body.code)), String(confirm.body.code));
      const overturn = await post(who, `/reviews/user/${listed}/proposal/overturn`, { note: 'no' });
      assert.equal(overturn.status, 403);
    }
    const direct = await post(otherReviewer, `/reviews/user/${listed}/decisions`, { decision: 'approve' });
    assert.equal(direct.status, 409);
    const withdraw = await post(otherReviewer, `/reviews/user/${listed}/proposal/withdraw`);
    assert.deepEqual([withdraw.status, withdraw.body.code], [403, 'not_the_proposer']);
    const onReviewerPage = await post(reviewer, `/reviews/user/${listed}/proposal`, { decision: 'approve', reasons: ['again'] });
    assert.equal(onReviewerPage.status, 409);
    assert.equal(onReviewerPage.body.code, 'proposal_pending');
  });

  it('a hit raised after the proposal holds the confirmation back; once decided, the supervisor confirms with a note in another browser', async () => {
    // The supervisor's browser is in India: the console's times do not move with it.
    sam = await signIn(supervisor, 'Supervisor', { timezoneId: 'Asia/Kolkata', expectedStatuses: [409] });
    // The integrator changes the nationality while the proposal waits: the listed entry is looked at again.
    server.clock.advance(1000);
    const changed = await acme.client.patch('/v1/submit/update-user', { userId: listed, userInfo: { nationality: 'POL' } });
    assert.equal(changed.status, 200, changed.text);
    await sam.locator('#flag-filter').selectOption('proposal_pending');
    const row = sam.locator(`tbody tr[data-subject-id="${listed}"]`);
    await row.locator('[data-flag="proposal_pending"]', { hasText: 'Awaiting confirmation' }).waitFor();
    assert.equal(await row.locator('td').nth(5).textContent(), 'Rita Reviewer');
    await row.getByRole('link').click();
    await sam.getByRole('heading', { level: 1, name: 'Elena Sergeyevna Volkova' }).waitFor();
    const proposal = sam.locator('section.proposal');
    await proposal.getByText('Same name and birth date, but the passport').waitFor();
    await proposal.getByText('As a supervisor, you confirm it').waitFor();
    // One click with no note is not a confirmation.
    await proposal.getByRole('button', { name: 'Confirm: approve' }).click();
    await proposal.getByText('A note is required to confirm the proposal.').waitFor();
    await proposal.getByLabel(/Note \(required/).fill('The passport and the residence history are convincing');
    await proposal.getByRole('button', { name: 'Confirm: approve' }).click();
    await proposal.locator('.problem', { hasText: /1 screening hit has no disposition \(OFAC-SAMPLE entry 90007\).*then confirm the proposal/ }).waitFor();
    await statusIs(sam, 'under_review');
    const fresh = sam.locator('article.hit[data-status="open"]');
    await fresh.waitFor();

    // Rita decides the new hit (Sam, who would confirm, leaves it to her: a disposer does not approve).
    await rita.locator('article.hit[data-status="open"]').waitFor({ timeout: LIVE_TIMEOUT });
    await rita.locator('article.hit[data-status="open"]').getByLabel(/Note/).fill('Polish citizenship since 2020 noted; still not the listed official');
    await rita.locator('article.hit[data-status="open"]').getByRole('button', { name: 'False positive' }).click();
    await fresh.waitFor({ state: 'detached', timeout: LIVE_TIMEOUT });
    await proposal.getByRole('button', { name: 'Confirm: approve' }).click();
    await statusIs(sam, 'active');
    await sam.getByText('Proposal confirmed: the case is now active.').waitFor();
    await sam.locator('.timeline li[data-kind="confirmed"]').waitFor();

    await sam.locator('.timeline li[data-kind="confirmed"]', { hasText: 'The passport and the residence history are convincing' }).waitFor();

    // The reviewer's page follows by itself.
    await statusIs(rita, 'active');
    await rita.locator('section.proposal').waitFor({ state: 'hidden' });
    const details = await acme.client.get(`/v1/query/get-user-details?userId=${listed}`);
    assert.equal(details.body.verificationStatus, 'active');
    // Active, and no hit left undecided.
    const c = await fetch(`${server.url}/admin/api/reviews/user/${listed}`, { headers: { authorization: `Bearer ${supervisor.token}` } }).then((r) => r.json() as Promise<{ hits: { status: string }[] }>);
    assert.deepEqual(c.hits.map((h) => h.status), ['false_positive', 'false_positive']);
  });

  it('shows every time in UTC, labelled, the same in a browser in London and one in India', async () => {
    // Every time on the case: the record's own (createdAt, updatedAt), the hits', the timeline's.
    const times = (page: Page) => page.evaluate(() => [...document.querySelectorAll('main time')].map((t) => t.textContent ?? ''));
    await openCase(rita, listed, 'Elena Sergeyevna Volkova');
    await rita.locator('.timeline li[data-kind="confirmed"]').waitFor();
    await sam.locator('.timeline li[data-kind="confirmed"]').waitFor();
    const [london, india] = [await times(rita), await times(sam)];
    assert.ok(london.length >= 8, london.join(' | '));
    for (const t of london) assert.match(t, /^\d{1,2} \w{3,4} \d{4}, \d{2}:\d{2} UTC$/);
    assert.deepEqual(india, london);
    await sam.goto(`${server.url}/admin/`);
    await sam.getByText(/^Updated \d{2}:\d{2}:\d{2} UTC$/).waitFor();
  });

  it('an approval over a shared SSN (an error finding) is proposed, and the supervisor overturns it with a note', async () => {
    await openCase(rita, sharedSsn[1], 'Carl Mendez');
    await rita.getByRole('button', { name: 'Propose approval: needs a supervisor' }).click();
    await rita.getByText('A second operator must confirm this approval: the case has 1 error finding (ssn_shared).', { exact: false }).waitFor();
    await rita.locator('#reason').fill('Twins: the SSN card of each was checked');
    await rita.locator('#reason').press('Control+Enter');
    await rita.locator('section.proposal').getByText('Rita Reviewer proposed: Approve').waitFor();

    await openCase(sam, sharedSsn[1], 'Carl Mendez');
    await sam.getByRole('button', { name: 'Overturn' }).click();
    await sam.getByText('A note is required to overturn the proposal.').waitFor();
    await sam.getByLabel(/Note \(required/).fill('Twins do not share an SSN: ask for the card');
    await sam.getByRole('button', { name: 'Overturn' }).click();
    await sam.getByText('Proposal overturned: the decision was not made.').waitFor();
    await sam.locator('.timeline li[data-kind="overturned"]', { hasText: 'Twins do not share an SSN' }).waitFor();
    await rita.locator('section.proposal').waitFor({ state: 'hidden', timeout: LIVE_TIMEOUT });
    await statusIs(rita, 'under_review');
  });

  it('counts error findings alike in the queue, the checks and the case’s warning; the proposer withdraws her proposal', async () => {
    // On the list and sharing Carla's SSN: a watch-list error and a shared-SSN error.
    const maria = await person(californian({ firstName: 'Maria', middleName: 'Fernanda', lastName: 'Sanctioned', birthDate: '1975-03-02', email: 'maria.sanctioned@example.com', socialSecurityNumber: '301-55-6789' }));
    const hitId = (await fetch(`${server.url}/admin/api/reviews/user/${maria}`, { headers: { authorization: `Bearer ${reviewer.token}` } }).then((r) => r.json() as Promise<{ hits: { hitId: string }[] }>)).hits[0]!.hitId;
    assert.equal((await post(otherReviewer, `/screening-hits/${hitId}/disposition`, { disposition: 'true_match', note: 'the same person' })).status, 200);

    await rita.goto(`${server.url}/admin/#/queue?q=maria.sanctioned`);
    const row = rita.locator(`tbody tr[data-subject-id="${maria}"]`);
    await row.locator('[data-flag="error_findings"]', { hasText: '2 errors' }).waitFor();
    await openCase(rita, maria, 'Maria Fernanda Sanctioned');
    assert.equal(await rita.locator('ul.findings li.note-error').count(), 2);
    await rita.getByRole('button', { name: 'Propose approval: needs a supervisor' }).click();
    await rita.getByText(/the case has 1 screening hit marked a true match \(OFAC-SAMPLE entry 90003\) and 2 error findings \(ssn_shared, watchlist_match\)/).waitFor();

    await rita.locator('#reason').fill('Licensed by OFAC: the licence is on file');
    await rita.getByRole('button', { name: 'Propose approval', exact: true }).click();
    const proposal = rita.locator('section.proposal');
    await proposal.getByRole('button', { name: 'Withdraw proposal' }).click();
    await rita.getByText('Proposal withdrawn: the case can be decided or proposed again.').waitFor();
    await proposal.waitFor({ state: 'hidden' });
    await rita.locator('.timeline li[data-kind="withdrawn"]', { hasText: 'Rita Reviewer withdrew the proposal to approve' }).waitFor();
    assert.equal(await rita.locator('button[data-decision="reject"]').isDisabled(), false, 'the case can be decided again');
  });

  it('fits a 390 px phone with the hits, the proposal and the timeline on the case', async () => {
    await sam.setViewportSize({ width: 390, height: 844 });
    await openCase(sam, namesake, 'Wei Min Zhang');
    await sam.locator('article.hit').first().waitFor();
    const width = await sam.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `the case is ${width} px wide`);
  });
});
