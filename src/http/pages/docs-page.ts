// The shell of both API references (docs/pages.md): the integrators' (/docs) and the operators' (/admin/docs). Our
// page around swagger-ui instead of the one @fastify/swagger-ui writes, so it has a viewport and the product's name
// in its bar, linking back to the front page, instead of swagger-ui's stock top bar. /docs has no "Authorize" dialog
// (a per-request signature cannot be typed into it once: the signing panel of docs-try-it-out.ts signs instead);
// /admin/docs keeps it (an operator token is one bearer token). The page runs swagger-ui's own files and the theme
// files, nothing inline.
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppEnv } from '../../config/types.js';
import { API_VERSION } from '../../version.js';
import { escapeHtml, PRODUCT_NAME } from './page-layout.js';

export const DOCS_PREFIX = '/docs';

/** What tells the two references apart: where each is served, what its bar says and links to, its theme script. */
export interface DocsPage {
  prefix: string;
  title: string;
  nav: readonly (readonly [href: string, text: string])[];
  /** A theme script of the page (served under `${prefix}/static/theme/`), if any. */
  themeJs?: string;
}

export const INTEGRATOR_DOCS: DocsPage = {
  prefix: DOCS_PREFIX,
  title: 'API reference',
  nav: [
    ['/guides', 'Guides'],
    ['/guides/authentication', 'Signing requests'],
    ['/openapi.json', 'openapi.json'],
  ],
};

export const OPERATOR_DOCS: DocsPage = {
  prefix: '/admin/docs',
  title: 'Operator API reference',
  nav: [
    ['/admin', 'Admin console'],
    ['/docs', 'Integrator API reference'],
    ['/admin/openapi.json', 'admin/openapi.json'],
  ],
};

/**
 * The page only ever talks to its own origin: swagger-ui's files, the document (/docs/json) and Try it out (the
 * document's server is `/`). No inline script or style, nothing from elsewhere, never framed. A pasted key sits in
 * this page, so what may run in it and where it may send things is as narrow as swagger-ui allows.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export const DOCS_STYLE = `.docs-bar { display: flex; flex-wrap: wrap; gap: 4px 20px; align-items: baseline; padding: 10px 20px; background: #1b1f24; color: #d0d5dc; font-family: sans-serif; font-size: 14px; }
.docs-bar a { color: #fff; text-decoration: none; }
.docs-bar .docs-product { font-size: 18px; font-weight: bold; }
.docs-bar nav { display: flex; gap: 16px; margin-left: auto; }
.docs-sign-link { font-family: sans-serif; font-size: 14px; color: #4990e2; }
.docs-panel { box-sizing: border-box; max-width: 1460px; margin: 16px auto 0; padding: 12px 20px; font-family: sans-serif; font-size: 14px; color: #3b4151; border: 1px solid #d8dde7; border-radius: 4px; background: #f7f9fc; }
.docs-panel h2 { margin: 0 0 6px; font-size: 16px; }
.docs-panel p { margin: 6px 0; line-height: 1.4; }
.docs-panel .docs-key-row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin: 8px 0; }
.docs-panel input { flex: 1 1 420px; min-width: 0; padding: 6px 8px; font-family: monospace; font-size: 13px; border: 1px solid #b8c0cc; border-radius: 4px; }
.docs-panel button { padding: 6px 14px; font-size: 13px; font-weight: bold; border: 1px solid #4990e2; border-radius: 4px; background: #fff; color: #4990e2; cursor: pointer; }
.docs-panel button[hidden] { display: none; }
.docs-panel [role="status"] { font-weight: bold; overflow-wrap: anywhere; }
.docs-panel [role="status"].docs-error { color: #b00020; }
.docs-panel.docs-notice { border-color: #e0b44c; background: #fff8e6; }
`;

/** The page: swagger-ui's stylesheets and scripts from its static folder, then the theme's. */
export function docsShell(appEnv: AppEnv, page: DocsPage): string {
  const STATIC = `${page.prefix}/static`;
  const nav = page.nav.map(([href, text]) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(page.title)} · ${PRODUCT_NAME}</title>
<link rel="stylesheet" href="${STATIC}/swagger-ui.css">
<link rel="stylesheet" href="${STATIC}/index.css">
<link rel="stylesheet" href="${STATIC}/theme/docs.css">
<link rel="icon" type="image/png" href="${STATIC}/favicon-32x32.png" sizes="32x32">
</head>
<body>
<header class="docs-bar"><a class="docs-product" href="/">${PRODUCT_NAME}</a>
<span>${escapeHtml(page.title)} · version ${escapeHtml(API_VERSION)} · ${escapeHtml(appEnv)}</span>
<nav>${nav}</nav></header>
<div id="swagger-ui"></div>
<script src="${STATIC}/swagger-ui-bundle.js"></script>
<script src="${STATIC}/swagger-ui-standalone-preset.js"></script>
<script src="${STATIC}/swagger-initializer.js"></script>
${page.themeJs ? `<script src="${STATIC}/theme/${page.themeJs}"></script>` : ''}
</body>
</html>
`;
}

/** swagger-ui's onRequest hook for its routes: the index (/docs, /docs/; /admin/docs, /admin/docs/) is answered with our shell. */
export function shellHook(appEnv: AppEnv, docs: DocsPage): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const page = docsShell(appEnv, docs);
  return async (request, reply) => {
    const url = request.routeOptions.url;
    if (url === docs.prefix || url === `${docs.prefix}/`) await reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
  };
}

/**
 * The operators' reference in the same shell as the integrators' (swagger-ui's BaseLayout: no stock top bar), with
 * swagger-ui's own Authorize dialog for the operator token.
 */
export function operatorDocsUi(appEnv: AppEnv): Pick<FastifySwaggerUiOptions, 'uiConfig' | 'theme' | 'staticCSP' | 'uiHooks'> {
  return {
    staticCSP: DOCS_CSP,
    uiHooks: { onRequest: shellHook(appEnv, OPERATOR_DOCS) },
    uiConfig: { docExpansion: 'list', deepLinking: true, layout: 'BaseLayout' },
    theme: { title: OPERATOR_DOCS.title, css: [{ filename: 'docs.css', content: DOCS_STYLE }] },
  };
}

/**
 * swagger-ui plugins, as functions whose source @fastify/swagger-ui copies into the page (hence `new Function`:
 * the text is exactly this whatever compiles the server). The first keeps the plugin the standalone set-up would
 * have; the second replaces the Authorize button by a link to `panelId` (the signing panel, or the production
 * notice) and drops the per-operation lock buttons, which open the same dialog.
 */
export function docsPlugins(panelId: string, pointer: string): unknown[] {
  const downloadUrl = new Function('system', 'return SwaggerUIBundle.plugins.DownloadUrl(system);');
  const noAuthorize = new Function(
    'system',
    `var React = system.React;
var link = function () { return React.createElement('a', { className: 'docs-sign-link', href: ${JSON.stringify(`#${panelId}`)} }, ${JSON.stringify(pointer)}); };
var nothing = function () { return null; };
return { wrapComponents: { authorizeBtn: function () { return link; }, authorizeOperationBtn: function () { return nothing; } } };`,
  );
  return [downloadUrl, noAuthorize];
}
