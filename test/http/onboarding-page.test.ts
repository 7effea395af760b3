import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { backends } from '../harness/backends.js';
import { createCustomer } from '../harness/customers.js';
import { eventsFor } from '../harness/db.js';
import { useTenants } from '../harness/tenants.js';

/*
 * The hosted onboarding page (issue 57, pinned): /onboarding/<token> serves HTML and marks the link opened the first
 * time; a used, revoked or expired link is an HTML 410 saying which, an unknown one an HTML 404; no log line carries
 * the token, at trace level.
 */
for (const backend of backends()) {
  describe(`hosted onboarding page [${backend}]`, () => {
    const lines: string[] = [];
    const { server, tenants: [acme] } = useTenants(backend, ['Acme Wallet'], { LOG_LEVEL: 'trace' }, { logDestination: { write: (line: string) => void lines.push(line) } });

    async function link(body: Record<string, unknown>) {
      server.clock.advance(1000);
      const res = await acme.client.post('/v1/onboarding-links', body);
      assert.equal(res.status, 201, res.text);
      return { id: res.body.onboardingLinkId as string, path: new URL(res.body.url as string).pathname, token: (res.body.url as string).split('/').pop()! };
    }
    const page = async (path: string) => {
      const res = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
      return { status: res.status, headers: res.headers, text: await res.text() };
    };
    const statusOf = async (id: string) => {
      server.clock.advance(1000);
      return (await acme.client.get(`/v1/onboarding-links/${id}`)).body.status as string;
    };

    it('serves the page: opened the first time (one event), the redirect linked, the page’s headers, no token in any log line', async () => {
      const customer = await createCustomer(server, acme, { approve: false });
      const made = await link({ type: 'individual', userId: customer.userId, redirectUrl: 'https://app.example.com/done?step=2' });
      lines.length = 0;
      const first = await page(made.path);
      assert.equal(first.status, 200, first.text);
      assert.match(first.headers.get('content-type')!, /^text\/html/);
      assert.equal(first.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(first.headers.get('cache-control'), 'no-store');
      assert.match(first.headers.get('content-security-policy')!, /default-src 'none'/);
      assert.match(first.text, /<html lang="en">/);
      assert.match(first.text, /Onboarding with Acme Wallet/);
      assert.match(first.text, /href="https:\/\/app\.example\.com\/done\?step=2"/);
      assert.equal(await statusOf(made.id), 'opened');
      assert.equal((await page(made.path)).status, 200, 'served again while live');
      assert.deepEqual((await eventsFor(server.database, made.id)).map((e) => e.type), ['onboarding_link.created', 'onboarding_link.opened']);
      const logged = lines.join('');
      assert.ok(logged.includes('/onboarding/[redacted]'), 'the page’s requests are logged, redacted');
      assert.ok(!logged.includes(made.token.slice(4, 30)), 'no log line carries the token');
    });

    it('a used, revoked or expired link is an HTML 410 saying which; an unknown or malformed one an HTML 404', async () => {
      const customer = await createCustomer(server, acme, { approve: false });
      const used = await link({ type: 'individual', userId: customer.userId });
      server.clock.advance(1000);
      assert.equal((await acme.client.post('/v1/sandbox/simulate-onboarding-link', { onboardingLinkId: used.id, outcome: 'completed' })).status, 200);
      const revoked = await link({ type: 'entity' });
      server.clock.advance(1000);
      assert.equal((await acme.client.delete(`/v1/onboarding-links/${revoked.id}`)).status, 204);
      const expired = await link({ type: 'individual', expiresInSeconds: 60 });
      server.clock.advance(61_000);

      for (const [made, words] of [[used, /already used/], [revoked, /revoked/], [expired, /expired/]] as const) {
        const answer = await page(made.path);
        assert.equal(answer.status, 410, answer.text);
        assert.match(answer.headers.get('content-type')!, /^text\/html/);
        assert.match(answer.text, words);
      }
      assert.equal(await statusOf(expired.id), 'expired');
      assert.deepEqual((await eventsFor(server.database, expired.id)).map((e) => e.type), ['onboarding_link.created', 'onboarding_link.expired']);
      assert.equal(await statusOf(revoked.id), 'revoked', 'a closed link is not opened');

      for (const path of [`/onboarding/obl_${randomBytes(32).toString('base64url')}`, '/onboarding/not-a-token']) {
        const unknown = await page(path);
        assert.equal(unknown.status, 404, unknown.text);
        assert.match(unknown.headers.get('content-type')!, /^text\/html/);
        assert.match(unknown.text, /not valid/);
      }
    });
  });
}
