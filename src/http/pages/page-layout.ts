import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/**
 * The shell of the server's own HTML pages (the front page, the guides, the HTML 404): one stylesheet, inline and
 * allowed by its hash, and no script at all. Every value written into a page goes through escapeHtml.
 */

export const PRODUCT_NAME = 'Integrator API';

/** The pages' icon (front-page.ts serves it): linked, so a browser does not ask for /favicon.ico and get a 404. */
export const FAVICON_PATH = '/favicon.svg';
export const FAVICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1b1f24"/><path d="M4 4h8M8 4v8M4 12h8" stroke="#fff" stroke-width="1.6"/></svg>';

export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `body{font:16px/1.55 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
pre{background:#f4f5f7;padding:.8rem;overflow:auto;border-radius:4px}code{font-size:.92em}
table{border-collapse:collapse}td,th{border:1px solid #d0d5dc;padding:.3rem .5rem;vertical-align:top}
img{max-width:100%}nav{margin-bottom:1.5rem}dt{font-weight:600}dd{margin:0 0 .6rem 1.2rem}
.env{display:inline-block;padding:0 .45rem;border-radius:4px;background:#e6f0ff;font-size:.9em}
.env-production{background:#ffe9d6}`;

/** Only the style above (by its hash) and same-origin images; no script, never framed, no forms. */
export const PAGE_CSP = [
  "default-src 'none'",
  "img-src 'self'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export const PAGE_HEADERS = {
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/** A whole page: `title` is plain text (escaped here), `body` is HTML the caller built from escaped values. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
<style>${STYLE}</style></head>
<body><nav><a href="/">${PRODUCT_NAME}</a> · <a href="/guides">Guides</a> · <a href="/docs">API reference</a></nav>
${body}</body></html>
`;
}

interface Range {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(accept: string): Range[] {
  const ranges: Range[] = [];
  for (const part of accept.split(',')) {
    const [media = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const [type, subtype] = media.split('/');
    if (!type || !subtype) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    ranges.push({ type, subtype, q: Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0 });
  }
  return ranges;
}

/** The quality the ranges give one media type: the most specific matching range decides (RFC 9110 §12.5.1). */
function quality(ranges: Range[], type: string, subtype: string): number {
  const exact = ranges.find((r) => r.type === type && r.subtype === subtype);
  const typeWide = ranges.find((r) => r.type === type && r.subtype === '*');
  const any = ranges.find((r) => r.type === '*' && r.subtype === '*');
  return (exact ?? typeWide ?? any)?.q ?? 0;
}

/**
 * Whether an Accept header ranks HTML above JSON: a browser's does (text/html, then *\/*;q=0.8); curl's *\/*, none
 * at all, or a tie leaves the API's answer, JSON.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  const html = Math.max(quality(ranges, 'text', 'html'), quality(ranges, 'application', 'xhtml+xml'));
  const json = Math.max(quality(ranges, 'application', 'json'), quality(ranges, 'application', 'problem+json'));
  return html > 0 && html > json;
}

/** The JSON APIs: their answers are always JSON, whatever the Accept header says. */
const JSON_API = /^\/(?:v1|admin\/api)(?:\/|$)/;

/**
 * Whether a request is for an HTML page, and so gets an HTML page as its 404: a GET or HEAD outside /v1 and
 * /admin/api whose Accept prefers text/html (docs/pages.md#which-requests-get-html).
 */
export function wantsHtmlPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? '/';
  return !JSON_API.test(path) && prefersHtml(request.headers.accept);
}
