import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { backends } from '../harness/backends.js';
import { eventsOfType } from '../harness/db.js';
import { companyForm, flowFile, representativeForm } from '../harness/entity-flow.js';
import { challengeOf, getPage, invalidInputs, linkView, makeLink, nextPath, postFiles, postForm } from '../harness/onboarding-flow.js';
import { post, teamAccount } from '../harness/members.js';
import { useTenants } from '../harness/tenants.js';

/*
 * The hosted flow of a new company (docs/onboarding-links.md#the-entity-flow), as a browser without script posts it:
 * terms, the representative's details and own documents, the company (its country first), its four documents, its
 * people (added, changed, removed, then confirmed), the passkey; each step's errors as a 422 form naming the inputs;
 * the API's view of the entity, its persons, the representative's user and the link after it.
 */

const company = companyForm();

const owner = {
  action: 'add',
  firstName: 'Amelia',
  lastName: 'Clarke',
  email: 'amelia.clarke@example.co.uk',
  birthDate: '1979-03-14',
  nationality: 'GBR',
  'residentialAddress.country': 'GBR',
  'residentialAddress.streetLine1': '1 Abbey Road',
  'residentialAddress.city': 'London',
  'residentialAddress.postalCode': 'NW8 9AY',
  'beneficiaryDetails.beneficiaryType': 'ubo',
  'beneficiaryDetails.ownershipPercentage': '40',
};

