// The repository's root. Tests run compiled, from dist/test (scripts/run-tests.mjs), or from source under tsx, so a
// path relative to a test's own file would point one level apart in the two: every path to the tree starts here.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package-lock.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package-lock.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  return dir;
}

/** The root as a path ending in `/`. */
export const ROOT = `${findRoot()}/`;
/** The root as a file URL ending in `/`, for `new URL('docs/x.md', ROOT_URL)`. */
export const ROOT_URL = pathToFileURL(ROOT);
