import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { importPrivateKey } from '../../src/crypto/p256.js';
import { signRequest } from '../../src/crypto/request-signature.js';
import { createOperator } from '../../src/domain/operators/operators.js';
import { adminRequest } from '../harness/admin.js';
import { backends } from '../harness/backends.js';
import { openApiChecker, type OpenApiDoc } from '../harness/openapi.js';
import { californian, signedAt } from '../harness/fixtures.js';
import type { TestServer } from '../harness/server.js';
import { useTenants } from '../harness/tenants.js';
import type { Problem } from '../harness/types.js';

// Security review, class 1: bodies are read only for callers whose key, timestamp and credential pass, within the
// operation's limit and a bound on large bodies at once; the signature is checked on the raw bytes before any
// parsing; nesting is bounded. Class 7: failed authentications are limited per source address.

const MiB = 1024 * 1024;

interface Upload {
  /** Resolves with the response as soon as the server answers, whether or not the body was all sent. */
  /** Every answer these tests read is a problem (the body when there is one). */
  response: Promise<{ status: number; headers: IncomingMessage['headers']; body: Problem }>;
  /** Sends the rest of the body. */
  finish(): void;
  /** Bytes written so far. */
  sent(): number;
}

/**
 * Starts a request declaring `declared` bytes and writes only `first` of them: the rest waits for finish(). An
 * answer that arrives before finish() proves the server decided without the body.
 */
function upload(url: string, path: string, headers: Record<string, string>, body: Buffer, first: number): Upload {
  let written = 0;
  const req = httpRequest(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...headers } });
  const response = new Promise<{ status: number; headers: IncomingMessage['headers']; body: Problem }>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined });
      });
    });
    // A server that closes while we still write is expected (Connection: close); the answer came first.
    req.on('error', (err) => (written < body.length ? undefined : reject(err)));
  });
  req.write(body.subarray(0, first));
  written = first;
  return {
    response,
    finish() {
      req.end(body.subarray(first));
      written = body.length;
    },
    sent: () => written,
  };
}

