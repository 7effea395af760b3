import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Raised when another live process holds the data directory: PGlite corrupts a folder opened twice. */
export class DataDirInUseError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `<dataDir>/LOCK` holding our pid, created exclusively. A lock left by a dead process is taken over.
 * Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'LOCK');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          unlinkSync(path);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder = NaN;
    try {
      holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
    } catch {
      // removed meanwhile: try again
    }
    if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
      throw new DataDirInUseError(
        `DATA_DIR ${dataDir} is in use by process ${holder}; stop it first (or use DATABASE_URL to share a PostgreSQL server)`,
      );
    }
    try {
      unlinkSync(path);
    } catch {
      // another process took it over first
    }
  }
  throw new DataDirInUseError(`DATA_DIR ${dataDir} could not be locked`);
}
