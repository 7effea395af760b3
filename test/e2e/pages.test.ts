import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { API_VERSION } from '../../src/version.js';
import { consolePage, describeInChromium, DOCS_TIMEOUT } from '../harness/chromium.js';
import { startServer, type TestServer } from '../harness/server.js';

// The front door, the HTML 404, the guides' order and /docs' chrome in a real headless Chromium (docs/pages.md). Every
// page's CSP holds throughout: a violation is a console error, and each test ends with none.

declare const document: { documentElement: { scrollWidth: number }; querySelector(s: string): { getAttribute(n: string): string | null } | null };

// The pages do not read the database: PGlite alone.
describeInChromium('pages in Chromium', 'the pages browser test is', (backend, browser) => {
  let server: TestServer;

  before(async () => {
    server = await startServer(backend);
  });
  after(() => server?.close());

  it('the front page says what the server is, its version and environment, and its links lead to the pages', async () => {
    const { context, page, errors } = await consolePage(browser);
    const response = await page.goto(`${server.url}/`);
    assert.equal(response?.status(), 200);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Integrator API');
    assert.match((await page.locator('#version').textContent()) ?? '', new RegExp(`Version ${API_VERSION.replace(/\./g, '\\.')}\\s+·\\s+sandbox`));
    const main = page.locator('dl');
    for (const [name, href] of [
      ['Quickstart', '/guides/quickstart'],
      ['API reference', '/docs'],
      ['Guides', '/guides'],
      ['Admin console', '/admin'],
      ['/livez', '/livez'],
      ['/readyz', '/readyz'],
    ] as const) {
      assert.equal(await main.getByRole('link', { name, exact: true }).getAttribute('href'), href, name);
    }
    // Each link answers: the probes and the guides here; /docs and /admin are opened below or by their own tests.
    for (const path of ['/livez', '/readyz', '/guides', '/guides/quickstart']) {
      assert.equal((await page.request.get(`${server.url}${path}`)).status(), 200, path);
    }
    await main.getByRole('link', { name: 'Guides', exact: true }).click();
    await page.waitForURL(`${server.url}/guides`);
    // A phone's width: the page fits it (the viewport meta and the layout).
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(`${server.url}/`);
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390, 'no horizontal scroll at 390 px');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('an unknown page is the HTML 404, with a way back to the front page', async () => {
    const { context, page, errors } = await consolePage(browser, { expectedStatuses: [404] });
    const response = await page.goto(`${server.url}/no/such/page?x=1`);
    assert.equal(response?.status(), 404);
    assert.match(response?.headers()['content-type'] ?? '', /^text\/html/);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Page not found');
    assert.equal(await page.locator('main, body').first().locator('code').first().textContent(), '/no/such/page');
    await page.getByRole('link', { name: 'The front page' }).click();
    await page.waitForURL(`${server.url}/`);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Integrator API');
    // An unknown guide, followed from a bookmark, is the same page.
    assert.equal((await page.goto(`${server.url}/guides/no-such-guide`))?.status(), 404);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Page not found');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('the guides are grouped, Start here first with Quickstart first in it, titles without backticks', async () => {
    const { context, page, errors } = await consolePage(browser);
    await page.goto(`${server.url}/guides`);
    assert.deepEqual(await page.getByRole('heading', { level: 2 }).allTextContents(), ['Start here', 'Integrate', 'Operate', 'Internals']);
    const first = page.locator('section').first();
    const quickstart = first.getByRole('listitem').first().getByRole('link');
    assert.equal(await quickstart.getAttribute('href'), '/guides/quickstart');
    assert.equal(await quickstart.locator('code').first().textContent(), 'npm ci');
    assert.doesNotMatch(await page.locator('body').innerText(), /`/);
    await quickstart.click();
    await page.waitForURL(`${server.url}/guides/quickstart`);
    assert.doesNotMatch(await page.title(), /`/);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('/docs has the product name in its bar, a viewport, and no Authorize dialog: a link to the signing panel instead', async () => {
    const { context, page, errors } = await consolePage(browser);
    context.setDefaultTimeout(DOCS_TIMEOUT);
    await page.goto(`${server.url}/docs`);
    await page.locator('[id="operations-Integrator_key_management-whoami"]').waitFor();
    assert.equal(await page.locator('header.docs-bar a.docs-product').textContent(), 'Integrator API');
    assert.equal(await page.locator('.topbar').count(), 0, "swagger-ui's top bar is gone");
    assert.equal(await page.evaluate(() => document.querySelector('meta[name="viewport"]')?.getAttribute('content') ?? null), 'width=device-width, initial-scale=1');
    assert.equal(await page.getByRole('button', { name: /authorize/i }).count(), 0);
    assert.equal(await page.locator('.auth-wrapper button, .authorization__btn').count(), 0, 'no lock buttons on the operations');
    const pointer = page.locator('a.docs-sign-link');
    assert.equal(await pointer.getAttribute('href'), '#docs-signing');
    assert.equal(await page.locator('#docs-signing').count(), 1, 'the panel it points to');
    assert.deepEqual(errors, []);
    await context.close();
  });
}, { backends: ['pglite'] });
