import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Marked, type Tokens } from 'marked';
import { notFound } from '../../domain/errors.js';
import { packageRoot } from '../admin/console.js';
import type { Api } from '../types.js';
import { groupGuides } from './guide-groups.js';
import { escapeHtml, htmlPage, PAGE_HEADERS, PRODUCT_NAME } from './page-layout.js';

/**
 * The guides (docs/*.md) served as HTML pages at /guides/<name>, so the links of the OpenAPI documents and of
 * /docs lead somewhere on the server itself. Our own text, rendered once at start-up: links between guides
 * become /guides/ links, headings get GitHub's anchors (docs link to #sections), and the page runs no script.
 */

export const GUIDES_PREFIX = '/guides';

const HEADERS = { ...PAGE_HEADERS, 'cache-control': 'public, max-age=300' };
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

/** A rendered guide: its title as plain text (no backticks) and as HTML (`code` as <code>), and its page. */
export interface Guide {
  title: string;
  titleHtml: string;
  html: string;
}

export function renderGuide(markdown: string): Guide {
  const slug = headingSlugger();
  let title = '';
  let titleHtml = '';
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, { tokens, depth, text }: Tokens.Heading) {
        const inline = this.parser.parseInline(tokens);
        if (depth === 1 && !title) [title, titleHtml] = [text.replace(/`/g, ''), inline];
        return `<h${depth} id="${escapeHtml(slug(text))}">${inline}</h${depth}>\n`;
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
  return { title: flat(title), titleHtml: flat(titleHtml), html: flat(htmlPage(`${title} · ${PRODUCT_NAME} guides`, body)) };
}

/**
 * A flat copy of a string. marked builds a page as a rope, one piece per fragment: the guides held at start were
 * some 95,000 objects (an eighth of the API's idle heap), which every full collection marked; and a title sliced out of
 * the Markdown kept the whole file alive. One flat string each instead (docs/benchmarks.md, issue 55).
 */
function flat(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** The index: the guides in their groups (guide-groups.ts), each linked by its title. */
export function guidesIndex(guides: Map<string, Guide>): string {
  const item = (name: string) => {
    const g = guides.get(name)!;
    return `<li><a href="${GUIDES_PREFIX}/${name}">${g.titleHtml || escapeHtml(name)}</a></li>`;
  };
  const groups = groupGuides(guides.keys()).map(
    (group) => `<section><h2 id="${headingSlugger()(group.title)}">${escapeHtml(group.title)}</h2>\n<ul>\n${group.guides.map(item).join('\n')}\n</ul></section>`,
  );
  return htmlPage(`${PRODUCT_NAME} guides`, `<h1>Guides</h1>\n${groups.join('\n')}\n`);
}

const rendered = new Map<string, { version: string; guides: Map<string, Guide> }>();

/**
 * Every guide, rendered once per process while its files are unchanged (rendering them all took about 250 ms of CPU,
 * at each start of an app: tests start dozens in one process); `dir` is docs/ of the package unless a test says otherwise.
 */
export function loadGuides(dir: string = join(packageRoot(), 'docs')): Map<string, Guide> {
  const files = readdirSync(dir)
    .sort()
    .flatMap((file) => {
      const name = /^([a-z0-9-]+)\.md$/.exec(file)?.[1];
      return name ? [{ name, path: join(dir, file) }] : [];
    });
  const version = files.map((f) => `${f.name}:${statSync(f.path).mtimeMs}`).join(',');
  const known = rendered.get(dir);
  if (known?.version === version) return known.guides;
  const guides = new Map(files.map((f) => [f.name, renderGuide(readFileSync(f.path, 'utf8'))]));
  rendered.set(dir, { version, guides });
  return guides;
}

export function registerGuides(api: Api, dir: string = join(packageRoot(), 'docs')): void {
  const guides = loadGuides(dir);
  const index = guidesIndex(guides);
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
