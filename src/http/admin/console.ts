import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import type { Api } from '../types.js';

export const CONSOLE_PREFIX = '/admin/';

/**
 * The console is a static page that only ever talks to its own origin; documents are shown from blob: URLs
 * (images in <img>, PDFs in <iframe>/<object>). Nothing inline, nothing from elsewhere, never framed.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "img-src 'self' blob:",
  'frame-src blob:',
  'object-src blob:',
  "style-src 'self'",
  "script-src 'self'",
  "connect-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // For browsers that predate frame-ancestors.
  'x-frame-options': 'DENY',
};

/** The folder holding package.json, found from this module whether it runs from src/ (tsx) or dist/src/ (built). */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`package.json not found above ${from}`);
    dir = parent;
  }
}

/** Where `npm run build:console` writes the console (web/admin/vite.config.ts). */
export const DEFAULT_CONSOLE_DIR = join(packageRoot(), 'dist', 'admin-console');

/** index.html is revalidated on every load so a new build is picked up; the hashed assets never change. */
function cacheHeaders(reply: FastifyReply, path: string): void {
  reply.header('cache-control', path.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable');
}

/**
 * The compliance officers' web console (web/admin, built by Vite) at /admin/. No catch-all: the page at /admin/
 * (/admin redirects there) and Vite's hashed files under /admin/assets/, so /admin/api/* and its 404 and 405 answers are
 * untouched and any other /admin/* path is the usual 404 problem (deep links live in the hash,
 * /admin/#/case/..., so no fallback to index.html is needed). Both read the build at request time: a rebuild is
 * served without a restart, and without a build /admin/ is a 503 problem saying how to make one.
 */
export async function registerAdminConsole(app: Api, options: { dir?: string } = {}): Promise<void> {
  const dir = options.dir ?? DEFAULT_CONSOLE_DIR;
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (_request, reply) => {
      reply.headers(SECURITY_HEADERS);
    });
    // Registered in this scope only (decorateReply), for sendFile; the swagger UI has its own instance.
    await scope.register(fastifyStatic, { root: dir, serve: false, cacheControl: false, setHeaders: cacheHeaders, suppressWarning: true });
    await scope.register(
      async (assets) => {
        // A missing file is a plain 404: the app-wide handler would call it a 405, seeing the GET route.
        assets.setNotFoundHandler(async (request) => {
          throw new ApiError('route_not_found', `No endpoint ${request.method} ${request.url.split('?')[0]}`);
        });
        await assets.register(fastifyStatic, { root: join(dir, 'assets'), prefix: '/', decorateReply: false, cacheControl: false, setHeaders: cacheHeaders, schemaHide: true, suppressWarning: true });
      },
      { prefix: `${CONSOLE_PREFIX}assets` },
    );
    scope.get('/admin', { schema: { hide: true } }, async (_request, reply) => reply.redirect(CONSOLE_PREFIX, 302));
    scope.get(CONSOLE_PREFIX, { schema: { hide: true } }, async (_request, reply) => {
      if (!existsSync(join(dir, 'index.html'))) {
        throw new ApiError('service_unavailable', 'The admin console has not been built: run `npm run build` (or `npm run build:console`)');
      }
      return reply.sendFile('index.html', dir);
    });
  });
}
