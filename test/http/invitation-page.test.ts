import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { backends } from '../harness/backends.js';
import { outboxMessage, tokenIn } from '../harness/invitations.js';
import { pageRequest, type PageAnswer } from '../harness/page-request.js';
import { asMember, post, teamAccount, type TeamAccount } from '../harness/members.js';
import type { TestServer } from '../harness/server.js';
import { useTenants } from '../harness/tenants.js';

const DAY = 86_400_000;
const email = (tag = 'invitee') => `${tag}.${randomUUID()}@example.org`;

/** A request to the server as the browser sends it to http://localhost:<port> (the sandbox relying party), a body as JSON. */
const page = (server: TestServer, method: string, path: string, body?: unknown): Promise<PageAnswer> =>
  pageRequest(server, method, path, body === undefined ? {} : { body: JSON.stringify(body), contentType: 'application/json' });

for (const backend of backends()) {
  describe(`the hosted page over HTTP [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme <Wallet>'], { AUTH_FAILURE_LIMIT: '3' });
    let team: TeamAccount;

    before(async () => {
      team = await teamAccount(server, acme, { active: false });
    });

    async function invite(role = 'viewer') {
      const to = email();
      const res = await post(server, acme, '/v1/submit/create-invitation', asMember(server, team, team.owner, 'create-invitation', { accountId: team.accountId, email: to, role }));
      assert.equal(res.status, 201, res.text);
      return { invitationId: res.body.invitationId as string, token: tokenIn((await outboxMessage(acme, res.body.invitationId)).text), email: to };
    }

    it('serves the page with strict headers and escaped values; accepts a passkey over a challenge it issued', async () => {
      const { token, email: to } = await invite('approver');
      const html = await page(server, 'GET', `/invitations/${token}`);
      assert.equal(html.status, 200);
      assert.match(String(html.headers['content-type']), /^text\/html/);
      assert.equal(html.headers['referrer-policy'], 'no-referrer');
      assert.equal(html.headers['cache-control'], 'no-store');
      assert.match(String(html.headers['content-security-policy']), /default-src 'none'.*script-src 'self'/);
      assert.match(html.text, /<html lang="en">/);
      assert.match(html.text, /on Acme &lt;Wallet&gt; as an <strong>approver<\/strong>/);
      assert.match(html.text, /<dd id="role"><strong>approver<\/strong>: proposes, approves and rejects transactions<\/dd>/, 'the role in words');
      assert.match(html.text, /I accept the <a href="\/invitations\/terms" target="_blank" rel="noopener noreferrer">service terms<\/a> of Acme &lt;Wallet&gt;/);
      assert.match(html.text, /<section id="next" hidden>[\s\S]*sign in with [^<]*@example\.org/, 'what to do next, shown once accepted');
      const terms = await page(server, 'GET', '/invitations/terms');
      assert.deepEqual([terms.status, String(terms.headers['content-type']).split(';')[0]], [200, 'text/html']);
      assert.match(terms.text, /Service terms \(sandbox\)/);
      // A configuration problem (this host is under no WEBAUTHN_RP_IDS entry) reaches the invitee as an end user's sentence.
      const { port } = new URL(server.url);
      const misconfigured = await pageRequest(server, 'GET', `/invitations/${token}/registration-options`, { host: `elsewhere.example:${port}` });
      assert.equal(misconfigured.status, 503);
      assert.match(String(misconfigured.json().detail), /^Invitations cannot be accepted here right now/);
      assert.doesNotMatch(JSON.stringify(misconfigured.json()), /WEBAUTHN|INVITATION_BASE_URL|docs\//, 'no configuration detail for the invitee');
      assert.doesNotMatch(html.text, /<script>|style=/, 'no inline script or style');
      const script = await page(server, 'GET', '/invitations/assets/invitation.js');
      assert.deepEqual([script.status, String(script.headers['content-type']).split(';')[0]], [200, 'text/javascript']);

      const options = await page(server, 'GET', `/invitations/${token}/registration-options`);
      assert.equal(options.status, 200, options.text);
      const { challenge, rp } = options.json() as { challenge: string; rp: { id: string } };
      assert.equal(rp.id, 'localhost');
      const passkey = new SoftwareAuthenticator({ origin: `http://localhost:${new URL(server.url).port}` });
      const forged = await page(server, 'POST', `/invitations/${token}/accept`, { firstName: 'Ada', lastName: 'Lovelace', acceptTerms: true, authenticator: passkey.authenticator() });
      assert.equal(forged.status, 400, forged.text);
      assert.equal((forged.json().errors as { pointer: string }[])[0]!.pointer, '/authenticator/challenge');
      const noTerms = await page(server, 'POST', `/invitations/${token}/accept`, { firstName: 'Ada', lastName: 'Lovelace', acceptTerms: false, authenticator: passkey.authenticator({ challenge }) });
      assert.equal(noTerms.status, 400, noTerms.text);
      const accepted = await page(server, 'POST', `/invitations/${token}/accept`, { firstName: 'Ada', lastName: 'Lovelace', acceptTerms: true, authenticator: passkey.authenticator({ challenge }) });
      assert.equal(accepted.status, 201, accepted.text);
      assert.deepEqual(accepted.json(), { status: 'accepted', role: 'approver', roleName: 'approver' });
      const members = await acme.client.get(`/v1/query/list-members?accountId=${team.accountId}`);
      const member = members.body.data.find((m: { email: string }) => m.email === to);
      assert.deepEqual([member?.role, member?.firstName], ['approver', 'Ada']);
      assert.equal((await acme.client.get(`/v1/query/get-user-details?userId=${member.userId}`)).body.isPasskeyActivated, true);
      const used = await page(server, 'GET', `/invitations/${token}`);
      assert.equal(used.status, 409);
      assert.match(used.text, /already used, or is no longer valid/);
      const again = await page(server, 'POST', `/invitations/${token}/accept`, { firstName: 'Ada', lastName: 'Lovelace', acceptTerms: true, authenticator: passkey.authenticator({ challenge }) });
      assert.equal(again.status, 409);
      assert.match(String(again.json().detail), /^This invitation was already used, or is no longer valid\. If you still need access/, 'the script shows an end user’s sentence');
    });

    it('an expired link is 410; unknown tokens count as failed authentications of the address (429 past the limit)', async () => {
      const { token } = await invite();
      server.clock.advance(7 * DAY);
      const expired = await page(server, 'GET', `/invitations/${token}`);
      assert.equal(expired.status, 410);
      assert.match(expired.text, /expired/);
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await page(server, 'GET', `/invitations/inv_${randomUUID().replace(/-/g, '').padEnd(43, 'x')}`)).status);
      assert.deepEqual(statuses, [404, 404, 404, 429]);
      const limited = await page(server, 'GET', `/invitations/${randomUUID()}/registration-options`);
      assert.deepEqual([limited.status, limited.json().code], [429, 'auth_rate_limited']);
      assert.ok(Number(limited.headers['retry-after']) > 0);
    });
  });

}
