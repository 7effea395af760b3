import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { onboardingLinks } from '../../src/db/schema/index.js';
import { backends } from '../harness/backends.js';
import { createCustomer } from '../harness/customers.js';
import { eventsFor, rowsContaining } from '../harness/db.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { useTenants } from '../harness/tenants.js';

const email = (tag = 'customer') => `${tag}.${randomUUID()}@example.org`;
const LINK_KEYS = ['completedAt', 'createdAt', 'email', 'expiresAt', 'onboardingLinkId', 'openedAt', 'redirectUrl', 'status', 'type', 'updatedAt', 'userId'];

interface LinkAnswer {
  onboardingLinkId: string;
  type: string;
  status: string;
  userId: string | null;
  email: string | null;
  redirectUrl: string | null;
  expiresAt: string;
  openedAt: string | null;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string;
  url: string;
}

let clock: TestServer['clock'] | undefined;

/** Each request a second later: the same signed request twice in one second is a replay (duplicate_request). */
function later<T>(send: () => Promise<T>): Promise<T> {
  clock!.advance(1000);
  return send();
}

/** The integrator's client, each request sent a second later than the last. */
function call(who: SeededIntegrator) {
  return {
    get: (path: string) => later(() => who.client.get(path)),
    post: (path: string, body?: unknown) => later(() => who.client.post(path, body)),
    delete: (path: string) => later(() => who.client.delete(path)),
  };
}

async function makeLink(who: SeededIntegrator, body: Record<string, unknown>) {
  const res = await call(who).post('/v1/onboarding-links', body);
  assert.equal(res.status, 201, res.text);
  return res.body as LinkAnswer;
}

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
const eventTypes = async (server: TestServer, id: string) => (await eventsFor(server.database, id)).map((e) => e.type);
const withoutRequestId = (body: Record<string, unknown>) => ({ ...body, requestId: undefined });

