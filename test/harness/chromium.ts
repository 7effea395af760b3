import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium package: Playwright never downloads a browser here. */
export const CHROMIUM = '/usr/bin/chromium';
const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** Generous, for a loaded CI machine: waits end as soon as the page is ready, and only a failure waits this long. */
export const TIMEOUT = 10_000;

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

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
}

/**
 * A page of the operators' console: a fixed viewport, locale and time zone (screenshots and formats do not move),
 * the default timeout, and every error the page logs collected in `errors`. Those include Content-Security-Policy
 * violations, which must not happen; Chromium also logs each 4xx answer, so the statuses a test provokes on purpose
 * are left out.
 */
export async function consolePage(browser: Browser, options: { expectedStatuses?: number[] } = {}): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, deviceScaleFactor: 1, locale: 'en-GB', timezoneId: 'Europe/London' });
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
