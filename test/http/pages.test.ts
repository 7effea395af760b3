import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { frontPage } from '../../src/http/pages/front-page.js';
import { PAGE_CSP, prefersHtml } from '../../src/http/pages/page-layout.js';
import { API_VERSION } from '../../src/version.js';
import { startServer, type TestServer } from '../harness/server.js';

// The front door and the HTML 404 (docs/pages.md), black-box: which requests get a page and which keep the JSON
// APIs' RFC 9457 problem, by method, path and Accept header.

/** Chromium's Accept for a navigation. */
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';

describe('pages: the front door and the HTML 404', () => {
  it('ranks HTML above JSON only when the Accept header does', () => {
    assert.equal(prefersHtml(BROWSER), true);
    assert.equal(prefersHtml('text/html'), true);
    assert.equal(prefersHtml('text/*, application/json;q=0.5'), true);
    for (const accept of [undefined, '', '*/*', 'application/json', 'application/problem+json', 'text/html, application/json', 'text/html;q=0', 'application/json, text/html;q=0.9', 'garbage']) {
      assert.equal(prefersHtml(accept), false, String(accept));
    }
  });

  it('shows the environment it runs in, escaped', () => {
    assert.match(frontPage('production'), /id="environment" class="env env-production">production</);
    assert.match(frontPage('sandbox'), />sandbox</);
  });

  it('says how an operator gets a token: the admin CLI command, with its --name', () => {
    assert.match(frontPage('sandbox'), /<code>npm run -s admin -- operators create --name &lt;name&gt;<\/code>/);
  });

  describe('served', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer('pglite');
    });
    after(() => server?.close());

    const request = async (path: string, init: { method?: string; accept?: string } = {}) => {
      const res = await fetch(`${server.url}${path}`, { method: init.method ?? 'GET', headers: init.accept ? { accept: init.accept } : {} });
      return { status: res.status, type: res.headers.get('content-type') ?? '', headers: res.headers, text: await res.text() };
    };

    it('GET / is the front page whatever the Accept header, with its version, environment and links; HEAD / too', async () => {
      for (const accept of [BROWSER, undefined, 'application/json']) {
        const res = await request('/', { accept });
        assert.equal(res.status, 200, String(accept));
        assert.match(res.type, /^text\/html; charset=utf-8/);
        assert.equal(res.headers.get('content-security-policy'), PAGE_CSP);
        assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
        assert.ok(res.text.includes(`<strong>${API_VERSION}</strong>`), 'version');
        assert.match(res.text, /id="environment"[^>]*>sandbox</);
        for (const href of ['/docs', '/guides', '/admin', '/livez', '/readyz']) assert.ok(res.text.includes(`href="${href}"`), href);
        assert.match(res.text, /<meta name="viewport"/);
        assert.doesNotMatch(res.text, /<script/i);
      }
      const head = await request('/', { method: 'HEAD', accept: BROWSER });
      assert.equal(head.status, 200);
      assert.match(head.type, /^text\/html/);
      assert.equal(head.text, '');
    });

    it('an unknown path asked for as a page is the HTML 404 (GET and HEAD), any other client keeps the problem', async () => {
      for (const path of ['/nope', '/guides/nope', '/admin/nope', '/docs/nope/deeper', '/%22%3E%3Cscript%3Ealert(1)%3C/script%3E']) {
        const page = await request(path, { accept: BROWSER });
        assert.equal(page.status, 404, path);
        assert.match(page.type, /^text\/html; charset=utf-8/, path);
        assert.equal(page.headers.get('content-security-policy'), PAGE_CSP, path);
        assert.match(page.text, /<h1>Page not found<\/h1>/, path);
        assert.doesNotMatch(page.text, /<script/i, path);
        assert.ok(page.text.includes('href="/"'), path);
        const head = await request(path, { method: 'HEAD', accept: BROWSER });
        assert.equal(head.status, 404, `HEAD ${path}`);
        assert.match(head.type, /^text\/html/, `HEAD ${path}`);
        for (const accept of [undefined, '*/*', 'application/json']) {
          const problem = await request(path, { accept });
          assert.equal(problem.status, 404, `${path} ${accept}`);
          assert.match(problem.type, /^application\/problem\+json/, `${path} ${accept}`);
        }
      }
    });

    it('the JSON APIs answer problems even to a browser: /v1, /admin/api, other methods, and 405', async () => {
      for (const path of ['/v1/nope', '/v1', '/admin/api/nope']) {
        const res = await request(path, { accept: BROWSER });
        assert.equal(res.status, 404, path);
        assert.match(res.type, /^application\/problem\+json/, path);
        assert.equal(JSON.parse(res.text).code, 'route_not_found', path);
      }
      const post = await request('/nope', { method: 'POST', accept: BROWSER });
      assert.equal(post.status, 404);
      assert.match(post.type, /^application\/problem\+json/);
      const wrongMethod = await request('/invitations/abc/accept', { accept: BROWSER });
      assert.equal(wrongMethod.status, 405);
      assert.match(wrongMethod.type, /^application\/problem\+json/);
      assert.equal(wrongMethod.headers.get('allow'), 'POST');
    });

    it('lists the guides grouped, Start here first and Quickstart first in it, titles without backticks', async () => {
      const res = await request('/guides', { accept: BROWSER });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-security-policy'), PAGE_CSP);
      const groups = [...res.text.matchAll(/<h2 id="[^"]*">([^<]+)<\/h2>/g)].map((m) => m[1]);
      assert.deepEqual(groups, ['Start here', 'Integrate', 'Operate', 'Internals']);
      const first = /<h2[^>]*>Start here<\/h2>\s*<ul>\s*<li><a href="([^"]+)">(.*?)<\/a>/.exec(res.text);
      assert.equal(first?.[1], '/guides/quickstart');
      assert.match(first?.[2] ?? '', /^Quickstart: from <code>npm ci<\/code>/);
      assert.doesNotMatch(res.text, /`/, 'no raw backticks');
    });
  });
});
