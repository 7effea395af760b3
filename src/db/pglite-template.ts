import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PRIVATE_UMASK } from './private-data-dir.js';

/**
 * A first start on an empty DATA_DIR copies the embedded database the build prepared (dist/pglite-template/, made by
 * scripts/build-pglite-template.mjs beside tsc) instead of running initdb and every migration: on 2 cores those took
 * 8 to 12 s of a 13 s first start, the copy well under a second. Only a template made from this tree's migrations
 * and this PGlite is used (its `key`); otherwise, or when there is none (a start from source before any build), the
 * start initialises the folder itself as it always did. The migrator still runs after the copy and finds nothing to do.
 */

/** The template for the migrations in `migrationsFolder` (a folder named drizzle/ at the project's root), if built. */
export function findPgliteTemplate(migrationsFolder: string): string | undefined {
  const template = join(dirname(migrationsFolder), 'dist/pglite-template');
  try {
    if (readFileSync(join(template, 'key'), 'utf8').trim() !== templateKey(migrationsFolder)) return undefined;
  } catch {
    return undefined;
  }
  return existsSync(join(template, 'pgdata', 'PG_VERSION')) ? join(template, 'pgdata') : undefined;
}

/**
 * Copies the template into `dir` (which must not hold a database yet) through a folder of its own renamed into place,
 * so a start stopped half way leaves no half-copied database behind, only a folder the next start removes. Every mode
 * is narrowed to the user's alone, as the engine's own files are (pglite-owner-only-fs.ts).
 */
export function copyPgliteTemplate(template: string, dir: string): void {
  const staging = `${dir}.partial`;
  rmSync(staging, { recursive: true, force: true });
  cpSync(template, staging, { recursive: true });
  narrowModes(staging);
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
}

function narrowModes(path: string): void {
  chmodSync(path, statSync(path).mode & 0o777 & ~PRIVATE_UMASK);
  for (const name of readdirSync(path, { recursive: true }).map(String)) {
    const entry = join(path, name);
    chmodSync(entry, statSync(entry).mode & 0o777 & ~PRIVATE_UMASK);
  }
}

/** Every file of drizzle/ and PGlite's version, hashed exactly as scripts/build-pglite-template.mjs does. */
export function templateKey(migrationsFolder: string): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
    let content: Buffer;
    try {
      content = readFileSync(join(migrationsFolder, name));
    } catch {
      continue; // a folder
    }
    hash.update(name).update('\0').update(content).update('\0');
  }
  const pglite = join(dirname(migrationsFolder), 'node_modules/@electric-sql/pglite/package.json');
  hash.update((JSON.parse(readFileSync(pglite, 'utf8')) as { version: string }).version);
  return hash.digest('hex').slice(0, 16);
}
