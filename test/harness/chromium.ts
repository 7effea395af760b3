import { existsSync } from 'node:fs';
import { after, before, describe } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { backends, type Backend } from './backends.js';
import { later } from './later.js';

/** Debian's chromium package: Playwright never downloads a browser here. */
export const CHROMIUM = '/usr/bin/chromium';
const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** Generous, for a loaded CI machine: waits end as soon as the page is ready, and only a failure waits this long. */
export const TIMEOUT = 10_000;
/**
 * For /docs: swagger-ui renders the whole document (about 500 KB) on the page's one thread, about 5 s of CPU on an
 * idle 2-core machine; a loaded CI run once needed more than 30 s (stop 48), so a failure waits 90 s instead.
 */
export const DOCS_TIMEOUT = 90_000;

/**
 * Whether the browser tests of `what` must be skipped: true, with a warning nobody can miss, when chromium is not
 * installed; with REQUIRE_CHROMIUM=1 (CI) a missing browser is an error instead of a skip.
 */
export function chromiumMissing(what: string): boolean {
  if (existsSync(CHROMIUM)) return false;
  if (process.env.REQUIRE_CHROMIUM === '1') throw new Error(`REQUIRE_CHROMIUM=1 but ${CHROMIUM} is missing: apt-get install chromium`);
  console.warn(`\n!!! ${CHROMIUM} is missing: ${what} SKIPPED (apt-get install chromium; CI sets REQUIRE_CHROMIUM=1) !!!\n`);
  return true;
}

let shared: Promise<Browser> | undefined;

/**
 * The test process's Chromium, launched on first use and closed when the process's last test has run: a launch
 * costs about 3 s of CPU, and the files sharing a process each asked for one. Each caller gets a handle of its own
 * whose `close()` closes the contexts and pages it opened, so nothing one file opened (cookies, storage, virtual
 * authenticators: all per context) outlives it or reaches the next.
 */
export async function launchChromium(): Promise<Browser> {
  if (!shared || !(await shared.catch(() => undefined))?.isConnected()) {
    shared = chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  }
  return ownHandle(await shared);
}
// Registered as this module loads, with the test files: a hook of the process's root test, so it runs after the
// last test of every file the process runs, not after the suite that launched the browser.
after(async () => (await shared?.catch(() => undefined))?.close());

function ownHandle(browser: Browser): Browser {
  const contexts = new Set<BrowserContext>();
  const track = (context: BrowserContext) => {
    contexts.add(context);
    context.once('close', () => contexts.delete(context));
    return context;
  };
  return new Proxy(browser, {
    get(target, property) {
      if (property === 'newContext') return async (...args: Parameters<Browser['newContext']>) => track(await target.newContext(...args));
      if (property === 'newPage') {
        return async (...args: Parameters<Browser['newPage']>) => {
          const page = await target.newPage(...args);
          track(page.context());
          return page;
        };
      }
      if (property === 'close') return async () => void (await Promise.all([...contexts].map((context) => context.close())));
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * A page of the operators' console: a fixed viewport, locale and time zone (screenshots and formats do not move;
 * `timezoneId` puts the browser elsewhere, for a test that the console's times do not depend on it),
 * the default timeout, and every error the page logs collected in `errors`. Those include Content-Security-Policy
 * violations, which must not happen; Chromium also logs each 4xx answer, so the statuses a test provokes on purpose
 * are left out.
 */
export async function consolePage(browser: Browser, options: { expectedStatuses?: number[]; timezoneId?: string } = {}): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, deviceScaleFactor: 1, locale: 'en-GB', timezoneId: options.timezoneId ?? 'Europe/London' });
  context.setDefaultTimeout(TIMEOUT);
  const page = await context.newPage();
  const errors: string[] = [];
  const expected = (options.expectedStatuses ?? []).map((status) => `Failed to load resource: the server responded with a status of ${status}`);
  page.on('console', (message) => {
    if (message.type() === 'error' && !expected.some((text) => message.text().includes(text))) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  return { context, page, errors };
}

/**
 * A browser test file's suite: `title`, skipped (with chromiumMissing's warning about `what`) when there is no
 * Chromium, the process's browser taken before its first test and this suite's pages closed after its last, and
 * `body` once per backend (backends(), or `options.backends`) inside a `[backend]` suite of its own. `browser` is
 * that suite's handle, usable from the suite's hooks and tests on (later.ts).
 */
export function describeInChromium(title: string, what: string, body: (backend: Backend, browser: Browser) => void, options: { backends?: Backend[] } = {}): void {
  const skip = chromiumMissing(what);
  describe(title, { skip: skip ? `${CHROMIUM} is missing` : false }, () => {
    const browser = later<Browser>("the suite's browser");
    let handle: Browser | undefined;
    before(async () => {
      handle = await launchChromium();
      browser.set(handle);
    });
    after(() => handle?.close());
    for (const backend of options.backends ?? backends()) describe(`[${backend}]`, () => body(backend, browser.value));
  });
}

/**
 * A consolePage signed in to the console at `baseUrl` with `operator`'s token, as an operator does it: the token
 * pasted into the sign-in form, and the header naming them.
 */
export async function signedInConsole(
  browser: Browser,
  baseUrl: string,
  operator: { token: string; name: string },
  options: Parameters<typeof consolePage>[1] & { viewport?: { width: number; height: number } } = {},
): Promise<Awaited<ReturnType<typeof consolePage>>> {
  const opened = await consolePage(browser, options);
  if (options.viewport) await opened.page.setViewportSize(options.viewport);
  opened.page.setDefaultNavigationTimeout(30_000); // a loaded machine may take longer than the 10 s default
  await signInConsole(opened.page, baseUrl, operator);
  return opened;
}

/** Signs `page` in to the console at `baseUrl` with `operator`'s token, and waits for the header to name them. */
export async function signInConsole(page: Page, baseUrl: string, operator: { token: string; name: string }): Promise<void> {
  await page.goto(`${baseUrl}/admin/`);
  await page.getByLabel('Operator token').fill(operator.token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText(`Signed in as ${operator.name}`).waitFor();
}
