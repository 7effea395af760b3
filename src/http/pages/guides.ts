import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Marked, type Tokens } from 'marked';
import { notFound } from '../../domain/errors.js';
import { packageRoot } from '../admin/console.js';
import type { Api } from '../types.js';

/**
 * The guides (docs/*.md) served as HTML pages at /guides/<name>, so the links of the OpenAPI documents and of
 * /docs lead somewhere on the server itself. Our own text, rendered once at start-up: links between guides
 * become /guides/ links, headings get GitHub's anchors (docs link to #sections), and the page runs no script.
 */

export const GUIDES_PREFIX = '/guides';

const GUIDES_CSP = ["default-src 'none'", "img-src 'self'", "style-src 'unsafe-inline'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'none'"].join('; ');
const HEADERS = { 'content-security-policy': GUIDES_CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'public, max-age=300' };
const IMAGE = /^[a-z0-9-]+\.png$/;

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens; repeats numbered -1, -2, ... */
export function headingSlugger(): (text: string) => string {
  const seen = new Map<string, number>();
  return (text) => {
    const base = text
      .toLowerCase()
      .replace(/<[^>]*>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .trim()
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}-${n}`;
  };
}

/** A guide link's target on this server: `webhooks.md#retries` is /guides/webhooks#retries; others as written. */
export function guideHref(href: string): string {
  const m = /^(?:\.\/|docs\/)?([a-z0-9-]+)\.md(#[^\s]*)?$/.exec(href);
  return m ? `${GUIDES_PREFIX}/${m[1]}${m[2] ?? ''}` : href;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderGuide(markdown: string): { title: string; html: string } {
  const slug = headingSlugger();
  let title = '';
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, { tokens, depth, text }: Tokens.Heading) {
        if (depth === 1 && !title) title = text;
        return `<h${depth} id="${escapeHtml(slug(text))}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
      link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, { href, title: linkTitle, tokens }: Tokens.Link) {
        const label = this.parser.parseInline(tokens);
        return `<a href="${escapeHtml(guideHref(href))}"${linkTitle ? ` title="${escapeHtml(linkTitle)}"` : ''}>${label}</a>`;
      },
      image({ href, text }: Tokens.Image) {
        const file = /^images\/([a-z0-9-]+\.png)$/.exec(href)?.[1];
        return file ? `<img src="${GUIDES_PREFIX}/images/${file}" alt="${escapeHtml(text)}">` : escapeHtml(text);
      },
    },
  });
  const body = marked.parse(markdown, { async: false });
  return { title, html: page(title, body) };
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Integrator API guides</title>
<style>
body{font:16px/1.55 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
pre{background:#f4f5f7;padding:.8rem;overflow:auto;border-radius:4px}code{font-size:.92em}
table{border-collapse:collapse}td,th{border:1px solid #d0d5dc;padding:.3rem .5rem;vertical-align:top}
img{max-width:100%}nav{margin-bottom:1.5rem}
</style></head>
<body><nav><a href="${GUIDES_PREFIX}">Guides</a> · <a href="/docs">API reference</a></nav>
${body}</body></html>
`;
}

/** Every guide, rendered once; `dir` is docs/ of the package unless a test says otherwise. */
export function loadGuides(dir: string = join(packageRoot(), 'docs')): Map<string, { title: string; html: string }> {
  const guides = new Map<string, { title: string; html: string }>();
  for (const file of readdirSync(dir).sort()) {
    const m = /^([a-z0-9-]+)\.md$/.exec(file);
    if (m) guides.set(m[1]!, renderGuide(readFileSync(join(dir, file), 'utf8')));
  }
  return guides;
}

export function registerGuides(api: Api, dir: string = join(packageRoot(), 'docs')): void {
  const guides = loadGuides(dir);
  const index = page(
    'Guides',
    `<h1>Guides</h1>\n<ul>\n${[...guides].map(([name, g]) => `<li><a href="${GUIDES_PREFIX}/${name}">${escapeHtml(g.title || name)}</a></li>`).join('\n')}\n</ul>\n`,
  );
  api.get(GUIDES_PREFIX, { schema: { hide: true } }, async (_request, reply) => reply.headers(HEADERS).type('text/html; charset=utf-8').send(index));
  api.get<{ Params: { name: string } }>(`${GUIDES_PREFIX}/:name`, { schema: { hide: true } }, async (request, reply) => {
    const guide = guides.get(request.params.name);
    if (!guide) throw notFound('Guide');
    return reply.headers(HEADERS).type('text/html; charset=utf-8').send(guide.html);
  });
  api.get<{ Params: { file: string } }>(`${GUIDES_PREFIX}/images/:file`, { schema: { hide: true } }, async (request, reply) => {
    const file = request.params.file;
    if (!IMAGE.test(file)) throw notFound('Image');
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(dir, 'images', file));
    } catch {
      throw notFound('Image');
    }
    return reply.headers(HEADERS).type('image/png').send(bytes);
  });
}
