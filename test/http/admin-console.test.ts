import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CONSOLE_CSP, registerAdminConsole } from '../../src/http/admin/console.js';
import { registerProblemHandling } from '../../src/http/problem.js';
import { useTenants } from '../harness/tenants.js';

// How the server serves the console (the page itself is exercised in Chromium by test/e2e/admin-console.test.ts).
// scripts/run-tests.mjs builds dist/admin-console before the tests run.

const get = (url: string, method = 'GET') => fetch(url, { method, redirect: 'manual' });

function assertSecurityHeaders(response: Response): void {
  assert.equal(response.headers.get('content-security-policy'), CONSOLE_CSP);
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
  assert.equal(response.headers.get('x-frame-options'), 'DENY');
}

describe('admin console serving', () => {
  const { server } = useTenants('pglite', []);

  it('serves the page at /admin/ with a strict Content-Security-Policy; /admin redirects there', async () => {
    const redirect = await get(`${server.url}/admin`);
    assert.equal(redirect.status, 302);
    assert.equal(redirect.headers.get('location'), '/admin/');

    const page = await get(`${server.url}/admin/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type')!, /^text\/html/);
    assertSecurityHeaders(page);
    assert.equal(page.headers.get('cache-control'), 'no-cache');
    const html = await page.text();
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script (script-src is self only)');
    assert.doesNotMatch(html, /\sstyle=/, 'no inline style (style-src is self only)');

    const script = /<script[^>]*\bsrc="([^"]+)"/.exec(html)?.[1];
    assert.match(script!, /^\/admin\/assets\/.+\.js$/);
    const asset = await get(server.url + script);
    assert.equal(asset.status, 200);
    assert.match(asset.headers.get('content-type')!, /javascript/);
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assertSecurityHeaders(asset);
  });

  it('leaves /admin/api and unknown paths to the usual problems', async () => {
    for (const path of ['/admin/nothing-here', '/admin/index.html', '/admin/assets/nothing-here.js']) {
      const unknown = await get(server.url + path);
      assert.equal(unknown.status, 404, path);
      assert.match(unknown.headers.get('content-type')!, /application\/problem\+json/, path);
    }
    assert.notEqual((await get(`${server.url}/admin/assets/%2e%2e/index.html`)).status, 200, 'nothing outside assets/');

    const api = await get(`${server.url}/admin/api/whoami`);
    assert.equal(api.status, 401);
    assert.equal(((await api.json()) as { code: string }).code, 'missing_auth_headers');
    assert.equal(api.headers.get('content-security-policy'), null, 'the JSON API is unchanged');

    const unknownApi = await get(`${server.url}/admin/api/nothing-here`);
    assert.equal(unknownApi.status, 404);
    assert.equal(((await unknownApi.json()) as { code: string }).code, 'route_not_found');
    assert.equal((await get(`${server.url}/admin/api/whoami`, 'POST')).status, 405);
    assert.equal((await get(`${server.url}/admin/`, 'POST')).status, 405);
  });

  it('keeps the console out of the integrators’ OpenAPI document', async () => {
    const paths = Object.keys(((await (await get(`${server.url}/openapi.json`)).json()) as { paths: object }).paths);
    assert.deepEqual(
      paths.filter((p) => p.startsWith('/admin')),
      [],
    );
  });
});

describe('admin console without a build', () => {
  it('answers /admin/ with a 503 problem saying to run the build (the server still starts), and serves a later build', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'no-console-')), 'admin-console');
    const app = Fastify().withTypeProvider<TypeBoxTypeProvider>();
    registerProblemHandling(app);
    await registerAdminConsole(app, { dir });
    await app.ready();
    try {
      const response = await app.inject({ method: 'GET', url: '/admin/' });
      assert.equal(response.statusCode, 503);
      assert.match(response.headers['content-type'] as string, /application\/problem\+json/);
      const body = response.json() as { code: string; detail: string };
      assert.equal(body.code, 'service_unavailable');
      assert.match(body.detail, /npm run build/);
      assert.equal(response.headers['content-security-policy'], CONSOLE_CSP);
      assert.equal((await app.inject({ method: 'GET', url: '/admin' })).statusCode, 302);

      // The build is read at request time: no restart needed once it exists.
      mkdirSync(join(dir, 'assets'), { recursive: true });
      writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title><script type="module" src="/admin/assets/app.js"></script>');
      writeFileSync(join(dir, 'assets', 'app.js'), 'export {};');
      const built = await app.inject({ method: 'GET', url: '/admin/' });
      assert.equal(built.statusCode, 200);
      assert.match(built.body, /<title>console<\/title>/);
      assert.equal((await app.inject({ method: 'GET', url: '/admin/assets/app.js' })).statusCode, 200);
    } finally {
      await app.close();
    }
  });
});
