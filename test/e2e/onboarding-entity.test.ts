import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeInChromium } from '../harness/chromium.js';
import { pdf, png } from '../harness/fixtures.js';
import { activate, assertFitsPhone, attach, fillByKeyboard } from '../harness/keyboard.js';
import { acceptTerms, completedLinkUser, fillForCountry, fillPerson, finishWithPasskey, openLinkOnPhone } from '../harness/onboarding-pages.js';
import { useTenants } from '../harness/tenants.js';

// The hosted flow of a new company in a real browser (docs/onboarding-links.md#the-entity-flow): a 390 px viewport,
// every control reached by Tab and used by keyboard, a CDP virtual authenticator for the passkey. The company has
// two associated persons: the representative (its own details offered; their own documents, asked of their user
// first, given again) and an owner.

const image = (seed: number) => ({ name: 'id.png', mimeType: 'image/png', buffer: png(90_000 + seed) });
const paper = (text: string) => ({ name: `${text}.pdf`, mimeType: 'application/pdf', buffer: pdf(text) });

describeInChromium('hosted onboarding of a company in Chromium', 'the entity onboarding browser test is', (backend, browser) => {
  const { server, tenants: [acme] } = useTenants(backend, ['Acme Wallet']);

  it('a company with two associated persons, from the link to the last page, at 390 px by keyboard', async () => {
    const email = `jonas.${process.pid}.${backend}@becker-robotics.example`;
    const redirectUrl = 'https://app.example.com/done';
    const { link, page, errors } = await openLinkOnPhone(browser, server, acme, { type: 'entity', email, redirectUrl });
    await activate(page, '#start');

    // Terms, then the representative's own details (the country first).
    await acceptTerms(page);
    assert.match(page.url(), /\/details$/);
    await fillPerson(page, { country: 'Germany', firstName: 'Jonas', lastName: 'Becker', birthDate: '09301990', nationality: 'Germany', street: 'Unter den Linden 77', city: 'Berlin', postalCode: '10117' });
    await activate(page, '#continue');

    // The representative's own documents (their user is verified too); the same files again on their person below.
    assert.match(page.url(), /\/documents$/);
    await attach(page, 'passport', image(11));
    await fillByKeyboard(page, [['issuingCountry', 'Germany']]);
    await attach(page, 'proof_of_address', paper('jonas bill'));
    await assertFitsPhone(page);
    await activate(page, '#continue');

    // The company: registered in the United Kingdom, its fields as the UK has them.
    assert.match(page.url(), /\/company$/);
    await fillForCountry(page, 'registeredAddress.country', 'United Kingdom', [
      ['businessLegalName', 'Becker Robotics Ltd'],
      ['businessType', 'Corporation'],
      ['companyNumber', '01234567'],
      ['email', 'office@becker-robotics.example'],
      ['registeredAddress.streetLine1', '10 Downing Street'],
      ['registeredAddress.city', 'London'],
      ['registeredAddress.postalCode', 'SW1A 2AA'],
      ['activityInfo.businessDescription', 'Warehouse robots'],
      ['activityInfo.businessIndustry', '333922'],
      ['financialInfo.sourceOfFunds', 'Business revenue'],
      ['financialInfo.estimatedAnnualRevenueUsd', '$1,000,000 to'],
      ['financialInfo.expectedMonthlyPaymentsUsd', '25000'],
      ['financialInfo.hasMaterialIntermediaryEntityOwner', 'No'],
      ['highRiskInfo.operatesInProhibitedCountries', 'No'],
      ['highRiskInfo.highRiskActivities', 'None'],
      ['highRiskInfo.conductsMoneyServices', 'No'],
    ]);
    assert.equal(await page.getByText('The Companies House number, e.g. 01234567.').isVisible(), true);
    await activate(page, '#continue');

    // Its four documents.
    assert.match(page.url(), /\/company-documents$/);
    await fillByKeyboard(page, [['document.companyDetails.documentType', 'Certificate']]);
    await attach(page, 'document.companyDetails', paper('certificate'));
    await fillByKeyboard(page, [['document.ownershipStructure.documentType', 'Shareholder']]);
    await attach(page, 'document.ownershipStructure', paper('register'));
    await attach(page, 'document.sourceOfFunds', paper('statement'));
    await attach(page, 'document.proofOfAddress', paper('bill'));
    await assertFitsPhone(page);
    await activate(page, '#continue');

    // Its people: the representative starts from Jonas's own details; then an owner who lives in the UK.
    assert.match(page.url(), /\/persons$/);
    assert.equal(await page.locator('#firstName').inputValue(), 'Jonas');
    await fillByKeyboard(page, [['beneficiaryDetails.title', 'CEO']]);
    await attach(page, 'passport', image(11));
    await fillByKeyboard(page, [['issuingCountry', 'Germany']]);
    await attach(page, 'proof_of_address', paper('jonas bill'));
    await activate(page, '#save-person');
    assert.match((await page.locator('#person-1').textContent()) ?? '', /Jonas Becker: Representative \(CEO\)\. Complete/);

    const amelia = { country: 'United Kingdom', firstName: 'Amelia', lastName: 'Clarke', email: 'amelia.clarke@example.co.uk', birthDate: '03141979', nationality: 'United Kingdom', street: '1 Abbey Road', city: 'London', postalCode: 'NW8 9AY' };
    await fillPerson(page, amelia, [['beneficiaryDetails.beneficiaryType', 'Owner'], ['beneficiaryDetails.ownershipPercentage', '40']]);
    await attach(page, 'passport', image(12));
    await fillByKeyboard(page, [['issuingCountry', 'United Kingdom']]);
    await attach(page, 'proof_of_address', paper('amelia bill'));
    await assertFitsPhone(page);
    await activate(page, '#save-person');
    assert.match((await page.locator('#person-2').textContent()) ?? '', /Amelia Clarke: Owner of 40 %\. Complete/);
    await activate(page, '#continue');

    // The passkey, made by the browser, and the last page.
    await finishWithPasskey(page, redirectUrl);
    assert.deepEqual(errors, []);

    // The API: the link completed for the representative, the company with its documents and both persons.
    const user = await completedLinkUser(server, acme, link.id);
    assert.deepEqual([user.userInfo.email, user.isPasskeyActivated], [email, true]);
    // Their own verification was requested at the end (the passport on both records is one person's), and it can pass.
    assert.deepEqual([user.verificationStatus, user.requirements.currentlyDue], ['under_review', []]);
    server.clock.advance(1000);
    const approved = await acme.client.post('/v1/sandbox/simulate-verification', { accountId: user.accountId, outcome: 'approve' });
    assert.equal(approved.body.verificationStatus, 'active', approved.text);
    server.clock.advance(1000);
    const [account] = (await acme.client.get('/v1/query/list-accounts?type=entity')).body.data;
    server.clock.advance(1000);
    const entity = (await acme.client.get(`/v1/query/get-entity-details?accountId=${account.accountId}`)).body;
    assert.equal(entity.entityInfo.businessLegalName, 'Becker Robotics Ltd');
    assert.equal(entity.entityInfo.registeredAddress.postalCode, 'SW1A 2AA');
    assert.deepEqual(entity.entityDocuments.map((d: { documentType: string }) => d.documentType).sort(), ['incorporation_cert', 'proof_of_address', 'shareholder_registry', 'source_of_funds']);
    assert.deepEqual(
      entity.associatedPersons.map((p: { firstName: string; beneficiaryDetails: { beneficiaryType: string[] } }) => [p.firstName, p.beneficiaryDetails.beneficiaryType]),
      [['Jonas', ['representative']], ['Amelia', ['ubo']]],
    );
    for (const person of entity.associatedPersons as { beneficiaryId: string }[]) {
      server.clock.advance(1000);
      const details = (await acme.client.get(`/v1/query/get-associated-person-details?beneficiaryId=${person.beneficiaryId}`)).body;
      assert.deepEqual(details.verificationDocuments.map((d: { documentType: string }) => d.documentType).sort(), ['passport', 'proof_of_address']);
      assert.equal(details.verificationStatus, 'under_review');
    }
    assert.equal(entity.verificationStatus, 'awaiting_associated_person_information');
    assert.deepEqual(entity.requirements.currentlyDue, []);
  });
});
