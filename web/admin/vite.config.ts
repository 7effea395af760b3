import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The compliance officers' console. `npm run build:console` writes dist/admin-console/, which the server serves
 * at /admin/ (src/http/admin/console.ts). `npm run dev:console` serves it with reload on :5173/admin/, passing
 * /admin/api to a server already running on :8080.
 */
export default defineConfig({
  root: here('.'),
  base: '/admin/',
  publicDir: false,
  // Nothing inlined as data: URLs: the console's Content-Security-Policy allows only 'self' and blob: images.
  build: { outDir: here('../../dist/admin-console'), emptyOutDir: true, target: 'es2022', assetsInlineLimit: 0, reportCompressedSize: false },
  server: { proxy: { '/admin/api': 'http://127.0.0.1:8080' } },
});
