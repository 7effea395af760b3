#!/usr/bin/env node
// Makes dist/pglite-template/: an embedded database (PGlite) already initialised and migrated, which a server's first
// start on an empty DATA_DIR copies instead of running initdb and every migration (src/db/pglite-template.ts; on 2
// cores that was 8 to 12 of the first start's 13 s). It needs only PGlite, drizzle's migrator and drizzle/, not the
// compiled server, so the build runs it beside tsc, on the core tsc leaves idle (scripts/build-if-stale.mjs).
// The folder is made under a temporary name and renamed into place: a start meanwhile sees the old one or none.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const TEMPLATE_DIR = join(ROOT, 'dist/pglite-template');

/**
 * What a template depends on: every file of drizzle/ and PGlite's version. src/db/pglite-template.ts computes the
 * same key (test/db/pglite-template.test.ts holds them equal) and copies no template of another key.
 */
export function templateKey(root = ROOT) {
  const hash = createHash('sha256');
  const drizzle = join(root, 'drizzle');
  for (const name of readdirSync(drizzle, { recursive: true }).map(String).sort()) {
    let content;
    try {
      content = readFileSync(join(drizzle, name));
    } catch {
      continue; // a folder
    }
    hash.update(name).update('\0').update(content).update('\0');
  }
  hash.update(JSON.parse(readFileSync(join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version);
  return hash.digest('hex').slice(0, 16);
}

export async function buildPgliteTemplate() {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  // The files are their user's alone, as the server's own (src/private-umask.ts); the copy narrows them again.
  process.umask(0o077);
  const staging = join(ROOT, `dist/.pglite-template-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const pg = await PGlite.create(join(staging, 'pgdata'));
    await migrate(drizzle({ client: pg }), { migrationsFolder: join(ROOT, 'drizzle') });
    await pg.close();
    writeFileSync(join(staging, 'key'), templateKey());
    rmSync(TEMPLATE_DIR, { recursive: true, force: true });
    renameSync(staging, TEMPLATE_DIR);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildPgliteTemplate();
