import { PRIVATE_UMASK } from './db/private-data-dir.js';

/**
 * Files this process creates are its user's alone, whatever umask it was started with (systemd's default 0022 let
 * any local user read the embedded database's files, the write-ahead log included). Imported first by the process
 * entry points (main.ts, worker-main.ts, cli/admin.ts, and scripts/chain.ts, which may create the sandbox key),
 * before anything is written; the umask is the process's, so the embedded database's thread and the child that
 * initialises its directory (pglite-init.ts) create files with it too.
 */
process.umask(PRIVATE_UMASK);
