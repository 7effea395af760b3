import { PGlite, types, type PGliteOptions } from '@electric-sql/pglite';
import { OwnerOnlyNodeFS } from './pglite-owner-only-fs.js';

/**
 * PGlite runs PostgreSQL inside this process, so its buffers are our RSS. Postgres defaults (128 MB shared
 * buffers) suit a server, not an embedded store; these keep the process well under 200 MB while the OS page
 * cache still holds hot data. Production scale belongs on DATABASE_URL. `dir`: the data directory on disk, its files the
 * process user's alone (OwnerOnlyNodeFS); none: in memory.
 */
export function pgliteOptions(dir?: string): PGliteOptions {
  return {
    ...(dir === undefined ? {} : { fs: new OwnerOnlyNodeFS(dir) }),
    // PGlite's own bytea codec walks byte by byte: a 1 MiB document took ~350 ms to insert, ~40 ms with Buffer's hex.
    serializers: {
      [types.BYTEA]: (value: unknown) => {
        const v = value as Uint8Array;
        return `\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`;
      },
    },
    parsers: {
      [types.BYTEA]: (text: string) => Buffer.from(text.slice(2), 'hex'),
    },
    startParams: [
      ...PGlite.defaultStartParams,
      ...['shared_buffers=8MB', 'wal_buffers=256kB', 'work_mem=2MB', 'maintenance_work_mem=8MB', 'temp_buffers=1MB'].flatMap((s) => ['-c', s]),
    ],
  };
}
