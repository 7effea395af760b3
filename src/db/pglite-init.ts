/**
 * Initializes a fresh PGlite data directory, then exits. Run in a child process because initdb's memory
 * (several hundred MB of WebAssembly heap) is never given back to the OS by the process that ran it.
 */
import { PGlite } from '@electric-sql/pglite';
import { pgliteOptions } from './pglite-options.js';

const dir = process.argv[2];
if (!dir) {
  process.stderr.write('usage: pglite-init <dir>\n');
  process.exit(64);
}
const db = await PGlite.create(pgliteOptions(dir));
await db.close();
