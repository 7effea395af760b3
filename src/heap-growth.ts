import { setFlagsFromString } from 'node:v8';
import { externalMemoryInGlobalLimit } from './node-flags.js';

/**
 * How far V8 lets the old generation grow past what the last full collection kept: to twice its size here. Left to
 * its own factor (up to four times), under load it let the API's heap grow to about three times the live data
 * before collecting. Measured on PostgreSQL (bench, one run each, 2 cores): whoami peak RSS 286 MB with V8's
 * factor, 188 MB at 100 %, at the same throughput; the 1 MiB uploads 55 and 60 MB/s of bodies (noise), where 25 %
 * slowed them to 42 MB/s with more full collections (docs/benchmarks.md). This only makes full collections come
 * sooner; it caps nothing, so a large upload still gets the memory it needs.
 *
 * Imported first by the process entry points (main.ts, worker-main.ts); the flag is process-wide, so the embedded
 * database's thread gets it too. An operator's own `node --heap-growing-percent=N` wins.
 */
export const HEAP_GROWING_PERCENT = 100;

if (!process.execArgv.some((arg) => /^--heap[-_]growing[-_]percent/.test(arg))) {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

// On PostgreSQL, Buffers count in the heap's own limit rather than in a fixed 64 MB allowance (node-flags.ts says why).
if (externalMemoryInGlobalLimit().on) setFlagsFromString('--external-memory-accounted-in-global-limit');
