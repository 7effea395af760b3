import { setFlagsFromString } from 'node:v8';
import { externalMemoryInGlobalLimit, heapGrowingPercent } from './node-flags.js';

/**
 * V8 settings the process makes itself, first thing at start: V8 honours these at any time, unlike the young
 * generation's size (node-flags.ts says why each, and docs/deployment.md#memory). Imported first by the process
 * entry points (main.ts, worker-main.ts); the flags are process-wide, so the embedded database's thread gets them too.
 * An operator's own flag on node's command line wins.
 *
 * - How far the old generation may grow past what the last full collection kept (100 % on PostgreSQL, 50 % on the
 *   embedded database). This only makes full collections come sooner; it caps nothing, so a large upload still gets
 *   the memory it needs.
 * - On PostgreSQL, Buffers count in the heap's own limit rather than in a fixed 64 MB allowance.
 */
const growth = heapGrowingPercent();
if (growth.from !== 'command line') setFlagsFromString(`--heap-growing-percent=${growth.percent}`);

if (externalMemoryInGlobalLimit().on) setFlagsFromString('--external-memory-accounted-in-global-limit');
