import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { guideHref, headingSlugger, renderGuide } from '../../src/http/pages/guides.js';
import { linkGuideMentions } from '../../src/http/openapi-links.js';
import { startServer, type TestServer } from '../harness/server.js';

// The guides (docs/*.md) as pages of the server, and every link to them: from both OpenAPI documents (so /docs
// never points at a repository path) and between the guides themselves, anchors included.

describe('guide pages and links', () => {
  it('renders GitHub anchors, links between guides to /guides, images from /guides/images, and no raw HTML from links', () => {
    const slug = headingSlugger();
    assert.deepEqual(['Following events (long poll)', 'Roles', 'Roles', 'What `code` means: 4xx'].map(slug), ['following-events-long-poll', 'roles', 'roles-1', 'what-code-means-4xx']);
    assert.equal(guideHref('webhooks.md#retries'), '/guides/webhooks#retries');
    assert.equal(guideHref('./otp.md'), '/guides/otp');
    assert.equal(guideHref('https://example.com/a.md'), 'https://example.com/a.md');
    const { title, html } = renderGuide('# Members\n\n## Roles\n\nSee [quorum](members.md#quorum) and ![q](images/admin-queue.png).\n');
    assert.equal(title, 'Members');
    assert.match(html, /<h2 id="roles">Roles<\/h2>/);
    assert.match(html, /<a href="\/guides\/members#quorum">quorum<\/a>/);
    assert.match(html, /<img src="\/guides\/images\/admin-queue.png" alt="q">/);
    assert.match(renderGuide('[x](<a" onclick="y>)').html, /<a href="a&#34; onclick=&#34;y">x<\/a>/, 'attributes stay quoted');
    assert.equal(linkGuideMentions('see docs/members.md#quorum and [x](docs/otp.md)'), 'see [docs/members.md#quorum](/guides/members#quorum) and [x](docs/otp.md)');
  });

  describe('served', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer('pglite');
    });
    after(() => server?.close());

    const get = async (path: string) => {
      const res = await fetch(`${server.url}${path}`);
      return { status: res.status, type: res.headers.get('content-type') ?? '', csp: res.headers.get('content-security-policy') ?? '', text: await res.text() };
    };
    const pages = new Map<string, string>();
    /** The page of a /guides link, fetched once; asserts it is served and that its anchor exists. */
    async function assertResolves(link: string, from: string): Promise<void> {
      const [path, anchor] = link.split('#') as [string, string | undefined];
      if (!pages.has(path)) {
        const page = await get(path);
        assert.equal(page.status, 200, `${link} (from ${from}) is served`);
        pages.set(path, page.text);
      }
      if (anchor) assert.ok(pages.get(path)!.includes(` id="${anchor}"`), `${link} (from ${from}): the anchor #${anchor} exists`);
    }

    it('links every guide mention of both OpenAPI documents to a page that exists, anchor included', async () => {
      for (const path of ['/openapi.json', '/admin/openapi.json']) {
        const text = JSON.stringify(await (await fetch(`${server.url}${path}`)).json());
        const links = [...text.matchAll(/\]\((\/guides[^)]*)\)/g)].map((m) => m[1]!);
        assert.ok(links.length >= 10, `${path} links the guides`);
        for (const link of new Set(links)) await assertResolves(link, path);
        const unlinked = [...text.matchAll(/(?<!\[)docs\/[a-z0-9-]+\.md(#[a-z0-9-]+)?(?!\]\()/g)].map((m) => m[0]);
        assert.deepEqual(unlinked, [], `${path}: guide mentions that are not links`);
      }
    });

    it('serves every guide as a script-free page whose links to other guides resolve', async () => {
      const index = await get('/guides');
      assert.equal(index.status, 200);
      const names = [...index.text.matchAll(/href="\/guides\/([a-z0-9-]+)"/g)].map((m) => m[1]!);
      for (const name of ['quickstart', 'authentication', 'webhooks', 'members', 'errors']) assert.ok(names.includes(name), `${name} is listed`);
      for (const name of names) {
        const page = await get(`/guides/${name}`);
        assert.equal(page.status, 200);
        assert.match(page.type, /^text\/html/);
        assert.match(page.csp, /default-src 'none'/);
        assert.doesNotMatch(page.text, /<script/i);
        pages.set(`/guides/${name}`, page.text);
        for (const m of page.text.matchAll(/(?:href|src)="(\/guides\/[^"]+)"/g)) await assertResolves(m[1]!, `/guides/${name}`);
      }
    });

    it('answers 404 to an unknown guide or image, and to paths outside docs/', async () => {
      for (const path of ['/guides/nope', '/guides/..%2Fpackage', '/guides/images/nope.png', '/guides/images/..%2F..%2Fpackage.json', '/guides/README']) {
        const res = await get(path);
        assert.equal(res.status, 404, path);
        assert.match(res.type, /problem\+json/, path);
      }
    });
  });
});
