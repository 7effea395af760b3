import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { verificationTransitions } from '../../src/db/schema/index.js';
import { backends } from '../harness/backends.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { eventsFor } from '../harness/db.js';
import { pdf, png } from '../harness/fixtures.js';
import { berlinerForm, challengeOf, getPage, invalidInputs, makeLink, nextPath, postFiles, postForm } from '../harness/onboarding-flow.js';
import { useTenants } from '../harness/tenants.js';

/*
 * The hosted flow of a new individual (docs/onboarding-links.md#the-hosted-flow), as a browser without script posts
 * it: terms, details (the country first), documents, passkey, the final page; each step's errors as a 422 form with
 * aria-invalid and aria-describedby on the right inputs; the API's view of the user and the link after it.
 */
for (const backend of backends()) {
  describe(`hosted onboarding flow: a new individual [${backend}]`, () => {
    const lines: string[] = [];
    const { server, tenants: [acme] } = useTenants(backend, ['Acme Wallet'], { LOG_LEVEL: 'trace' }, { logDestination: { write: (line: string) => void lines.push(line) } });

    const details = (email: string) => berlinerForm(email);

    it('walks terms, details, documents and passkey to the final page; the user, its terms and the completed link', async () => {
      const email = `jonas.${process.pid}@example.de`;
      const link = await makeLink(server, acme, { type: 'individual', email, redirectUrl: 'https://app.example.com/back' });
      lines.length = 0;
      const first = await getPage(server, link.path);
      assert.equal(first.status, 200, first.text);
      assert.match(first.headers['content-security-policy'] as string, /form-action 'self'/);
      assert.match(first.text, new RegExp(`href="${link.token}/terms"`));

      const terms = await getPage(server, `${link.path}/terms`);
      assert.equal(terms.status, 200, terms.text);
      const unticked = await postForm(server, `${link.path}/terms`, {});
      assert.equal(unticked.status, 422, unticked.text);
      assert.deepEqual(invalidInputs(unticked.text), { acceptTerms: 'acceptTerms-error' });
      assert.equal(nextPath(await postForm(server, `${link.path}/terms`, { acceptTerms: 'true' })), `${link.path}/details`);

      const askCountry = await getPage(server, `${link.path}/details`);
      assert.match(askCountry.text, /name="residentialAddress\.country" autocomplete="country"/);
      const form = await getPage(server, `${link.path}/details?residentialAddress.country=DEU`);
      for (const [name, token] of <[string, string][]>[['firstName', 'given-name'], ['lastName', 'family-name'], ['birthDate', 'bday'], ['email', 'email'], ['phone', 'tel'], ['residentialAddress.streetLine1', 'address-line1'], ['residentialAddress.city', 'address-level2'], ['residentialAddress.postalCode', 'postal-code']]) {
        assert.match(form.text, new RegExp(`name="${name.replace('.', '\\.')}" autocomplete="${token}"`), name);
      }
      assert.ok(!form.text.includes('socialSecurityNumber'), 'no SSN outside the USA');

      const bad = await postForm(server, `${link.path}/details`, { ...details(email), birthDate: '2020-01-01', 'residentialAddress.postalCode': 'ABC', firstName: '' });
      assert.equal(bad.status, 422, bad.text);
      assert.deepEqual(invalidInputs(bad.text), {
        firstName: 'firstName-error',
        birthDate: 'birthDate-hint birthDate-error',
        'residentialAddress.postalCode': 'residentialAddress-postalCode-error',
      });
      assert.match(bad.text, /id="error-summary"[^>]*autofocus/);
      assert.match(bad.text, /href="#residentialAddress-postalCode"/);
      assert.match(bad.text, /value="Unter den Linden 77"/, 'what was typed is kept');
      assert.equal((await acme.client.get(`/v1/onboarding-links/${link.id}`)).body.userId, null, 'nothing saved');

      assert.equal(nextPath(await postForm(server, `${link.path}/details`, details(email))), `${link.path}/documents`);
      const made = (await acme.client.get(`/v1/onboarding-links/${link.id}`)).body;
      assert.equal(made.status, 'opened');
      const userId = made.userId as string;
      assert.ok(userId, 'the link has its user at once');

      const docsPage = await getPage(server, `${link.path}/documents`);
      assert.match(docsPage.text, /enctype="multipart\/form-data"/);
      assert.match(docsPage.text, /type="file" id="passport" name="passport"[^>]*accept="image\/jpeg,image\/png,application\/pdf" capture="environment"/);
      const wrongType = await postFiles(server, `${link.path}/documents`, { issuingCountry: 'DEU' }, { passport: { filename: 'p.png', type: 'image/png', bytes: pdf() }, proof_of_address: { filename: 'b.pdf', type: 'application/pdf', bytes: pdf('bill') } });
      assert.equal(wrongType.status, 422, wrongType.text);
      assert.deepEqual(Object.keys(invalidInputs(wrongType.text)), ['passport']);
      const uploaded = await postFiles(server, `${link.path}/documents`, { issuingCountry: 'DEU' }, { passport: { filename: 'p.png', type: 'image/png', bytes: png(1) }, proof_of_address: { filename: 'b.pdf', type: 'application/pdf', bytes: pdf('bill') } });
      assert.equal(nextPath(uploaded), `${link.path}/passkey`);

      const passkeyPage = await getPage(server, `${link.path}/passkey`);
      assert.match(passkeyPage.text, /src="\/onboarding\/assets\/onboarding\.js"/);
      const passkey = new SoftwareAuthenticator();
      const done = await postForm(server, `${link.path}/passkey`, { authenticator: JSON.stringify(passkey.authenticator({ challenge: challengeOf(passkeyPage.text) })) });
      assert.equal(done.status, 200, done.text);
      assert.match(done.text, /You are done/);
      assert.match(done.text, /href="https:\/\/app\.example\.com\/back"/);

      const user = (await acme.client.get(`/v1/query/get-user-details?userId=${userId}`)).body;
      assert.equal(user.userInfo.firstName, 'Jonas');
      assert.equal(user.userInfo.residentialAddress.postalCode, '10117');
      assert.equal(user.isPasskeyActivated, true);
      assert.deepEqual(user.verificationDocuments.map((d: { documentType: string }) => d.documentType).sort(), ['passport', 'proof_of_address']);
      assert.equal(user.termsVersion, '1');
      assert.ok(user.termsAcceptedAt);
      assert.equal(user.verificationStatus, 'under_review');
      const after = (await acme.client.get(`/v1/onboarding-links/${link.id}`)).body;
      assert.equal(after.status, 'completed');
      assert.equal(after.userId, userId);
      assert.deepEqual((await eventsFor(server.database, link.id)).map((e) => e.type), ['onboarding_link.created', 'onboarding_link.opened', 'onboarding_link.completed']);
      const created = (await eventsFor(server.database, userId)).find((e) => e.type === 'user.created')!;
      assert.equal((created.data as { object: { termsVersion: string } }).object.termsVersion, '1', 'user.created carries the version accepted');
      // Details: created (awaiting its documents); documents: complete (init), the requirements met; passkey; completion: verification requested.
      assert.deepEqual((await eventsFor(server.database, userId)).map((e) => e.type), [
        'user.created',
        'user.verification_status.changed',
        'user.updated',
        'requirements.updated',
        'user.updated',
        'user.verification_status.changed',
        'requirements.updated',
      ]);

      // The verification history names the link as what acted for its integrator.
      const history = await server.database.db.select().from(verificationTransitions).where(eq(verificationTransitions.subjectId, userId));
      assert.ok(history.length >= 2);
      assert.deepEqual([...new Set(history.map((t) => `${t.actorType} ${t.actorId}`))], [`integrator onboarding_link:${link.id}`]);

      const replay = await postForm(server, `${link.path}/passkey`, { authenticator: '{}' });
      assert.equal(replay.status, 410, replay.text);
      const logged = lines.join('');
      assert.ok(logged.includes('/onboarding/[redacted]'));
      assert.ok(!logged.includes(link.token.slice(4, 30)), 'no log line carries the token');
    });

    it('fields by country: a US address asks its state and the SSN; someone over 60 is asked about their finances', async () => {
      const email = `maria.${process.pid}@example.com`;
      const link = await makeLink(server, acme, { type: 'individual', email });
      assert.equal(nextPath(await postForm(server, `${link.path}/terms`, { acceptTerms: 'true' })), `${link.path}/details`);
      const form = await getPage(server, `${link.path}/details?residentialAddress.country=USA`);
      assert.match(form.text, /<label for="residentialAddress-state">State<\/label>/);
      assert.match(form.text, /<option value="US-CA">California<\/option>/);
      assert.match(form.text, /<label for="residentialAddress-postalCode">ZIP code<\/label>/);
      assert.match(form.text, /name="socialSecurityNumber"/);
      const us = { ...details(email), 'residentialAddress.country': 'USA', 'residentialAddress.state': '', 'residentialAddress.postalCode': '94105', 'residentialAddress.city': 'San Francisco', birthDate: '1950-02-01' };
      const first = await postForm(server, `${link.path}/details`, us);
      assert.equal(first.status, 422, first.text);
      assert.deepEqual(Object.keys(invalidInputs(first.text)).sort(), ['residentialAddress.state', 'socialSecurityNumber']);
      assert.match(first.text, /questions about your finances/);
      assert.match(first.text, /name="additionalUserInfo\.employmentStatus"/, 'the finances asked once the API requires them');
      const complete = { ...us, 'residentialAddress.state': 'US-CA', socialSecurityNumber: '123-45-6789' };
      const finances = { 'additionalUserInfo.employmentStatus': 'retired', 'additionalUserInfo.sourceOfFunds': 'pension', 'additionalUserInfo.expectedMonthlyPaymentsUsd': '0_1000', 'additionalUserInfo.mostRecentOccupation': '25-0000' };
      const half = await postForm(server, `${link.path}/details`, { ...complete, 'additionalUserInfo.employmentStatus': 'retired' });
      assert.equal(half.status, 422, half.text);
      assert.deepEqual(Object.keys(invalidInputs(half.text)).sort(), ['additionalUserInfo.expectedMonthlyPaymentsUsd', 'additionalUserInfo.mostRecentOccupation', 'additionalUserInfo.sourceOfFunds']);
      assert.equal(nextPath(await postForm(server, `${link.path}/details`, { ...complete, ...finances })), `${link.path}/documents`);
      const userId = (await acme.client.get(`/v1/onboarding-links/${link.id}`)).body.userId as string;
      const user = (await acme.client.get(`/v1/query/get-user-details?userId=${userId}`)).body;
      assert.equal(user.userInfo.residentialAddress.state, 'US-CA');
      assert.equal(user.userInfo.socialSecurityNumber, '***-**-6789');
      assert.equal(user.additionalUserInfo.sourceOfFunds, 'pension');
    });
  });
}
