import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../harness/backends.js';
import { createCustomer } from '../harness/customers.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { eventsFor } from '../harness/db.js';
import { pdf, png } from '../harness/fixtures.js';
import { berlinerForm, challengeOf, getPage, invalidInputs, linkView, makeLink, multipartBody, nextPath, postFiles, postForm, refusedIdentityCustomer, type MadeLink } from '../harness/onboarding-flow.js';
import { pageRequest } from '../harness/page-request.js';
import { useTenants } from '../harness/tenants.js';

/*
 * The hosted flow's rules (docs/onboarding-links.md#the-hosted-flow): a hostile body is a 4xx page that writes
 * nothing, a closed link's POST is 410, a step out of turn is sent to the owed one, another integrator's user is out
 * of reach, a link for an existing user asks only what it owes, and a fresh link continues where the last one left.
 */
for (const backend of backends()) {
  describe(`hosted onboarding flow: rules [${backend}]`, () => {
    const { server, tenants: [acme, globex] } = useTenants(backend, ['Acme Wallet', 'Globex']);
    let emails = 0;
    const email = () => `flow${++emails}.${process.pid}@example.de`;
    const detailsOf = (address: string) => berlinerForm(address);
    // New bytes each time: the automated checks refuse a file another customer already gave.
    let seed = 100;
    const files = () => ({ passport: { filename: 'p.png', type: 'image/png', bytes: png(++seed) }, proof_of_address: { filename: 'b.pdf', type: 'application/pdf', bytes: pdf(`bill ${++seed}`) } });

    /** A new individual's link walked up to its documents step; its user's id. */
    async function atDocuments(link: MadeLink, address: string): Promise<string> {
      assert.equal(nextPath(await postForm(server, `${link.path}/terms`, { acceptTerms: 'true' })), `${link.path}/details`);
      assert.equal(nextPath(await postForm(server, `${link.path}/details`, detailsOf(address))), `${link.path}/documents`);
      return (await linkView(server, acme, link.id)).userId as string;
    }
    const documentsOf = async (userId: string) => (await acme.client.get(`/v1/query/get-user-details?userId=${userId}`)).body.verificationDocuments as unknown[];

    it('a hostile body is a 4xx page, never a 500, and writes nothing', async () => {
      const link = await makeLink(server, acme, { type: 'individual', email: email() });
      const terms = `${link.path}/terms`;
      const refusals: [string, Promise<{ status: number; text: string }>, number][] = [
        ['an unknown field', postForm(server, terms, { acceptTerms: 'true', isAdmin: 'true' }), 400],
        ['a field twice', postForm(server, terms, [['acceptTerms', 'true'], ['acceptTerms', 'true']]), 400],
        ['JSON', pageRequest(server, 'POST', terms, { body: '{"acceptTerms":"true"}', contentType: 'application/json' }), 415],
        ['a form too large', postForm(server, terms, { acceptTerms: 'x'.repeat(70_000) }), 413],
        ['files where a form is taken', postFiles(server, terms, { acceptTerms: 'true' }, {}), 415],
      ];
      for (const [what, answer, status] of refusals) {
        const { status: got, text } = await answer;
        assert.equal(got, status, `${what}: ${text}`);
        assert.match(text, /<html lang="en">/, what);
        assert.match(text, /Nothing was saved/, what);
      }
      assert.equal((await getPage(server, terms)).status, 200, 'the terms are still owed');

      const userId = await atDocuments(link, email());
      const given = files();
      const documents = `${link.path}/documents`;
      const big = Buffer.concat([png(4), Buffer.alloc(10 * 1024 * 1024)]);
      const { body: broken, contentType } = multipartBody({ issuingCountry: 'DEU' }, given);
      const hostile: [string, Promise<{ status: number; text: string }>, number][] = [
        ['a file over 10 MB', postFiles(server, documents, { issuingCountry: 'DEU' }, { ...given, passport: { filename: 'p.png', type: 'image/png', bytes: big } }), 413],
        ['an unknown file', postFiles(server, documents, { issuingCountry: 'DEU' }, { ...given, selfie: given.passport }), 400],
        ['an unknown field', postFiles(server, documents, { issuingCountry: 'DEU', documentType: 'passport' }, given), 400],
        ['a cut multipart body', pageRequest(server, 'POST', documents, { body: broken.subarray(0, broken.length - 40), contentType }), 400],
        ['a multipart body without its boundary', pageRequest(server, 'POST', documents, { body: broken, contentType: 'multipart/form-data' }), 400],
        ['a form where files are taken', postForm(server, documents, { issuingCountry: 'DEU' }), 415],
        ['a text file', postFiles(server, documents, { issuingCountry: 'DEU' }, { ...given, passport: { filename: 'p.txt', type: 'text/plain', bytes: Buffer.from('hello') } }), 422],
        ['a PDF called a PNG', postFiles(server, documents, { issuingCountry: 'DEU' }, { ...given, passport: { filename: 'p.png', type: 'image/png', bytes: pdf() } }), 422],
      ];
      for (const [what, answer, status] of hostile) {
        const { status: got, text } = await answer;
        assert.equal(got, status, `${what}: ${text}`);
        assert.match(text, /<html lang="en">/, what);
      }
      assert.deepEqual(await documentsOf(userId), [], 'no document was stored');
      const missing = await postFiles(server, documents, { issuingCountry: 'DEU' }, { national_id_front: given.passport, proof_of_address: given.proof_of_address });
      assert.equal(missing.status, 422, missing.text);
      assert.deepEqual(invalidInputs(missing.text), { national_id_back: 'national_id_back-hint national_id_back-error' });
    });

    it('a closed link’s POST is 410; a step out of turn is sent to the owed one; a replay makes no second user', async () => {
      const revoked = await makeLink(server, acme, { type: 'individual', email: email() });
      server.clock.advance(1000);
      assert.equal((await acme.client.delete(`/v1/onboarding-links/${revoked.id}`)).status, 204);
      assert.equal((await postForm(server, `${revoked.path}/terms`, { acceptTerms: 'true' })).status, 410);
      const expired = await makeLink(server, acme, { type: 'individual', email: email(), expiresInSeconds: 60 });
      server.clock.advance(61_000);
      const late = await postForm(server, `${expired.path}/terms`, { acceptTerms: 'true' });
      assert.equal(late.status, 410, late.text);
      assert.match(late.text, /expired/);

      const address = email();
      const link = await makeLink(server, acme, { type: 'individual', email: address });
      assert.equal(nextPath(await postForm(server, `${link.path}/details`, detailsOf(address))), `${link.path}/terms`, 'the terms come first');
      assert.equal(nextPath(await getPage(server, `${link.path}/passkey`)), `${link.path}/terms`);
      const userId = await atDocuments(link, address);
      assert.equal(nextPath(await postForm(server, `${link.path}/details`, detailsOf(address))), `${link.path}/documents`, 'a replayed step is not saved again');
      assert.equal((await linkView(server, acme, link.id)).userId, userId);
      assert.equal((await eventsFor(server.database, userId)).filter((e) => e.type === 'user.created').length, 1);
      assert.equal((await getPage(server, `${link.path}/nothing`)).status, 404);

      const passkeyPage = await getPage(server, nextPath(await postFiles(server, `${link.path}/documents`, { issuingCountry: 'DEU' }, files())));
      const stale = new SoftwareAuthenticator().authenticator({ challenge: Buffer.alloc(40).toString('base64url') });
      const refused = await postForm(server, `${link.path}/passkey`, { authenticator: JSON.stringify(stale) });
      assert.equal(refused.status, 422, refused.text);
      assert.match(refused.text, /id="error-summary"/);
      const done = await postForm(server, `${link.path}/passkey`, { authenticator: JSON.stringify(new SoftwareAuthenticator().authenticator({ challenge: challengeOf(passkeyPage.text) })) });
      assert.equal(done.status, 200, done.text);
      assert.equal((await postForm(server, `${link.path}/passkey`, { authenticator: '{}' })).status, 410, 'a replay after completion');
      assert.equal((await getPage(server, link.path)).status, 410);
    });

    it('a fresh link for the user continues where the last one left; another integrator cannot reach the user', async () => {
      const address = email();
      const first = await makeLink(server, acme, { type: 'individual', email: address });
      const userId = await atDocuments(first, address);
      assert.equal((await makeLink(server, globex, { type: 'individual', userId }).catch((err: Error) => err)) instanceof Error, true);
      server.clock.advance(1000);
      assert.equal((await globex.client.post('/v1/onboarding-links', { type: 'individual', userId })).status, 404);

      const fresh = await makeLink(server, acme, { type: 'individual', userId });
      assert.equal((await linkView(server, acme, first.id)).status, 'revoked', 'the fresh link revoked the first');
      const page = await getPage(server, fresh.path);
      assert.match(page.text, /identity document/);
      assert.match(page.text, /passkey/);
      assert.match(page.text, new RegExp(`href="${fresh.token}/documents"`));
      assert.equal(nextPath(await getPage(server, `${fresh.path}/terms`)), `${fresh.path}/documents`);
      assert.equal(nextPath(await postFiles(server, `${fresh.path}/documents`, { issuingCountry: 'DEU' }, files())), `${fresh.path}/passkey`);
    });

    it('a resubmission of one document asks only that document; after it the requirement is met and the link completed', async () => {
      const customer = await refusedIdentityCustomer(server, acme);
      const link = await makeLink(server, acme, { type: 'individual', userId: customer.userId });
      const first = await getPage(server, link.path);
      assert.match(first.text, new RegExp(`href="${link.token}/documents"`));
      const page = await getPage(server, `${link.path}/documents`);
      assert.match(page.text, /The photo is blurred/);
      assert.match(page.text, /name="passport"/);
      assert.ok(!page.text.includes('name="proof_of_address"'), 'only the refused document is asked');
      const done = await postFiles(server, `${link.path}/documents`, { issuingCountry: 'USA' }, { passport: files().passport });
      assert.equal(done.status, 200, done.text);
      const user = (await acme.client.get(`/v1/query/get-user-details?userId=${customer.userId}`)).body;
      assert.deepEqual(user.requirements.currentlyDue, []);
      assert.equal(user.verificationStatus, 'under_review');
      assert.equal(user.termsVersion, null, 'a user made through the API keeps its terms');
      const view = await linkView(server, acme, link.id);
      assert.equal(view.status, 'completed');
      assert.equal(view.userId, customer.userId);
    });

    it('a link for a user who owes nothing: the first page says so and its Finish completes the link', async () => {
      const customer = await createCustomer(server, acme);
      const link = await makeLink(server, acme, { type: 'individual', userId: customer.userId, redirectUrl: 'https://app.example.com/back' });
      const first = await getPage(server, link.path);
      assert.match(first.text, /needs nothing more from you/);
      assert.match(first.text, new RegExp(`action="${link.token}/finish"`));
      assert.equal(nextPath(await getPage(server, `${link.path}/documents`)), link.path, 'no step is owed');
      const done = await postForm(server, `${link.path}/finish`, {});
      assert.equal(done.status, 200, done.text);
      assert.match(done.text, /href="https:\/\/app\.example\.com\/back"/);
      assert.deepEqual([(await linkView(server, acme, link.id)).status, (await linkView(server, acme, link.id)).userId], ['completed', customer.userId]);
      assert.equal((await postForm(server, `${link.path}/finish`, {})).status, 410);
    });
  });
}
