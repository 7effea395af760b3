import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/database.js';
import { ROOT_URL as ROOT } from './root.js';

const CACHE = join(tmpdir(), 'integrator-api-tests');

let template: Promise<Uint8Array> | undefined;

/**
 * A dump of a freshly migrated in-memory PGlite: each test database starts from it (about 0.3 s) instead of running
 * initdb and every migration (about 5 s of CPU). It is made once per set of migrations and PGlite version, and kept
 * as a file under the system's temporary folder that every test process of this and later runs reads; a process
 * that finds none makes it and renames it into place, so a reader never sees half a file. openDatabase still runs the
 * migrator over it, which finds every migration applied.
 */
export function pgliteTemplate(): Promise<Uint8Array> {
  template ??= (async () => {
    const file = join(CACHE, `pglite-template-${templateKey()}.tar`);
    try {
      return readFileSync(file);
    } catch {
      // not made yet
    }
    const database = await openDatabase({ kind: 'pglite', dataDir: undefined });
    let dump: Uint8Array;
    try {
      dump = new Uint8Array(await (await database.dumpPglite!()).arrayBuffer());
    } finally {
      await database.close();
    }
    mkdirSync(CACHE, { recursive: true });
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    try {
      writeFileSync(partial, dump);
      renameSync(partial, file);
    } finally {
      rmSync(partial, { force: true });
    }
    // Templates of other migrations a day old: another checkout on this machine (a branch with other migrations)
    // may still be reading a younger one.
    const current = `-${templateKey()}`;
    for (const name of readdirSync(CACHE)) {
      const path = join(CACHE, name);
      if (/^pglite-(template|dir)-[0-9a-f]{16}/.test(name) && !name.includes(current) && statSync(path).mtimeMs < Date.now() - 86_400_000) rmSync(path, { recursive: true, force: true });
    }
    return dump;
  })();
  return template;
}

/**
 * A new data directory (DATA_DIR) whose embedded database is already initialised and migrated, as a server process
 * leaves it after its first start: for process tests whose subject is not that first start, which took about 5 s
 * (initdb in a child process, then every migration). The folder is copied from one made once per template key,
 * under the same temporary folder as the dump. Tests of a first start (quickstart, server-process) use an empty one.
 */
export async function seededDataDir(prefix: string): Promise<string> {
  const made = join(CACHE, `pglite-dir-${templateKey()}`);
  if (!existsSync(join(made, 'PG_VERSION'))) {
    mkdirSync(CACHE, { recursive: true });
    const staging = mkdtempSync(join(CACHE, 'pglite-dir-staging-'));
    try {
      await (await openDatabase({ kind: 'pglite', dataDir: staging })).close();
      renameSync(join(staging, 'pglite'), made);
    } catch (err) {
      // Another process renamed its folder into place first: that one serves.
      if (!existsSync(join(made, 'PG_VERSION'))) throw err;
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(made, join(dir, 'pglite'), { recursive: true });
  return dir;
}

let key: string | undefined;

/** What a template depends on: every file of the migrations folder, and the PGlite that made it (hashed once per process). */
export function templateKey(): string {
  key ??= hashMigrationsAndPglite();
  return key;
}

function hashMigrationsAndPglite(): string {
  const hash = createHash('sha256');
  const drizzle = new URL('drizzle/', ROOT);
  for (const name of readdirSync(drizzle, { recursive: true }).map(String).sort()) {
    let content: Buffer;
    try {
      content = readFileSync(new URL(name, drizzle));
    } catch {
      continue; // a folder
    }
    hash.update(name).update('\0').update(content).update('\0');
  }
  hash.update(JSON.parse(readFileSync(new URL('node_modules/@electric-sql/pglite/package.json', ROOT), 'utf8')).version);
  return hash.digest('hex').slice(0, 16);
}
