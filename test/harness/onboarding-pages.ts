import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { LooseJson } from './client.js';
import { activate, assertFitsPhone, fillByKeyboard, interceptFileChoosers, tabTo } from './keyboard.js';
import { linkView, makeLink, type MadeLink } from './onboarding-flow.js';
import type { SeededIntegrator, TestServer } from './server.js';
import { authenticatorPage } from './wallet-page.js';

/*
 * The hosted onboarding flow in Chromium as a customer on a phone goes through it (docs/onboarding-links.md#the-hosted-flow):
 * a 390 px viewport, every control reached by Tab (keyboard.ts), a CDP virtual authenticator for the passkey. The
 * steps every flow shares (the link opened, the terms, a form whose country comes first, the passkey and the last page,
 * the customer the API shows after it), for the individual and the entity browser suites.
 */

export const PHONE = { width: 390, height: 844 };

/**
 * A link `who` makes with `body`, opened in a phone-sized page with a virtual authenticator (file choosers
 * intercepted, for attach): its first page answered 200 and fits the phone. `errors` collects the page's console
 * errors. The server is reached as localhost, the sandbox's relying party.
 */
export async function openLinkOnPhone(browser: Browser, server: TestServer, who: SeededIntegrator, body: Record<string, unknown>): Promise<{ link: MadeLink; page: Page; errors: string[] }> {
  const link = await makeLink(server, who, body);
  const { page, errors } = await authenticatorPage(browser);
  await page.setViewportSize(PHONE);
  interceptFileChoosers(page);
  const response = await page.goto(`${server.url.replace('127.0.0.1', 'localhost')}${link.path}`);
  assert.equal(response?.status(), 200);
  await assertFitsPhone(page);
  return { link, page, errors };
}

/** The terms step: its box ticked with Space, then continue. */
export async function acceptTerms(page: Page): Promise<void> {
  assert.match(page.url(), /\/terms$/);
  await tabTo(page, '#acceptTerms');
  await page.keyboard.press('Space');
  await activate(page, '#continue');
}

/**
 * A form whose fields depend on a country (an address's): `country` chosen in `countryField` and sent for the form of
 * that country, then `fields` filled in, by keyboard; the form fits the phone. Nothing is sent after them.
 */
export async function fillForCountry(page: Page, countryField: string, country: string, fields: [string, string][]): Promise<void> {
  await fillByKeyboard(page, [[countryField, country]]);
  await activate(page, '#choose-country');
  await fillByKeyboard(page, fields);
  await assertFitsPhone(page);
}

/** A person as the details form (and the company's persons form) takes them by keyboard: a select by its option's text, a date by its digits (MMDDYYYY). */
export interface TypedPerson {
  /** Of residence: chosen first (fillForCountry). */
  country: string;
  firstName: string;
  lastName: string;
  /** The persons form asks it; the details form has the link's. */
  email?: string;
  birthDate: string;
  nationality: string;
  street: string;
  city: string;
  postalCode: string;
}

/** A person's form filled in, in its order (the country first), then `more` of its fields; nothing is sent. */
export async function fillPerson(page: Page, person: TypedPerson, more: [string, string][] = []): Promise<void> {
  const email: [string, string][] = person.email === undefined ? [] : [['email', person.email]];
  const address: [string, string][] = [
    ['residentialAddress.streetLine1', person.street],
    ['residentialAddress.city', person.city],
    ['residentialAddress.postalCode', person.postalCode],
  ];
  const named: [string, string][] = [['firstName', person.firstName], ['lastName', person.lastName], ...email, ['birthDate', person.birthDate], ['nationality', person.nationality]];
  await fillForCountry(page, 'residentialAddress.country', person.country, [...named, ...address, ...more]);
}

/** The passkey step, made by the browser's authenticator, and the last page: done, linking back to `redirectUrl`. */
export async function finishWithPasskey(page: Page, redirectUrl: string): Promise<void> {
  assert.match(page.url(), /\/passkey$/);
  await assertFitsPhone(page);
  await activate(page, '#continue');
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'You are done');
  await assertFitsPhone(page);
  assert.equal(await page.locator('#return').getAttribute('href'), redirectUrl);
}

/** The link `id` completed, and the details of the user it completed for (get-user-details). */
export async function completedLinkUser(server: TestServer, who: SeededIntegrator, id: string): Promise<LooseJson> {
  const view = await linkView(server, who, id);
  assert.equal(view.status, 'completed');
  server.clock.advance(1000);
  const res = await who.client.get(`/v1/query/get-user-details?userId=${String(view.userId)}`);
  assert.equal(res.status, 200, res.text);
  return res.body;
}