for (const backend of backends()) {
  describe(`hosted onboarding flow: a new company [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme Wallet']);

    it('walks terms, details, company, documents, persons and passkey; each step refuses bad input with its fields', async () => {
      const email = `jonas.${process.pid}@becker-robotics.example`;
      const link = await makeLink(server, acme, { type: 'entity', email });
      assert.equal(nextPath(await postForm(server, `${link.path}/terms`, { acceptTerms: 'true' })), `${link.path}/details`);
      assert.equal(nextPath(await postForm(server, `${link.path}/details`, representativeForm(email))), `${link.path}/documents`);

      // The representative's own documents (their user is verified too); the same files go on their person record below.
      assert.match((await getPage(server, `${link.path}/documents`)).text, /<h1 id="title" tabindex="-1" autofocus>Your own documents<\/h1>/);
      assert.equal(nextPath(await postFiles(server, `${link.path}/documents`, { issuingCountry: 'DEU' }, { passport: flowFile('p.png', 5), proof_of_address: flowFile('bill.pdf', 6) })), `${link.path}/company`);

      // The company: its country first, then its fields as that country has them.
      const askCountry = await getPage(server, `${link.path}/company`);
      assert.match(askCountry.text, /name="registeredAddress\.country" autocomplete="country"/);
      const form = await getPage(server, `${link.path}/company?registeredAddress.country=GBR`);
      assert.match(form.text, /name="businessLegalName" autocomplete="organization"/);
      assert.match(form.text, /Companies House number/);
      assert.match(form.text, /<label for="registeredAddress-postalCode">Postcode/);
      const bad = await postForm(server, `${link.path}/company`, { ...company, businessLegalName: '', 'activityInfo.businessIndustry': '9', website: 'not a url' });
      assert.equal(bad.status, 422, bad.text);
      assert.deepEqual(invalidInputs(bad.text), {
        businessLegalName: 'businessLegalName-error',
        website: 'website-hint website-error',
        'activityInfo.businessIndustry': 'activityInfo-businessIndustry-hint activityInfo-businessIndustry-error',
      });
      assert.equal((await eventsOfType(server.database, acme.integratorId, 'entity.created')).length, 0, 'nothing saved');
      const unknown = await postForm(server, `${link.path}/company`, { ...company, logoUrl: 'https://x.example/logo.png' });
      assert.equal(unknown.status, 400, 'a field the step does not have');
      assert.equal(nextPath(await postForm(server, `${link.path}/company`, company)), `${link.path}/company-documents`);
      const [created] = await eventsOfType(server.database, acme.integratorId, 'entity.created');
      const accountId = (created!.data as { object: { accountId: string } }).object.accountId;

      // The four document groups: one missing is named; all four go on to the people.
      const groups = { 'document.companyDetails': flowFile('cert.pdf', 1), 'document.ownershipStructure': flowFile('register.pdf', 2), 'document.sourceOfFunds': flowFile('funds.pdf', 3), 'document.proofOfAddress': flowFile('bill.pdf', 4) };
      const types = { issuingCountry: 'GBR', 'document.companyDetails.documentType': 'incorporation_cert', 'document.ownershipStructure.documentType': 'shareholder_registry' };
      const { 'document.sourceOfFunds': _funds, ...three } = groups;
      const missing = await postFiles(server, `${link.path}/company-documents`, types, three);
      assert.equal(missing.status, 422, missing.text);
      assert.deepEqual(Object.keys(invalidInputs(missing.text)), ['document.sourceOfFunds']);
      assert.equal(nextPath(await postFiles(server, `${link.path}/company-documents`, types, groups)), `${link.path}/persons`);

      // The people: the representative's own details to start with; a representative needs a title.
      const persons = await getPage(server, `${link.path}/persons`);
      assert.match(persons.text, /id="firstName" name="firstName"[^>]*value="Jonas"/);
      assert.match(persons.text, /<option value="representative" selected>/);
      const { phone: _p, countryOfBirth: _c, ...rep } = representativeForm(email);
      const me = { ...rep, action: 'add', 'beneficiaryDetails.beneficiaryType': 'representative', issuingCountry: 'DEU' };
      const noTitle = await postFiles(server, `${link.path}/persons`, me, { passport: flowFile('p.png', 5), proof_of_address: flowFile('bill.pdf', 6) });
      assert.equal(noTitle.status, 422, noTitle.text);
      assert.deepEqual(invalidInputs(noTitle.text), { 'beneficiaryDetails.title': 'beneficiaryDetails-title-hint beneficiaryDetails-title-error' });
      const added = await postFiles(server, `${link.path}/persons`, { ...me, 'beneficiaryDetails.title': 'CEO' }, { passport: flowFile('p.png', 5), proof_of_address: flowFile('bill.pdf', 6) });
      assert.equal(nextPath(added), `${link.path}/persons`, 'back to the list, to add another');
      assert.equal(nextPath(await postFiles(server, `${link.path}/persons`, owner, {})), `${link.path}/persons`);

      // Going on while the owner has no documents is refused, saying what is missing.
      const early = await postFiles(server, `${link.path}/persons`, { action: 'continue' }, {});
      assert.equal(early.status, 422, early.text);
      assert.match(early.text, /Amelia Clarke still needs: identity document, proof of address/);
      const list = await getPage(server, `${link.path}/persons`);
      const ids = [...list.text.matchAll(/href="persons\?edit=([0-9a-f-]{36})"/g)].map((m) => m[1]!);
      assert.equal(ids.length, 2);
      const edit = await getPage(server, `${link.path}/persons?edit=${ids[1]}`);
      assert.match(edit.text, /value="Amelia"/);
      const { action: _a, ...ownerData } = owner;
      const changed = await postFiles(server, `${link.path}/persons`, { ...ownerData, action: 'edit', beneficiaryId: ids[1]!, issuingCountry: 'GBR' }, { passport: flowFile('p2.png', 7), proof_of_address: flowFile('bill2.pdf', 8) });
      assert.equal(nextPath(changed), `${link.path}/persons`);

      // A third added by mistake, then removed; a person of nobody's company is refused.
      assert.equal(nextPath(await postFiles(server, `${link.path}/persons`, { ...owner, firstName: 'Extra', 'beneficiaryDetails.beneficiaryType': 'representative', 'beneficiaryDetails.title': 'COO', 'beneficiaryDetails.ownershipPercentage': '' }, {})), `${link.path}/persons`);
      const third = [...(await getPage(server, `${link.path}/persons`)).text.matchAll(/href="persons\?edit=([0-9a-f-]{36})"/g)].map((m) => m[1]!).find((id) => !ids.includes(id))!;
      const foreign = await postFiles(server, `${link.path}/persons`, { action: 'remove', beneficiaryId: '00000000-0000-4000-8000-000000000000' }, {});
      assert.equal(foreign.status, 422, foreign.text);
      assert.equal(nextPath(await postFiles(server, `${link.path}/persons`, { action: 'remove', beneficiaryId: third }, {})), `${link.path}/persons`);

      assert.equal(nextPath(await postFiles(server, `${link.path}/persons`, { action: 'continue' }, {})), `${link.path}/passkey`);
      const passkeyPage = await getPage(server, `${link.path}/passkey`);
      const done = await postForm(server, `${link.path}/passkey`, { authenticator: JSON.stringify(new SoftwareAuthenticator().authenticator({ challenge: challengeOf(passkeyPage.text) })) });
      assert.equal(done.status, 200, done.text);
      assert.match(done.text, /You are done/);

      server.clock.advance(1000);
      const entity = (await acme.client.get(`/v1/query/get-entity-details?accountId=${accountId}`)).body;
      assert.equal(entity.entityInfo.businessLegalName, 'Becker Robotics Ltd');
      assert.deepEqual(entity.entityInfo.physicalAddress, entity.entityInfo.registeredAddress);
      assert.equal(entity.entityInfo.activityInfo.businessIndustry, 333922);
      assert.deepEqual(entity.entityDocuments.map((d: { documentType: string }) => d.documentType).sort(), ['incorporation_cert', 'proof_of_address', 'shareholder_registry', 'source_of_funds']);
      assert.deepEqual(entity.associatedPersons.map((p: { firstName: string }) => p.firstName).sort(), ['Amelia', 'Jonas']);
      assert.equal(entity.verificationStatus, 'awaiting_associated_person_information', 'submitted: it waits for its persons’ review');
      assert.deepEqual(entity.requirements.currentlyDue, []);
      const view = await linkView(server, acme, link.id);
      assert.equal(view.status, 'completed');
      server.clock.advance(1000);
      const user = (await acme.client.get(`/v1/query/get-user-details?userId=${view.userId}`)).body;
      assert.deepEqual([user.userInfo.email, user.isPasskeyActivated], [email, true], 'the link’s user is the representative');
      // Their own verification was requested at the end, and the passport on both records is one person's, not a duplicate.
      assert.deepEqual([user.verificationStatus, user.requirements.currentlyDue], ['under_review', []]);
      const jonas = entity.associatedPersons.find((p: { firstName: string }) => p.firstName === 'Jonas');
      server.clock.advance(1000);
      const person = (await acme.client.get(`/v1/query/get-associated-person-details?beneficiaryId=${jonas.beneficiaryId}`)).body;
      for (const d of [...user.verificationDocuments, ...person.verificationDocuments]) assert.equal(d.errors, null, JSON.stringify(d));
      server.clock.advance(1000);
      const members = (await acme.client.get(`/v1/query/list-members?accountId=${accountId}`)).body;
      assert.deepEqual(members.data.map((m: { userId: string; role: string }) => [m.userId, m.role]), [[view.userId, 'owner']]);
    });

    it('a link for an existing company’s representative shows only what the company owes, then completes', async () => {
      const team = await teamAccount(server, acme, { active: false });
      server.clock.advance(1000);
      const [rep] = (await acme.client.get(`/v1/query/get-entity-details?accountId=${team.accountId}`)).body.associatedPersons;
      assert.equal((await post(server, acme, '/v1/sandbox/simulate-verification', { beneficiaryId: rep.beneficiaryId, outcome: 'approve' })).status, 200);
      server.clock.advance(1000);
      const entity = (await acme.client.get(`/v1/query/get-entity-details?accountId=${team.accountId}`)).body;
      assert.equal(entity.verificationStatus, 'under_review');
      const funds = entity.entityDocuments.find((d: { documentType: string }) => d.documentType === 'source_of_funds');
      const asked = await post(server, acme, '/v1/sandbox/simulate-verification', { accountId: team.accountId, outcome: 'request_resubmission', reasons: ['Older than 3 months'], documents: [funds.documentId] });
      assert.equal(asked.status, 200, asked.text);

      const link = await makeLink(server, acme, { type: 'entity', userId: team.owner.userId });
      const first = await getPage(server, link.path);
      assert.match(first.text, new RegExp(`href="${link.token}/company-documents"`));
      assert.match(first.text, /<li>a document showing the company’s source of funds<\/li>/, 'what the company owes, not what its representative does');
      assert.equal(nextPath(await postForm(server, `${link.path}/terms`, { acceptTerms: 'true' })), `${link.path}/company-documents`, 'a step not owed sends to the one that is');
      const page = await getPage(server, `${link.path}/company-documents`);
      assert.match(page.text, /The earlier document was refused: Older than 3 months/);
      assert.ok(!page.text.includes('name="document.companyDetails"'), 'only the group it owes');
      const done = await postFiles(server, `${link.path}/company-documents`, { issuingCountry: 'USA' }, { 'document.sourceOfFunds': flowFile('funds.pdf', 9) });
      assert.equal(done.status, 200, `${done.status} ${String(done.headers.location)}`);
      assert.match(done.text, /You are done/);
      server.clock.advance(1000);
      const after = (await acme.client.get(`/v1/query/get-entity-details?accountId=${team.accountId}`)).body;
      assert.deepEqual([after.verificationStatus, after.requirements.currentlyDue], ['under_review', []], 'the resubmission resumed its review');
      const view = await linkView(server, acme, link.id);
      assert.deepEqual([view.status, view.userId], ['completed', team.owner.userId]);
    });

    it('a fresh link for the representative goes on where the last one stopped (the company it owns)', async () => {
      const email = `stop.${process.pid}@becker-robotics.example`;
      const link = await makeLink(server, acme, { type: 'entity', email });
      assert.equal(nextPath(await postForm(server, `${link.path}/terms`, { acceptTerms: 'true' })), `${link.path}/details`);
      assert.equal(nextPath(await postForm(server, `${link.path}/details`, representativeForm(email))), `${link.path}/documents`);
      assert.equal(nextPath(await postFiles(server, `${link.path}/documents`, { issuingCountry: 'DEU' }, { passport: flowFile('p.png', 10), proof_of_address: flowFile('bill.pdf', 11) })), `${link.path}/company`);
      assert.equal(nextPath(await postForm(server, `${link.path}/company`, { ...company, companyNumber: '07654321' })), `${link.path}/company-documents`);
      const { userId } = await linkView(server, acme, link.id);

      const fresh = await makeLink(server, acme, { type: 'entity', userId });
      assert.equal((await linkView(server, acme, link.id)).status, 'revoked');
      const first = await getPage(server, fresh.path);
      assert.match(first.text, new RegExp(`href="${fresh.token}/company-documents"`), 'terms, details, documents and company are done');
      const page = await getPage(server, `${fresh.path}/company-documents`);
      assert.equal(page.status, 200, page.text);
      assert.match(page.text, /<option value="GBR" selected>/, 'the issuing country defaults to the company’s');
    });
  });
}
