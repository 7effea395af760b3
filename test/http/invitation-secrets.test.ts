import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { backends } from '../harness/backends.js';
import { ownerInvitation, ownerlessEntity } from '../harness/invitations.js';
import { pageRequest, type PageAnswer } from '../harness/page-request.js';
import { useTenants } from '../harness/tenants.js';

/*
 * The hosted invitation page's token is a bearer secret in its URL (issue 33, item 2): no log line may carry it, at
 * the most verbose level, whichever route of the page is visited and however the URL is spelled; and the accept
 * route answers a bad token from the URL before it reads or parses a body.
 */

const DAY = 86_400_000;

/** A request as a browser on http://localhost:<port> sends it (harness/page-request.ts). */
const send = pageRequest;

/** Every byte percent-encoded: a spelling of the same path the router decodes to the same route. */
const percentEncoded = (text: string) => [...Buffer.from(text)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** Every spelling of `token` a log line could carry it in. */
function spellings(token: string): string[] {
  const secret = token.replace(/^inv_/, '');
  return [token, secret, secret.toLowerCase(), encodeURIComponent(token), percentEncoded(token), percentEncoded(secret), secret.slice(0, 24), secret.slice(-24)];
}

for (const backend of backends()) {
  describe(`invitation tokens stay out of the logs [${backend}]`, () => {
    const lines: string[] = [];
    const { server, tenants: [acme] } = useTenants(backend, ['Acme'], { LOG_LEVEL: 'trace' }, { logDestination: { write: (line: string) => void lines.push(line) } });

    it('every route of the page, at trace level, in every spelling of its URL: the log has [redacted] where the token was, and never the token', async () => {
      const { accountId } = await ownerlessEntity(server, acme);
      const { token } = await ownerInvitation(server, acme, accountId);
      const expired = (await ownerInvitation(server, acme, accountId)).token;
      lines.length = 0;

      const answers: [string, PageAnswer][] = [];
      const visit = async (what: string, method: string, path: string, options?: Parameters<typeof send>[3]) => {
        const answer = await send(server, method, path, options);
        answers.push([what, answer]);
        return answer;
      };
      const page = await visit('the page', 'GET', `/invitations/${token}`);
      assert.equal(page.status, 200, page.text);
      assert.equal(page.headers['referrer-policy'], 'no-referrer');
      assert.equal((await visit('the page, HEAD', 'HEAD', `/invitations/${token}`)).status, 200);
      for (const asset of ['invitation.js', 'invitation.css', 'icon.svg']) assert.equal((await visit(asset, 'GET', `/invitations/assets/${asset}`)).status, 200);
      const options = await visit('registration options', 'GET', `/invitations/${token}/registration-options`);
      assert.equal(options.status, 200, options.text);
      assert.equal(options.headers['referrer-policy'], 'no-referrer');
      assert.equal((await visit('registration options with a query', 'GET', `/invitations/${token}/registration-options?from=mail`)).status, 200);
      assert.equal((await visit('the page, percent-encoded', 'GET', `/invitations/${percentEncoded(token)}`)).status, 200);
      // A link with something after the token is the page of another (unknown) token: still the route's secret.
      assert.equal((await visit('the page, something after the token', 'GET', `/invitations/${token};utm=x`)).status, 404);

      const json = 'application/json';
      const refusals = [
        await visit('accept, malformed JSON', 'POST', `/invitations/${token}/accept`, { body: '{"firstName":', contentType: json }),
        await visit('accept, not JSON', 'POST', `/invitations/${token}/accept`, { body: 'a=b', contentType: 'text/plain' }),
        await visit('accept, no body', 'POST', `/invitations/${token}/accept`, { contentType: json }),
        await visit('accept, a forged passkey', 'POST', `/invitations/${token}/accept`, {
          body: JSON.stringify({ firstName: 'Ada', lastName: 'Lovelace', acceptTerms: true, authenticator: new SoftwareAuthenticator().authenticator() }),
          contentType: json,
        }),
      ];
      assert.deepEqual(refusals.map((r) => r.status), [400, 415, 400, 400]);
      for (const r of refusals) assert.equal(r.headers['referrer-policy'], 'no-referrer');
      // Links a mail client or a person spoiled: no route takes them (404, 405), and the URL is still not logged whole.
      for (const [what, method, path] of [
        ['a trailing slash', 'GET', `/invitations/${token}/`],
        ['an unknown sub-route', 'GET', `/invitations/${token}/favicon.ico`],
        ['upper case', 'GET', `/INVITATIONS/${token}`],
        ['a doubled slash', 'GET', `//invitations/${token}`],
        ['an encoded slash', 'GET', `/invitations%2F${token}`],
        ['the wrong method', 'POST', `/invitations/${token}`],
        ['the wrong method on accept', 'GET', `/invitations/${token}/accept`],
      ] as const) {
        const answer = await visit(what, method, path);
        assert.ok([404, 405].includes(answer.status), `${what}: ${answer.status} ${answer.text}`);
      }
      assert.equal((await visit('an invalid percent-encoding', 'GET', `/invitations/${token}%zz`)).status, 400);

      server.clock.advance(8 * DAY);
      assert.equal((await visit('an expired link', 'GET', `/invitations/${expired}`)).status, 410);
      assert.equal((await visit('accept on an expired link', 'POST', `/invitations/${expired}/accept`, { body: '{', contentType: json })).status, 410);

      const log = lines.join('\n');
      assert.equal(server.app.log.level, 'trace');
      const urls = lines.map((l) => JSON.parse(l) as { req?: { url?: string } }).flatMap((l) => (l.req?.url ? [l.req.url] : []));
      assert.ok(urls.length >= answers.length, `one incoming line per request: ${urls.length} for ${answers.length}`);
      assert.ok(urls.includes('/invitations/[redacted]'), urls.join('\n'));
      assert.ok(urls.includes('/invitations/[redacted]/registration-options?from=mail'), urls.join('\n'));
      assert.ok(urls.includes('/invitations/[redacted]/accept'), urls.join('\n'));
      assert.ok(urls.includes('/invitations/assets/invitation.js'), 'a URL without a secret is logged as it is');
      for (const spelling of [...spellings(token), ...spellings(expired)]) {
        const at = log.indexOf(spelling);
        assert.equal(at, -1, `the log carries ${spelling}: …${log.slice(Math.max(0, at - 300), at + 100)}…`);
      }
    });

    it('an accepted invitation: the whole flow of the page, no line with the token', async () => {
      const { accountId } = await ownerlessEntity(server, acme, 'Globex Robotics Inc.');
      const { token } = await ownerInvitation(server, acme, accountId);
      lines.length = 0;
      const options = await send(server, 'GET', `/invitations/${token}/registration-options`);
      assert.equal(options.status, 200, options.text);
      const passkey = new SoftwareAuthenticator({ origin: `http://localhost:${new URL(server.url).port}` });
      const accepted = await send(server, 'POST', `/invitations/${token}/accept`, {
        body: JSON.stringify({ firstName: 'Ada', lastName: 'Lovelace', acceptTerms: true, authenticator: passkey.authenticator({ challenge: options.json().challenge as string }) }),
        contentType: 'application/json',
      });
      assert.equal(accepted.status, 201, accepted.text);
      assert.equal(accepted.headers['referrer-policy'], 'no-referrer');
      assert.equal((await send(server, 'GET', `/invitations/${token}`)).status, 409);
      const log = lines.join('\n');
      assert.match(log, /\/invitations\/\[redacted\]\/accept/);
      for (const spelling of spellings(token)) assert.equal(log.indexOf(spelling), -1, `the log carries ${spelling}`);
    });
  });

  describe(`the accept route checks its token before its body [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme']);

    const unknown = () => `inv_${randomUUID().replace(/-/g, '').padEnd(43, 'x')}`;

    it('an unknown token with a malformed, non-JSON or oversized body is the token’s 404, not the body’s error', async () => {
      const malformed = await send(server, 'POST', `/invitations/${unknown()}/accept`, { body: '{"firstName":', contentType: 'application/json' });
      assert.deepEqual([malformed.status, malformed.json().code], [404, 'not_found'], malformed.text);
      const notJson = await send(server, 'POST', `/invitations/${unknown()}/accept`, { body: '<xml/>', contentType: 'application/xml' });
      assert.deepEqual([notJson.status, notJson.json().code], [404, 'not_found'], notJson.text);
      // 5 MB announced, not a byte sent: the answer comes from the URL alone, and the connection is not kept.
      const unsent = await send(server, 'POST', `/invitations/${unknown()}/accept`, { contentType: 'application/json', declaredLength: 5_000_000 });
      assert.deepEqual([unsent.status, unsent.json().code], [404, 'not_found'], unsent.text);
      assert.equal(unsent.headers.connection, 'close');
      assert.equal(unsent.headers['referrer-policy'], 'no-referrer');
    });

    it('an expired token is its 410 whatever the body; a live token with the same body gets the body’s error', async () => {
      const { accountId } = await ownerlessEntity(server, acme);
      const live = (await ownerInvitation(server, acme, accountId)).token;
      const malformed = await send(server, 'POST', `/invitations/${live}/accept`, { body: '{"firstName":', contentType: 'application/json' });
      assert.deepEqual([malformed.status, malformed.json().code], [400, 'malformed_json'], malformed.text);
      const notJson = await send(server, 'POST', `/invitations/${live}/accept`, { body: 'a=b', contentType: 'text/plain' });
      assert.deepEqual([notJson.status, notJson.json().code], [415, 'unsupported_media_type'], notJson.text);
      server.clock.advance(8 * DAY);
      const expired = await send(server, 'POST', `/invitations/${live}/accept`, { body: '{"firstName":', contentType: 'application/json' });
      assert.equal(expired.status, 410, expired.text);
    });
  });
}
