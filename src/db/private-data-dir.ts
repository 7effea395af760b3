import { chmodSync, lstatSync, readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/**
 * Everything under DATA_DIR is the service's alone (docs/security.md#files-on-disk): the embedded database, its
 * write-ahead log, the sandbox key, the admin socket. The process entry points set this umask first
 * (private-umask.ts), so what they and the PGlite thread create is 0700 / 0600 whatever umask they were started with.
 */
export const PRIVATE_UMASK = 0o077;

/** The log line of a start that narrowed DATA_DIR (at info, with the path and the counts). */
export const NARROWED_MESSAGE = "DATA_DIR held entries other users could open: narrowed to the service's alone (directories 0700, files 0600)";

/** How many entries narrowDataDir took group and other permissions from. */
export interface Narrowed {
  directories: number;
  files: number;
}

/**
 * Takes every permission bit for group and others from `dir` and everything under it that this process's user owns
 * (directories become at most 0700, files 0600), without following symbolic links; undefined when `dir` does not
 * exist or nothing needed it. Whatever the umask, a chmod is not narrowed by it: PGlite writes its initdb's files
 * out of a tar archive with chmod 0666, and a DATA_DIR written by an older release or under another umask holds
 * wider modes than ours.
 */
export function narrowDataDir(dir: string): Narrowed | undefined {
  let root: Stats;
  try {
    root = statSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const narrowed: Narrowed = { directories: 0, files: 0 };
  const uid = process.getuid?.();
  const visit = (path: string, stats: Stats): void => {
    // Another user's file is not ours to change (root would be allowed to): it is left, and the operator's to judge.
    if (uid !== undefined && stats.uid !== uid) return;
    if ((stats.mode & PRIVATE_UMASK) !== 0) {
      chmodSync(path, stats.mode & 0o7777 & ~PRIVATE_UMASK);
      narrowed[stats.isDirectory() ? 'directories' : 'files']++;
    }
    if (!stats.isDirectory()) return;
    for (const name of readdirSync(path)) {
      const child = join(path, name);
      const childStats = lstatSync(child, { throwIfNoEntry: false });
      // Gone meanwhile (a lock released, a WAL segment recycled), or a link: a link's own mode means nothing.
      if (childStats && !childStats.isSymbolicLink()) visit(child, childStats);
    }
  };
  visit(dir, root);
  return narrowed.directories + narrowed.files > 0 ? narrowed : undefined;
}
