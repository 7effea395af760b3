import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { ERROR_CODES } from '../../src/domain/errors.js';
import { backends } from '../harness/backends.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';
import type { FieldError, Problem } from '../harness/types.js';

for (const backend of backends()) {
  describe(`error responses [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;

    before(async () => {
      ({ server, tenants: [acme] } = await startTenants(backend, ['Acme'], { BODY_LIMIT_BYTES: '2048', RATE_LIMIT_MAX: '1000000' }));
    });
    after(() => server.close());

    /** A signed credential request with this body as it is written, not serialized from an object. */
    const postRaw = (rawBody: string, headers?: Record<string, string>) => acme.client.request('POST', '/v1/integrator/credentials', headers ? { rawBody, headers } : { rawBody });

    function assertProblemShape(body: Problem, status: number) {
      assert.equal(body.status, status);
      assert.equal(typeof body.title, 'string');
      assert.equal(typeof body.detail, 'string');
      assert.match(body.code, /^[a-z_]+$/);
      assert.equal(body.type, `/problems/${body.code}`);
      assert.match(body.requestId, /^req_/);
      assert.ok(Object.hasOwn(ERROR_CODES, body.code), `${body.code} is in the closed table`);
    }

    it('answers malformed JSON with 400 malformed_json', async () => {
      const res = await postRaw('{"label": "x", ');
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'malformed_json');
      assertProblemShape(res.body, 400);
    });

    it('refuses prototype-poisoning keys by pointer, and nothing is written', async () => {
      const before = (await acme.client.get('/v1/integrator/credentials')).body.credentials.length;
      server.clock.advance(1000);
      const res = await postRaw(
        // The third spelled with an escape: the same key once parsed, found all the same.
        '{"label":"x","scope":"read_only","meta":{"__proto__":{"admin":true}},"list":[{"constructor":{"prototype":{}}}],"m2":{"\\u005f_proto__":1}}',
      );
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 'validation_failed');
      assert.deepEqual(
        res.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code]),
        [
          ['/meta/__proto__', 'forbidden_field_name'],
          ['/list/0/constructor', 'forbidden_field_name'],
          ['/m2/__proto__', 'forbidden_field_name'],
        ],
      );
      assert.equal((await acme.client.get('/v1/integrator/credentials')).body.credentials.length, before);
    });

    it('accepts a byte order mark before the JSON', async () => {
      server.clock.advance(1000);
      const res = await postRaw('\uFEFF{"label":"bom","scope":"read_only"}');
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.credential.label, 'bom');
    });

    it('refuses NUL characters in any string or field name, by pointer (PostgreSQL cannot store them)', async () => {
      const res = await postRaw('{"label":"a\\u0000b","scope":"read_only","nested":{"x\\u0000":1},"list":["ok","\\u0000"]}');
      assert.equal(res.status, 400, res.text);
      assert.deepEqual(
        res.body.errors.map((e: FieldError) => [e.pointer, e.code]),
        [
          ['/label', 'invalid_characters'],
          ['/nested/x\u0000', 'invalid_characters'],
          ['/list/1', 'invalid_characters'],
        ],
      );
      // An escaped backslash followed by "u0000" is ordinary text.
      const fine = await postRaw('{"label":"a\\\\u0000b","scope":"read_only"}');
      assert.equal(fine.status, 201, fine.text);
      assert.equal(fine.body.credential.label, 'a\\u0000b');
    });

    it('answers a non-JSON content type with 415', async () => {
      const res = await postRaw('label=x', { 'content-type': 'application/x-www-form-urlencoded' });
      assert.equal(res.status, 415);
      assert.equal(res.body.code, 'unsupported_media_type');
      assertProblemShape(res.body, 415);
    });

    it('answers an oversized body with 413 payload_too_large', async () => {
      const res = await acme.client.post('/v1/integrator/credentials', { label: 'x'.repeat(4096), scope: 'read_only' });
      assert.equal(res.status, 413);
      assert.equal(res.body.code, 'payload_too_large');
    });

    it('answers unknown routes with 404 and wrong methods with 405 plus Allow, in the same shape', async () => {
      const missing = await acme.client.get('/v1/does-not-exist');
      assert.equal(missing.status, 404);
      assert.equal(missing.body.code, 'route_not_found');
      assertProblemShape(missing.body, 404);
      const wrong = await acme.client.request('PUT', '/v1/integrator/credentials');
      assert.equal(wrong.status, 405);
      assert.equal(wrong.headers.get('allow'), 'GET, POST');
      assertProblemShape(wrong.body, 405);
      const unsigned = await fetch(`${server.url}/nowhere`);
      assert.equal(unsigned.status, 404);
      assert.match(unsigned.headers.get('content-type') ?? '', /problem\+json/);
    });

    it('puts X-Request-Id on every response, success or failure', async () => {
      for (const res of [await acme.client.get('/v1/integrator/whoami'), await acme.client.get('/v1/nope'), await fetch(`${server.url}/livez`)]) {
        assert.match(res.headers.get('x-request-id') ?? '', /^req_[0-9a-f-]{36}$/);
      }
    });

    it('ignores a client-supplied request id', async () => {
      const res = await fetch(`${server.url}/livez`, { headers: { 'x-request-id': 'client-chosen-id' } });
      assert.match(res.headers.get('x-request-id') ?? '', /^req_/);
    });

    it('describes every error code at its problem type URI', async () => {
      const res = await fetch(`${server.url}/problems/duplicate_request`);
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { code: 'duplicate_request', status: 409, title: ERROR_CODES.duplicate_request.title });
      assert.equal((await fetch(`${server.url}/problems/no_such_code`)).status, 404);
      assert.equal((await fetch(`${server.url}/problems/constructor`)).status, 404);
    });

    it('never answers 5xx or a non-problem error to hostile input', async () => {
      const paths = fc.constantFrom(
        '/v1/integrator/credentials',
        '/v1/integrator/whoami',
        '/v1/integrator/credentials/0x02',
        '/v1/health',
        '/v1/integrator/credentials/%ZZ',
        '/v1/integrator/credentials/..%2f..%2f',
      );
      const methods = fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT');
      const bodies = fc.oneof(
        fc.json(),
        fc.string(),
        fc.constant('{"__proto__": {"admin": true}, "label": "x", "scope": "read_only"}'),
        fc.constant('{"constructor": {"prototype": {"x": 1}}}'),
        fc.constant('[]'),
        fc.constant('null'),
      );
      await fc.assert(
        fc.asyncProperty(methods, paths, bodies, async (method, path, rawBody) => {
          server.clock.advance(1000); // distinct timestamps: no replay refusals in the way
          const res = await acme.client.request(method, path, method === 'GET' ? {} : { rawBody });
          assert.ok(res.status < 500, `${method} ${path} ${rawBody} -> ${res.status} ${res.text}`);
          // Whatever the bytes, a correctly signed request is never an authentication failure.
          assert.notEqual(res.status, 401, `${method} ${path} ${rawBody} -> ${res.text}`);
          if (res.status >= 400) {
            assertProblemShape(res.body, res.status);
            assert.ok(!/at .*\.(ts|js):\d+/.test(res.text), 'no stack trace');
          }
        }),
        { numRuns: 150 },
      );
    });
  });

  describe(`rate limiting [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;
    let globex: SeededIntegrator;

    before(async () => {
      ({ server, tenants: [acme, globex] } = await startTenants(backend, ['Acme', 'Globex'], { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '3600' }));
    });
    after(() => server.close());

    it('limits per credential with RateLimit headers and a 429 problem with Retry-After', async () => {
      const first = await acme.client.get('/v1/integrator/whoami');
      assert.equal(first.headers.get('ratelimit-limit'), '3');
      assert.equal(first.headers.get('ratelimit-remaining'), '2');
      assert.ok(Number(first.headers.get('ratelimit-reset')) > 0);
      await acme.client.get('/v1/integrator/whoami');
      await acme.client.get('/v1/integrator/whoami');
      const limited = await acme.client.get('/v1/integrator/whoami');
      assert.equal(limited.status, 429);
      assert.equal(limited.body.code, 'rate_limited');
      assert.ok(Number(limited.headers.get('retry-after')) > 0);
      assert.deepEqual([limited.headers.get('ratelimit-limit'), limited.headers.get('ratelimit-remaining')], ['3', '0']);
      assert.equal(limited.headers.get('ratelimit-reset'), limited.headers.get('retry-after'));
      assert.match(limited.body.detail, /^Rate limit of 3 requests per 3600 s exceeded for this credential; the window ends in \d+ s$/);
      // The limit is decided before the body is parsed: a throttled caller's malformed JSON is a 429, not a 400.
      const unparsed = await acme.client.request('POST', '/v1/submit/create-individual-account', { rawBody: '{"email": ' });
      assert.deepEqual([unparsed.status, unparsed.body.code], [429, 'rate_limited']);
      // Another credential has its own budget; unsigned probes are never limited.
      assert.equal((await globex.client.get('/v1/integrator/whoami')).status, 200);
      for (let i = 0; i < 5; i++) assert.equal((await fetch(`${server.url}/livez`)).status, 200);
    });
  });
}