for (const backend of backends()) {
  describe(`onboarding links API [${backend}]`, () => {
    const { server, tenants: [acme, globex] } = useTenants(backend, ['Acme Wallet', 'Globex']);
    before(() => {
      clock = server.clock;
    });

    it('makes a link: url on the invitation page’s base URL with a 256-bit token stored only as a hash, an hour by default, onboarding_link.created', async () => {
      const to = email();
      const link = await makeLink(acme, { type: 'individual', email: to, redirectUrl: 'https://app.example.com/done' });
      assert.deepEqual(Object.keys(link).sort(), [...LINK_KEYS, 'url'].sort());
      assert.deepEqual([link.status, link.type, link.email, link.userId, link.openedAt, link.completedAt], ['pending', 'individual', to, null, null, null]);
      assert.equal(Date.parse(link.expiresAt) - Date.parse(link.createdAt), 3_600_000);
      const token = tokenOf(link.url);
      assert.match(token, /^obl_[A-Za-z0-9_-]{43}$/);
      assert.equal(link.url, `${server.config.invitationBaseUrl}/onboarding/${token}`);
      assert.equal(link.url, `http://localhost:${server.config.port}/onboarding/${token}`);

      const [row] = await server.database.db.select().from(onboardingLinks).where(eq(onboardingLinks.id, link.onboardingLinkId));
      assert.ok(row && row.tokenHash !== token && !row.tokenHash.includes(token.slice(4)));
      assert.deepEqual(await rowsContaining(server.database, token.slice(4)), [], 'the token is stored nowhere in clear');

      const read = await call(acme).get(`/v1/onboarding-links/${link.onboardingLinkId}`);
      assert.equal(read.status, 200, read.text);
      const { url: _url, ...view } = link;
      assert.deepEqual(read.body, view, 'GET shows the link without its url');
      const events = await eventsFor(server.database, link.onboardingLinkId);
      assert.deepEqual(events.map((e) => [e.type, e.objectType]), [['onboarding_link.created', 'onboarding_link']]);
      assert.deepEqual((events[0]!.data as { object: unknown }).object, view);
      assert.ok(!JSON.stringify(events).includes(token.slice(4)), 'no event carries the token');
    });

    it('expiresInSeconds from 60 s to 24 h; bad fields are 400 with pointers', async () => {
      const short = await makeLink(acme, { type: 'entity', expiresInSeconds: 60 });
      assert.equal(Date.parse(short.expiresAt) - Date.parse(short.createdAt), 60_000);
      const long = await makeLink(acme, { type: 'individual', expiresInSeconds: 86_400, redirectUrl: 'http://localhost:3000/back' });
      assert.equal(Date.parse(long.expiresAt) - Date.parse(long.createdAt), 86_400_000);
      assert.equal(long.redirectUrl, 'http://localhost:3000/back', 'http to localhost is allowed in the sandbox');

      const cases: [Record<string, unknown>, string, string][] = [
        [{ type: 'individual', expiresInSeconds: 59 }, '/expiresInSeconds', 'out_of_range'],
        [{ type: 'individual', expiresInSeconds: 86_401 }, '/expiresInSeconds', 'out_of_range'],
        [{ type: 'person' }, '/type', 'invalid_value'],
        [{}, '/type', 'required'],
        [{ type: 'individual', email: 'not-an-address' }, '/email', 'invalid_email'],
        [{ type: 'individual', redirectUrl: 'http://app.example.com/done' }, '/redirectUrl', 'https_required'],
        [{ type: 'individual', redirectUrl: 'javascript:alert(1)' }, '/redirectUrl', 'invalid_url'],
        [{ type: 'individual', userId: 'nope' }, '/userId', 'invalid_format'],
        [{ type: 'individual', extra: 1 }, '/extra', 'unknown_field'],
      ];
      for (const [body, pointer, code] of cases) {
        const res = await call(acme).post('/v1/onboarding-links', body);
        assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
        assert.equal(res.body.type, '/problems/validation_failed');
        const named = (res.body.errors as { pointer: string; code: string }[]).map((e) => [e.pointer, e.code]);
        assert.ok(named.some(([p, c]) => p === pointer && c === code), `${JSON.stringify(body)}: ${JSON.stringify(named)}`);
      }
    });

    it('a new link for the same customer revokes the earlier one: the same address for a new individual, the same userId', async () => {
      const to = email();
      const first = await makeLink(acme, { type: 'individual', email: to });
      const entityLink = await makeLink(acme, { type: 'entity', email: to });
      const second = await makeLink(acme, { type: 'individual', email: to.toUpperCase() });
      assert.equal((await call(acme).get(`/v1/onboarding-links/${first.onboardingLinkId}`)).body.status, 'revoked');
      assert.equal((await call(acme).get(`/v1/onboarding-links/${entityLink.onboardingLinkId}`)).body.status, 'pending', 'another type is another customer');
      assert.equal((await call(acme).get(`/v1/onboarding-links/${second.onboardingLinkId}`)).body.status, 'pending');
      const revoked = await eventsFor(server.database, first.onboardingLinkId);
      assert.deepEqual(revoked.map((e) => e.type), ['onboarding_link.created', 'onboarding_link.revoked']);
      assert.deepEqual((revoked[1]!.data as { previousAttributes: unknown }).previousAttributes, { status: 'pending' });
      const otherIntegrator = await makeLink(globex, { type: 'individual', email: to });
      assert.equal((await call(acme).get(`/v1/onboarding-links/${second.onboardingLinkId}`)).body.status, 'pending', 'another integrator’s customer is another customer');
      assert.equal(otherIntegrator.status, 'pending');

      const customer = await createCustomer(server, acme, { approve: false });
      const forUser = await makeLink(acme, { type: 'individual', userId: customer.userId });
      assert.equal(forUser.userId, customer.userId);
      const again = await makeLink(acme, { type: 'individual', userId: customer.userId, email: email() });
      assert.equal((await call(acme).get(`/v1/onboarding-links/${forUser.onboardingLinkId}`)).body.status, 'revoked');
      assert.equal(again.status, 'pending');

      const foreignUser = await call(globex).post('/v1/onboarding-links', { type: 'individual', userId: customer.userId });
      const missingUser = await call(globex).post('/v1/onboarding-links', { type: 'individual', userId: randomUUID() });
      assert.deepEqual([foreignUser.status, missingUser.status], [404, 404]);
      assert.deepEqual(withoutRequestId(foreignUser.body), withoutRequestId(missingUser.body), 'another integrator’s user is a missing one');
    });

    it('another integrator’s link is indistinguishable from a missing one', async () => {
      const link = await makeLink(acme, { type: 'individual' });
      for (const method of ['get', 'delete'] as const) {
        const foreign = await call(globex)[method](`/v1/onboarding-links/${link.onboardingLinkId}`);
        const missing = await call(globex)[method](`/v1/onboarding-links/${randomUUID()}`);
        assert.deepEqual([foreign.status, missing.status], [404, 404], foreign.text);
        assert.deepEqual(withoutRequestId(foreign.body), withoutRequestId(missing.body));
      }
      assert.equal((await call(acme).get(`/v1/onboarding-links/${link.onboardingLinkId}`)).body.status, 'pending');
    });

    it('DELETE revokes (204, again 204); a completed link cannot be revoked (409)', async () => {
      const link = await makeLink(acme, { type: 'individual' });
      const deleted = await call(acme).delete(`/v1/onboarding-links/${link.onboardingLinkId}`);
      assert.equal(deleted.status, 204, deleted.text);
      assert.equal(deleted.text, '');
      assert.equal((await call(acme).delete(`/v1/onboarding-links/${link.onboardingLinkId}`)).status, 204);
      assert.equal((await call(acme).get(`/v1/onboarding-links/${link.onboardingLinkId}`)).body.status, 'revoked');
      assert.deepEqual(await eventTypes(server, link.onboardingLinkId), ['onboarding_link.created', 'onboarding_link.revoked']);
      const completeRevoked = await call(acme).post('/v1/sandbox/simulate-onboarding-link', { onboardingLinkId: link.onboardingLinkId, outcome: 'opened' });
      assert.equal(completeRevoked.body.status, 'revoked', 'a revoked link does not open');
    });

    it('sandbox: opened once, completed with the userId (onboarding_link.opened, .completed); closed links refuse', async () => {
      const customer = await createCustomer(server, acme, { approve: false });
      const link = await makeLink(acme, { type: 'individual', email: email() });
      const opened = await call(acme).post('/v1/sandbox/simulate-onboarding-link', { onboardingLinkId: link.onboardingLinkId, outcome: 'opened' });
      assert.equal(opened.status, 200, opened.text);
      assert.equal(opened.body.status, 'opened');
      assert.ok(opened.body.openedAt);
      const twice = await call(acme).post('/v1/sandbox/simulate-onboarding-link', { onboardingLinkId: link.onboardingLinkId, outcome: 'opened' });
      assert.equal(twice.body.openedAt, opened.body.openedAt);
      const noUser = await call(acme).post('/v1/sandbox/simulate-onboarding-link', { onboardingLinkId: link.onboardingLinkId, outcome: 'completed' });
      assert.equal(noUser.status, 400, noUser.text);
      assert.equal(noUser.body.errors[0].pointer, '/userId');
      const completed = await call(acme).post('/v1/sandbox/simulate-onboarding-link', { onboardingLinkId: link.onboardingLinkId, outcome: 'completed', userId: customer.userId });
      assert.equal(completed.status, 200, completed.text);
      assert.deepEqual([completed.body.status, completed.body.userId], ['completed', customer.userId]);
      const read = await call(acme).get(`/v1/onboarding-links/${link.onboardingLinkId}`);
      assert.deepEqual([read.body.status, read.body.userId], ['completed', customer.userId]);
      const events = await eventsFor(server.database, link.onboardingLinkId);
      assert.deepEqual(events.map((e) => e.type), ['onboarding_link.created', 'onboarding_link.opened', 'onboarding_link.completed']);
      assert.equal((events[2]!.data as { object: { userId: string } }).object.userId, customer.userId);

      const revoke = await call(acme).delete(`/v1/onboarding-links/${link.onboardingLinkId}`);
      assert.equal(revoke.status, 409, revoke.text);
      assert.equal(revoke.body.code, 'onboarding_link_closed');
      const again = await call(acme).post('/v1/sandbox/simulate-onboarding-link', { onboardingLinkId: link.onboardingLinkId, outcome: 'completed', userId: customer.userId });
      assert.equal(again.status, 409, again.text);

      const other = await createCustomer(server, acme, { approve: false });
      const forUser = await makeLink(acme, { type: 'individual', userId: customer.userId });
      const wrongUser = await call(acme).post('/v1/sandbox/simulate-onboarding-link', { onboardingLinkId: forUser.onboardingLinkId, outcome: 'completed', userId: other.userId });
      assert.equal(wrongUser.status, 400, wrongUser.text);
      const ownUser = await call(acme).post('/v1/sandbox/simulate-onboarding-link', { onboardingLinkId: forUser.onboardingLinkId, outcome: 'completed' });
      assert.deepEqual([ownUser.status, ownUser.body.userId], [200, customer.userId]);
    });

    it('expiry: on read at its date, and by the mail sender’s round, each once with onboarding_link.expired', async () => {
      const read = await makeLink(acme, { type: 'individual', expiresInSeconds: 60 });
      const swept = await makeLink(acme, { type: 'entity', expiresInSeconds: 60 });
      const alive = await makeLink(acme, { type: 'individual', expiresInSeconds: 3_600 });
      server.clock.advance(61_000);
      const answer = await call(acme).get(`/v1/onboarding-links/${read.onboardingLinkId}`);
      assert.equal(answer.body.status, 'expired', answer.text);
      assert.equal((await call(acme).get(`/v1/onboarding-links/${read.onboardingLinkId}`)).body.status, 'expired');
      await server.mail.runOnce();
      const [row] = await server.database.db.select().from(onboardingLinks).where(eq(onboardingLinks.id, swept.onboardingLinkId));
      assert.equal(row!.status, 'expired');
      for (const id of [read.onboardingLinkId, swept.onboardingLinkId]) assert.deepEqual(await eventTypes(server, id), ['onboarding_link.created', 'onboarding_link.expired']);
      assert.equal((await call(acme).get(`/v1/onboarding-links/${alive.onboardingLinkId}`)).body.status, 'pending');
      const revoke = await call(acme).delete(`/v1/onboarding-links/${read.onboardingLinkId}`);
      assert.deepEqual([revoke.status, revoke.body.code], [409, 'onboarding_link_closed']);
    });

    it('a read-only credential cannot make or revoke links', async () => {
      const viewer = await server.seedIntegrator('Viewer', 'read_only');
      assert.equal((await call(viewer).post('/v1/onboarding-links', { type: 'individual' })).status, 403);
    });
  });
}
