import type { FastifyReply, FastifyRequest } from 'fastify';
import { scrubBearerTokens } from '../../logging.js';
import { escapeHtml, htmlPage, PAGE_HEADERS, wantsHtmlPage } from './page-layout.js';

/** How much of an unknown path the page repeats. */
const MAX_SHOWN = 120;

/** A hosted page's token in the path (a link cut or extended) is not repeated: the page shows `[redacted]`. */
export function notFoundPage(path: string): string {
  const safe = scrubBearerTokens(path);
  const shown = safe.length > MAX_SHOWN ? `${safe.slice(0, MAX_SHOWN)}…` : safe;
  return htmlPage(
    'Page not found',
    `<h1>Page not found</h1>
<p>There is no page at <code>${escapeHtml(shown)}</code> on this server.</p>
<ul>
<li><a href="/">The front page</a>: what this server is, and its links</li>
<li><a href="/guides">Guides</a></li>
<li><a href="/docs">API reference</a></li>
</ul>
`,
  );
}

/**
 * An onSend hook: a 404 problem answered to a request for an HTML page (page-layout.ts wantsHtmlPage) is shown as
 * the HTML 404 page instead. The problem handler still decides what the answer is (404, or 405 with Allow), so
 * the JSON API and every client that does not ask for HTML keep their RFC 9457 body.
 */
export function htmlNotFound(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void): void {
  // A callback hook: it runs on every answer of the server, and an async one costs a promise each time.
  if (reply.statusCode !== 404 || !wantsHtmlPage(request)) return done(null, payload);
  if (!String(reply.getHeader('content-type') ?? '').startsWith('application/problem+json')) return done(null, payload);
  reply.headers({ ...PAGE_HEADERS, 'cache-control': 'no-store' });
  reply.type('text/html; charset=utf-8');
  done(null, notFoundPage(request.url.split('?')[0] ?? '/'));
}

/** The router's refusal of a URL it cannot read (bad percent-encoding, a segment too long), for a browser. */
export function badAddressPage(): string {
  return htmlPage(
    'This address cannot be read',
    `<h1>This address cannot be read</h1>
<p>The link is damaged or cut. Open it again from where you found it, or ask for a new one.</p>
<p><a href="/">The front page</a></p>
`,
  );
}
