import type { AppEnv } from '../../config/types.js';
import { API_VERSION } from '../../version.js';
import type { Api } from '../types.js';
import { escapeHtml, FAVICON, FAVICON_PATH, htmlPage, PAGE_HEADERS, PRODUCT_NAME } from './page-layout.js';

/**
 * GET / : the front door (docs/pages.md). Someone who opens the server's address in a browser learns what it is,
 * which version and environment answer, and where the reference, the guides, the console and the probes are.
 * Nothing on it depends on the request, so it is rendered once.
 */
export function frontPage(appEnv: AppEnv): string {
  const sandbox = appEnv !== 'production';
  const env = sandbox
    ? 'Sandbox: simulated banks and verification, "Try it out" in the API reference signs requests in your browser.'
    : 'Production: real money and real customers; "Try it out" is off, send requests with the SDK or its CLI.';
  const link = (href: string, text: string, what: string) => `<dt><a href="${href}">${escapeHtml(text)}</a></dt><dd>${what}</dd>`;
  return htmlPage(
    `${PRODUCT_NAME} ${API_VERSION}`,
    `<h1>${PRODUCT_NAME}</h1>
<p>The server businesses (integrators) build on: onboard end users and companies, run their verification, move money
and crypto, and receive signed webhooks. Every request to <code>/v1</code> is signed with the integrator's P-256 key.</p>
<p id="version">Version <strong>${escapeHtml(API_VERSION)}</strong> ·
<span id="environment" class="env env-${escapeHtml(appEnv)}">${escapeHtml(appEnv)}</span></p>
<p>${escapeHtml(env)}</p>
<h2>Start here</h2>
<dl>
${link('/guides/quickstart', 'Quickstart', 'from <code>npm ci</code> to a completed transfer and a verified webhook')}
${link('/docs', 'API reference', 'every <code>/v1</code> operation (the document itself: <a href="/openapi.json">/openapi.json</a>)')}
${link('/guides', 'Guides', 'authentication, errors, webhooks, transactions, deployment and more')}
</dl>
<h2>Operators</h2>
<dl>
${link('/admin', 'Admin console', 'compliance officers review cases with an operator token, which <code>npm run -s admin -- operators create --name &lt;name&gt;</code> prints on the server\'s machine (<a href="/guides/review">review guide</a>)')}
${link('/admin/docs', 'Operator API reference', 'the <code>/admin/api</code> operations (<a href="/admin/openapi.json">/admin/openapi.json</a>)')}
</dl>
<h2>Health</h2>
<dl>
${link('/livez', '/livez', 'the process is up')}
${link('/readyz', '/readyz', 'the process can serve requests (its database answers)')}
</dl>
`,
  );
}

export function registerFrontPage(app: Api, appEnv: AppEnv): void {
  const page = frontPage(appEnv);
  // no-cache: the version and environment shown must be the server's after a deploy.
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.headers({ ...PAGE_HEADERS, 'cache-control': 'no-cache' }).type('text/html; charset=utf-8').send(page));
  app.get(FAVICON_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.headers({ ...PAGE_HEADERS, 'cache-control': 'public, max-age=86400' }).type('image/svg+xml').send(FAVICON),
  );
}
