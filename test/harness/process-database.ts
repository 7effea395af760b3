import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '../../src/db/database.js';
import { provisionDatabase, type Backend } from './backends.js';
import { seededDataDir } from './pglite-template.js';

/** The database the processes of a process test share, and how the test reads it itself. */
export interface ProcessDatabase {
  /** DATA_DIR, and DATABASE_URL on PostgreSQL: the variables the processes are started with. */
  env: Record<string, string>;
  /** Runs `read` on the processes' database (on PGlite only while none of them holds DATA_DIR). */
  read<T>(read: (database: Database) => Promise<T>): Promise<T>;
  /** Removes the data directory and drops the PostgreSQL database. */
  remove(): Promise<void>;
}

/** A fresh data directory (its embedded database migrated: seededDataDir), and on PostgreSQL a fresh database beside it. */
export async function processDatabase(backend: Backend, prefix: string): Promise<ProcessDatabase> {
  const dataDir = backend === 'pglite' ? await seededDataDir(prefix) : mkdtempSync(join(tmpdir(), prefix));
  const env: Record<string, string> = { DATA_DIR: dataDir };
  let drop = async () => {};
  if (backend === 'postgres') {
    const provisioned = await provisionDatabase('postgres');
    if (provisioned.target.kind === 'postgres') env.DATABASE_URL = provisioned.target.url;
    drop = provisioned.drop;
  }
  return {
    env,
    async read(read) {
      const database = await openDatabase(env.DATABASE_URL ? { kind: 'postgres', url: env.DATABASE_URL } : { kind: 'pglite', dataDir });
      try {
        return await read(database);
      } finally {
        await database.close();
      }
    },
    async remove() {
      rmSync(dataDir, { recursive: true, force: true });
      await drop();
    },
  };
}
