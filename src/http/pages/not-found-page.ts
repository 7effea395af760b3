import { scrubBearerTokens } from '../../logging.js';
import { escapeHtml, htmlPage } from './page-layout.js';

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
