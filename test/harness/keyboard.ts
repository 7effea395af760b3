import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

// A hosted page driven by keyboard only (issue 57: every control reached by Tab and working by keyboard): Tab until
// the control is focused, then type, Space or Enter; a <select> by type-ahead of its option's text.

/** Presses Tab until the element matching `selector` has focus (at most `limit` presses). */
export async function tabTo(page: Page, selector: string, limit = 80): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if ((await page.locator(`${selector}:focus`).count()) > 0) return;
  }
  assert.fail(`${selector} was not reached by Tab`);
}

const byName = (name: string) => `[name="${name}"]:not([type="hidden"])`;

/** Fills text inputs and chooses options of selects by their names, in the page's order, by keyboard. */
export async function fillByKeyboard(page: Page, values: [string, string][]): Promise<void> {
  for (const [name, value] of values) {
    await tabTo(page, byName(name));
    const tag = await page.evaluate('document.activeElement?.tagName');
    if (tag === 'SELECT') {
      await page.keyboard.type(value);
      const chosen = String(await page.evaluate("document.activeElement.selectedOptions[0]?.textContent ?? ''"));
      assert.ok(chosen.startsWith(value), `${name}: typing "${value}" chose "${chosen}"`);
    } else {
      await page.keyboard.press('Control+A');
      await page.keyboard.type(value);
    }
  }
}

/** Tab to a button or link and press Enter; waits for the page it leads to. */
export async function activate(page: Page, selector: string): Promise<void> {
  await tabTo(page, selector);
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
}

/** The page fits a 390 px phone: nothing wider than the viewport. */
export async function assertFitsPhone(page: Page): Promise<void> {
  const width = Number(await page.evaluate('document.documentElement.scrollWidth'));
  assert.ok(width <= 390, `${page.url().replace(/obl_[A-Za-z0-9_-]+/, 'obl_…')} is ${width} px wide`);
}

/**
 * Has the page's file choosers intercepted from now on: Playwright turns interception on when a listener is first
 * added, asynchronously, so a chooser opened right after the first waitForEvent could still reach the system dialog.
 * Call it once on the page before `attach`.
 */
export function interceptFileChoosers(page: Page): void {
  page.on('filechooser', () => undefined);
}

/** Tabs to a file input, opens its chooser with Space and picks the file in it (interceptFileChoosers first). */
export async function attach(page: Page, name: string, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  await tabTo(page, byName(name));
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
  await chooser.setFiles(file);
}
