import assert from 'node:assert/strict';
import { SoftwareAuthenticator } from './authenticator.js';
import { pdf, png } from './fixtures.js';
import { berlinerForm, challengeOf, getPage, linkView, makeLink, nextPath, postFiles, postForm, type FilePart, type MadeLink } from './onboarding-flow.js';
import type { SeededIntegrator, TestServer } from './server.js';

/*
 * The hosted flow of a new company (docs/onboarding-links.md#the-entity-flow) as a browser without script posts it:
 * its forms, and the whole walk for suites about what comes after (the representative's verification, its
 * transactions). Shared by the entity flow suites.
 */

/** A file of its own (seeds far from the fixtures' counter: the same bytes for two people is an error finding). */
export const flowFile = (name: string, seed: number): FilePart =>
  name.endsWith('png') ? { filename: name, type: 'image/png', bytes: png(90_000 + seed) } : { filename: name, type: 'application/pdf', bytes: pdf(`${name} ${process.pid} ${seed}`) };

/** The representative's details form: the Berliner's, without a phone or a country of birth. */
export const representativeForm = (email: string) => berlinerForm(email, { phone: '', countryOfBirth: '' });

/** The company step's form of a UK company, as a browser posts it. */
export const companyForm = (overrides: Record<string, string> = {}): Record<string, string> => ({
  businessLegalName: 'Becker Robotics Ltd',
  businessTradeName: '',
  businessType: 'corporation',
  companyNumber: '01234567',
  email: 'office@becker-robotics.example',
  website: 'https://becker-robotics.example',
  'registeredAddress.country': 'GBR',
  'registeredAddress.streetLine1': '10 Downing Street',
  'registeredAddress.streetLine2': '',
  'registeredAddress.city': 'London',
  'registeredAddress.state': '',
  'registeredAddress.postalCode': 'SW1A 2AA',
  'physicalAddress.country': 'GBR',
  physicalAddressSameAsRegistered: 'true',
  'activityInfo.businessDescription': 'Warehouse robots',
  'activityInfo.businessIndustry': '333922',
  'financialInfo.sourceOfFunds': 'business_revenue',
  'financialInfo.estimatedAnnualRevenueUsd': '1000000_10000000',
  'financialInfo.expectedMonthlyPaymentsUsd': '25000',
  'financialInfo.hasMaterialIntermediaryEntityOwner': 'false',
  'highRiskInfo.operatesInProhibitedCountries': 'false',
  'highRiskInfo.highRiskActivities': 'none',
  'highRiskInfo.highRiskActivitiesExplanation': '',
  'highRiskInfo.conductsMoneyServices': 'false',
  'highRiskInfo.conductsMoneyServicesDescription': '',
  ...overrides,
});

export interface WalkedCompany {
  link: MadeLink;
  /** The representative's user (the link's). */
  userId: string;
  /** The entity account the representative owns. */
  accountId: string;
  /** The passkey registered on the last step. */
  passkey: SoftwareAuthenticator;
}

/**
 * A new company's link walked to its last page: the representative's details and own documents, the company and its
 * four documents, the representative as its only associated person (representative and 100 % owner) with the same
 * passport and proof of address as their user, and a software passkey. `seed` keeps one walk's files apart from another's.
 */
export async function walkEntityLink(server: TestServer, who: SeededIntegrator, email: string, seed: number): Promise<WalkedCompany> {
  const link = await makeLink(server, who, { type: 'entity', email });
  const mine = () => ({ passport: flowFile('p.png', seed), proof_of_address: flowFile('bill.pdf', seed + 1) });
  assert.equal(nextPath(await postForm(server, `${link.path}/terms`, { acceptTerms: 'true' })), `${link.path}/details`);
  assert.equal(nextPath(await postForm(server, `${link.path}/details`, representativeForm(email))), `${link.path}/documents`);
  assert.equal(nextPath(await postFiles(server, `${link.path}/documents`, { issuingCountry: 'DEU' }, mine())), `${link.path}/company`);
  assert.equal(nextPath(await postForm(server, `${link.path}/company`, companyForm({ companyNumber: String(10_000_000 + seed).slice(-8) }))), `${link.path}/company-documents`);
  const groups = { 'document.companyDetails': flowFile('cert.pdf', seed + 2), 'document.ownershipStructure': flowFile('register.pdf', seed + 3), 'document.sourceOfFunds': flowFile('funds.pdf', seed + 4), 'document.proofOfAddress': flowFile('office.pdf', seed + 5) };
  const types = { issuingCountry: 'GBR', 'document.companyDetails.documentType': 'incorporation_cert', 'document.ownershipStructure.documentType': 'shareholder_registry' };
  assert.equal(nextPath(await postFiles(server, `${link.path}/company-documents`, types, groups)), `${link.path}/persons`);
  const { phone: _p, countryOfBirth: _c, ...rep } = representativeForm(email);
  const me = { ...rep, action: 'add', 'beneficiaryDetails.beneficiaryType': 'ubo,representative', 'beneficiaryDetails.title': 'CEO', 'beneficiaryDetails.ownershipPercentage': '100', issuingCountry: 'DEU' };
  assert.equal(nextPath(await postFiles(server, `${link.path}/persons`, me, mine())), `${link.path}/persons`);
  assert.equal(nextPath(await postFiles(server, `${link.path}/persons`, { action: 'continue' }, {})), `${link.path}/passkey`);
  const passkey = new SoftwareAuthenticator();
  const passkeyPage = await getPage(server, `${link.path}/passkey`);
  const done = await postForm(server, `${link.path}/passkey`, { authenticator: JSON.stringify(passkey.authenticator({ challenge: challengeOf(passkeyPage.text) })) });
  assert.equal(done.status, 200, done.text);
  const view = await linkView(server, who, link.id);
  assert.equal(view.status, 'completed');
  server.clock.advance(1000);
  const listed = await who.client.get('/v1/query/list-accounts?type=entity');
  assert.equal(listed.status, 200, listed.text);
  const accountId = await ownedAccount(server, who, (listed.body.data as { accountId: string }[]).map((a) => a.accountId), view.userId as string);
  return { link, userId: view.userId as string, accountId, passkey };
}

/** Of these entity accounts, the one the user owns. */
async function ownedAccount(server: TestServer, who: SeededIntegrator, accountIds: string[], userId: string): Promise<string> {
  for (const accountId of accountIds) {
    server.clock.advance(1000);
    const members = (await who.client.get(`/v1/query/list-members?accountId=${accountId}`)).body.data as { userId: string; role: string }[];
    if (members.some((m) => m.userId === userId && m.role === 'owner')) return accountId;
  }
  assert.fail('the representative owns no entity account');
}