for (const backend of backends()) {
  describe(`request bodies and authentication failures [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme'], { AUTH_FAILURE_LIMIT: '5', LARGE_BODY_CONCURRENCY: '1', RATE_LIMIT_MAX: '100000' });
    let operatorToken: string;

    before(async () => {
      operatorToken = (await createOperator(server.database, 'Olga', server.clock.now())).token;
    });

    const signed = (method: string, path: string, body: Buffer | string, privateKey = acme.privateKey): Record<string, string> => ({
      ...signRequest(importPrivateKey(privateKey), String(server.clock.seconds()), method, path, body),
    });

    /** A create-user body padded with a large description field, so it is valid JSON of about `size` bytes. */
    function largeCreateUser(size: number): Buffer {
      const base = { userInfo: californian(), partnerSignedAgreementId: 'agr-1', serviceTermsSignedAt: signedAt() };
      const text = JSON.stringify(base);
      return Buffer.from(`${text.slice(0, -1)},"padding":"${'x'.repeat(Math.max(0, size - text.length - 14))}"}`);
    }

    it('refuses an unsigned 47 MiB upload before reading it: the answer comes while the body is unsent, and the connection closes', async () => {
      const body = largeCreateUser(47 * MiB);
      const up = upload(server.url, '/v1/submit/create-user', {}, body, 1024);
      const res = await up.response;
      assert.equal(up.sent(), 1024, 'answered before the body was sent');
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'missing_auth_headers');
      assert.equal(res.headers.connection, 'close');
      up.finish();
    });

    it('refuses before the body: unknown key, deactivated key, stale timestamp', async () => {
      const body = largeCreateUser(8 * MiB);
      const stranger = await server.seedIntegrator('Gone');
      await server.database.db.execute(sql`update credentials set active = false where public_key = ${stranger.publicKey}`);
      const cases: [Record<string, string>, string][] = [
        [signed('POST', '/v1/submit/create-user', body, '0x' + '11'.repeat(32)), 'unknown_credential'],
        [signed('POST', '/v1/submit/create-user', body, stranger.privateKey), 'credential_inactive'],
        [{ ...signed('POST', '/v1/submit/create-user', body), 'X-Timestamp': String(server.clock.seconds() - 3600) }, 'timestamp_out_of_window'],
      ];
      for (const [headers, code] of cases) {
        const up = upload(server.url, '/v1/submit/create-user', headers, body, 4096);
        const res = await up.response;
        assert.equal(up.sent(), 4096, `${code}: answered before the body was sent`);
        assert.deepEqual([res.status, res.body.code], [401, code]);
        up.finish();
      }
    });

    it('checks the signature on the raw bytes: a known key with a body it did not sign is a 401, never a parse error', async () => {
      const body = Buffer.from('{"not": json at all');
      const headers = signed('POST', '/v1/submit/create-user', '{"other":"body"}');
      const res = await fetch(`${server.url}/v1/submit/create-user`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
      const problem = (await res.json()) as { code: string };
      assert.deepEqual([res.status, problem.code], [401, 'invalid_signature']);
    });

    it('limits bodies per operation: 1 MiB where no document is carried (413 before reading), 48 MiB on documents routes', async () => {
      const big = Buffer.from(JSON.stringify({ name: 'x'.repeat(2 * MiB), url: 'https://example.com/hook' }));
      const up = upload(server.url, '/v1/webhooks/subscriptions', signed('POST', '/v1/webhooks/subscriptions', big), big, 1024);
      const res = await up.response;
      assert.equal(up.sent(), 1024, 'a declared length over the limit is refused unread');
      assert.deepEqual([res.status, res.body.code], [413, 'payload_too_large']);
      up.finish();

      const doc = largeCreateUser(2 * MiB);
      const accepted = await acme.client.post('/v1/submit/create-user', undefined, { rawBody: doc });
      assert.equal(accepted.status, 400, accepted.text);
      assert.equal(accepted.body.code, 'validation_failed', 'read and validated: padding is an unknown field, not a size problem');
      assert.ok(accepted.body.errors.some((e: { pointer: string }) => e.pointer === '/padding'));
    });

    it('reads one large body at a time (LARGE_BODY_CONCURRENCY=1): a second one waits for the first to be answered', async () => {
      const bodyA = largeCreateUser(3 * MiB);
      const bodyB = largeCreateUser(3 * MiB + 10);
      server.clock.advance(1000);
      const first = upload(server.url, '/v1/submit/create-user', signed('POST', '/v1/submit/create-user', bodyA), bodyA, MiB);
      const order: string[] = [];
      // The first holds the only slot while half sent: the second, sent whole, must not be answered before it.
      const firstDone = first.response.then((r) => (order.push('first'), r));
      await new Promise((r) => setImmediate(r));
      const second = upload(server.url, '/v1/submit/create-user', signed('POST', '/v1/submit/create-user', bodyB), bodyB, bodyB.length);
      second.finish();
      const secondDone = second.response.then((r) => (order.push('second'), r));
      // Let the second get as far as it can: the first only finishes once the second has had its chance.
      await waitForServerToHold(server);
      first.finish();
      const [a, b] = await Promise.all([firstDone, secondDone]);
      assert.deepEqual([a.status, b.status], [400, 400]);
      assert.deepEqual(order, ['first', 'second']);
    });

    it('a large upload abandoned while it waits for its turn gives its turn back', async () => {
      const body = () => largeCreateUser(3 * MiB + Math.floor(Math.random() * 1000));
      server.clock.advance(1000);
      const holder = body();
      const first = upload(server.url, '/v1/submit/create-user', signed('POST', '/v1/submit/create-user', holder), holder, MiB);
      await waitForServerToHold(server);
      // The second waits behind the first, then its client goes away.
      const quitter = body();
      const abandoned = httpRequest(`${server.url}/v1/submit/create-user`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(quitter.length), ...signed('POST', '/v1/submit/create-user', quitter) },
      });
      abandoned.on('error', () => {});
      abandoned.write(quitter.subarray(0, 1024));
      await waitForServerToHold(server);
      abandoned.destroy();
      await waitForServerToHold(server);
      first.finish();
      assert.equal((await first.response).status, 400);
      // Had the abandoned one kept the only slot, this would wait 10 s and get a 503.
      server.clock.advance(1000);
      const next = body();
      const third = upload(server.url, '/v1/submit/create-user', signed('POST', '/v1/submit/create-user', next), next, next.length);
      third.finish();
      const answer = await third.response;
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
    });

    it('refuses a body nested 5,000 levels deep with a 400 naming the body, on the signed API and the operators API', async () => {
      const deep = `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`;
      server.clock.advance(1000);
      const res = await acme.client.post('/v1/webhooks/subscriptions', undefined, { rawBody: deep });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 'validation_failed');
      assert.deepEqual(res.body.errors, [{ pointer: '', code: 'too_deep', detail: 'arrays and objects may be nested at most 64 levels deep', in: 'body' }]);

      const admin = await fetch(`${server.url}/admin/api/deposits/REF/cancel`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${operatorToken}` },
        body: deep,
      });
      const problem = (await admin.json()) as { code: string; errors?: { code: string }[] };
      assert.deepEqual([admin.status, problem.code, problem.errors?.[0]?.code], [400, 'validation_failed', 'too_deep']);
    });

    it('limits failed signatures per source address (429 with Retry-After) while correctly signed requests are still served', async () => {
      server.clock.advance(61_000); // a fresh window
      const bad = () =>
        fetch(`${server.url}/v1/integrator/whoami`, { headers: { ...signed('GET', '/v1/integrator/whoami', ''), 'X-Signature': '0x3006020101020101' } });
      for (let i = 0; i < 5; i++) assert.equal((await bad()).status, 401);
      const limited = await bad();
      const text = await limited.text();
      const problem = JSON.parse(text) as { code: string };
      assert.deepEqual([limited.status, problem.code], [429, 'auth_rate_limited']);
      assert.ok(Number(limited.headers.get('retry-after')) > 0);
      const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as OpenApiDoc;
      openApiChecker(doc).assertConforms('GET', '/v1/integrator/whoami', { status: limited.status, headers: limited.headers, text, body: problem });

      const good = await acme.client.get('/v1/integrator/whoami');
      assert.equal(good.status, 200, 'a correctly signed request from the same address is served');

      server.clock.advance(61_000);
      assert.equal((await bad()).status, 401, 'a new window forgets the failures');
    });

    it('limits failed operator tokens the same way; the right token is still served', async () => {
      server.clock.advance(61_000);
      for (let i = 0; i < 5; i++) assert.equal((await adminRequest(server, 'GET', '/admin/api/whoami', { token: 'op_wrong' })).status, 401);
      const limited = await adminRequest(server, 'GET', '/admin/api/whoami', { token: 'op_wrong' });
      assert.deepEqual([limited.status, limited.body.code], [429, 'auth_rate_limited']);
      assert.ok(Number(limited.headers.get('retry-after')) > 0);
      const doc = (await (await fetch(`${server.url}/admin/openapi.json`)).json()) as OpenApiDoc;
      openApiChecker(doc).assertConforms('GET', '/admin/api/whoami', limited);
      assert.equal((await adminRequest(server, 'GET', '/admin/api/whoami', { token: operatorToken })).status, 200);
    });
  });
}

/**
 * Waits until the server has received the second upload's bytes into the kernel and had event-loop turns to act
 * on them: a round trip of a cheap request through the same server proves it is not blocked and has progressed.
 */
async function waitForServerToHold(server: TestServer): Promise<void> {
  for (let i = 0; i < 3; i++) await fetch(`${server.url}/livez`);
}
