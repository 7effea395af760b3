import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Page } from 'playwright-core';
import { describeInChromium } from '../harness/chromium.js';
import { pdf, png } from '../harness/fixtures.js';
import { activate, assertFitsPhone, attach, tabTo } from '../harness/keyboard.js';
import { refusedIdentityCustomer } from '../harness/onboarding-flow.js';
import { acceptTerms, completedLinkUser, fillPerson, finishWithPasskey, openLinkOnPhone } from '../harness/onboarding-pages.js';
import { useTenants } from '../harness/tenants.js';

// The hosted flow of a new individual in a real browser (docs/onboarding-links.md#the-hosted-flow): a 390 px viewport,
// every control reached by Tab and used by keyboard (files through the chooser Space opens), a CDP virtual
// authenticator for the passkey; then what the API shows. And a resubmission of one refused document.

const focusedId = (page: Page) => page.evaluate('document.activeElement?.id');

describeInChromium('hosted onboarding of an individual in Chromium', 'the individual onboarding browser test is', (backend, browser) => {
  const { server, tenants: [acme] } = useTenants(backend, ['Acme Wallet']);

  it('a new individual from the link to the last page, at 390 px by keyboard, with a passkey; then the API’s view', async () => {
    const email = `erika.${process.pid}.${backend}@example.de`;
    const redirectUrl = 'https://app.example.com/done';
    const { link, page, errors } = await openLinkOnPhone(browser, server, acme, { type: 'individual', email, redirectUrl });
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    await activate(page, '#start');

    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'The service terms');
    await acceptTerms(page);

    assert.match(page.url(), /\/details$/);
    await fillPerson(page, { country: 'Germany', firstName: 'Erika', lastName: 'Mustermann', birthDate: '08121988', nationality: 'Germany', street: 'Heidestraße 17', city: 'Köln', postalCode: '5106' });
    await activate(page, '#continue');
    // A German postal code has five digits: the form again, its summary focused, the field marked and described.
    assert.equal(await focusedId(page), 'error-summary');
    const postal = page.locator('[name="residentialAddress.postalCode"]');
    assert.equal(await postal.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator(`#${await postal.getAttribute('aria-describedby')}`).isVisible(), true);
    assert.equal(await page.locator('[name="firstName"]').inputValue(), 'Erika', 'what was typed is kept');
    await tabTo(page, '#error-summary a');
    await page.keyboard.press('Enter');
    assert.equal(await focusedId(page), 'residentialAddress-postalCode', 'the summary’s link leads to the field');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('51067');
    await activate(page, '#continue');

    assert.match(page.url(), /\/documents$/);
    assert.equal(await page.locator('[name="passport"]').getAttribute('capture'), 'environment');
    await attach(page, 'passport', { name: 'passport.png', mimeType: 'image/png', buffer: png(7001) });
    await attach(page, 'proof_of_address', { name: 'bill.pdf', mimeType: 'application/pdf', buffer: pdf(`bill ${backend}`) });
    await assertFitsPhone(page);
    await activate(page, '#continue');

    await finishWithPasskey(page, redirectUrl);
    assert.match((await page.locator('#next').textContent()) ?? '', /being checked/);

    const user = await completedLinkUser(server, acme, link.id);
    assert.deepEqual([user.userInfo.firstName, user.userInfo.lastName, user.userInfo.email, user.userInfo.birthDate], ['Erika', 'Mustermann', email, '1988-08-12']);
    assert.deepEqual(user.userInfo.residentialAddress, { streetLine1: 'Heidestraße 17', city: 'Köln', postalCode: '51067', country: 'DEU' });
    assert.deepEqual(user.verificationDocuments.map((d: { documentType: string; issuingCountry: string }) => `${d.documentType} ${d.issuingCountry}`).sort(), ['passport DEU', 'proof_of_address DEU']);
    assert.equal(user.isPasskeyActivated, true);
    assert.equal(user.termsVersion, '1');
    assert.ok(Date.parse(user.termsAcceptedAt) > 0);
    assert.equal(user.verificationStatus, 'under_review');
    // The invalid postal code's form was a 422, which Chromium reports in the console; nothing else.
    assert.deepEqual(errors, ['Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)']);
    await page.close();
  });

  it('a resubmission of one refused document: the link asks only it; after it, the requirements no longer list it', async () => {
    const customer = await refusedIdentityCustomer(server, acme);
    const { link, page, errors } = await openLinkOnPhone(browser, server, acme, { type: 'individual', userId: customer.userId });
    assert.match((await page.locator('#requirements').textContent()) ?? '', /identity document/);
    await activate(page, '#start');
    assert.match(page.url(), /\/documents$/);
    assert.match((await page.locator('.refused').textContent()) ?? '', /The photo is blurred/);
    assert.equal(await page.locator('[name="proof_of_address"]').count(), 0, 'only the refused document');
    await attach(page, 'passport', { name: 'passport.jpg', mimeType: 'image/png', buffer: png(7002) });
    await assertFitsPhone(page);
    await activate(page, '#continue');
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'You are done');

    const user = await completedLinkUser(server, acme, link.id);
    assert.equal(user.userId, customer.userId);
    assert.deepEqual(user.requirements.currentlyDue, []);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
