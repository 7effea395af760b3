import { getHeapStatistics } from 'node:v8';

/**
 * The node flags every way of starting the service gives (package.json's start, worker, dev and admin scripts,
 * deploy/systemd's ExecStart; test/process/node-flags.test.ts keeps them together), for its memory
 * (docs/deployment.md#memory; measured in docs/benchmarks.md#memory-on-node-24-the-start-commands-node-flags-2026-12-02):
 *
 * - `--max-semi-space-size=16`: Node 24's V8 sizes the young generation from the memory it sees, 64 MiB per
 *   semi-space on a machine with 16 GiB or more (Node 20: 16), and three of them (two semi-spaces and the new
 *   large-object space) fill under load: 16 took 130 to 200 MB off the peak RSS under load, CPU within the noise.
 * - `--liftoff-only`: PGlite's PostgreSQL (9 MB of WebAssembly) is compiled by V8's baseline compiler alone. The
 *   optimizing one took about 450 MB for a few seconds at every start of the embedded database (RSS 800 MB, then
 *   back to 370) and its code stays; an account creation with a 1 MiB document costs 11-24 % more CPU on PGlite
 *   (reads showed no difference). Nothing else here is WebAssembly, so on PostgreSQL it changes nothing.
 *
 * Why flags and not code: V8 sizes an isolate's heap when the isolate is created, so `v8.setFlagsFromString` in the
 * process is too late for its main thread (it reaches only threads started after it). NODE_OPTIONS would do, but
 * it refuses `--liftoff-only`, the command line is what every start command already carries, and it shows in `ps`.
 * Node takes a flag on the command line over the same flag in NODE_OPTIONS.
 */
export const SEMI_SPACE_MB = 16;
export const SERVICE_NODE_FLAGS = [`--max-semi-space-size=${SEMI_SPACE_MB}`, '--liftoff-only'] as const;

const EXTERNAL_IN_GLOBAL = /^--(no-)?external[-_]memory[-_]accounted[-_]in[-_]global[-_]limit$/;

/**
 * Whether V8 counts external memory (Buffers: request bodies, documents, what the database driver sends) in the
 * heap's global limit, which grows with what the last full collection kept, instead of in a fixed allowance of
 * 64 MB more than at the last one. Under 1 MiB uploads that allowance set off a full collection every 6 to 7 requests
 * (a document passes through about 8 MB of Buffers), each marking the whole live heap, about 100 MB in the API: its
 * CPU per upload went from about 35 to 21-23 ms, its bare equivalent's from 23 to 14-18, and its peak RSS under 8
 * uploads from about 476 to 578-641 MB (docs/benchmarks.md#issue-55-five-whole-runs-2026-12-03-morning). Set from
 * the process (src/heap-growth.ts), which V8 honours at any time (test/process/node-flags.test.ts checks the
 * effect). On by default on PostgreSQL (DATABASE_URL set), a server's deployment; off on the embedded database,
 * whose process holds PostgreSQL's own memory too and whose peak goal is 600 MB.
 * `--[no-]external-memory-accounted-in-global-limit` on node's command line decides instead.
 */
export function externalMemoryInGlobalLimit(
  execArgv: readonly string[] = process.execArgv,
  env: NodeJS.ProcessEnv = process.env,
): { on: boolean; from: 'command line' | 'DATABASE_URL' | 'embedded database' } {
  const given = execArgv.filter((arg) => EXTERNAL_IN_GLOBAL.test(arg)).at(-1);
  if (given !== undefined) return { on: !given.startsWith('--no-'), from: 'command line' };
  return env.DATABASE_URL ? { on: true, from: 'DATABASE_URL' } : { on: false, from: 'embedded database' };
}

const HEAP_GROWING = /^--heap[-_]growing[-_]percent(?:=(\d+))?$/;

/** How far the old generation may grow past what the last full collection kept, on PostgreSQL: to twice its size. */
export const HEAP_GROWING_PERCENT_POSTGRES = 100;
/** The same on the embedded database, whose process holds PostgreSQL's memory too and whose peak goal is 600 MB. */
export const HEAP_GROWING_PERCENT_EMBEDDED = 50;

/**
 * V8's `--heap-growing-percent` for this process (set by src/heap-growth.ts): how far past what the last full
 * collection kept the old generation may grow before the next one. V8's own factor (up to four times under load) let
 * the API's heap reach about three times its live data; 100 % took whoami's peak RSS on PostgreSQL from 286 to 188 MB
 * at the same throughput, where 25 % slowed 1 MiB uploads with more full collections (docs/benchmarks.md). On the
 * embedded database 50 %: its peak under 8 uploads of 1 MiB at a time was 463-489 MB against 498-502 at 100 %
 * (creation alone, two alternating pairs), 551-560 against 578-595 in whole runs (creation after the other scenarios)
 * (docs/benchmarks.md#issue-55-the-event-loops-difference-function-by-function-and-the-embedded-databases-heap-growth-2026-12-03-evening),
 * at a CPU within the runs' noise; CPU goals are PostgreSQL's. `--heap-growing-percent=N` on node's command line
 * decides instead (`percent` then says what it gave, undefined if no number could be read).
 */
export function heapGrowingPercent(
  execArgv: readonly string[] = process.execArgv,
  env: NodeJS.ProcessEnv = process.env,
): { percent: number | undefined; from: 'command line' | 'DATABASE_URL' | 'embedded database' } {
  const given = flagValues(execArgv, HEAP_GROWING);
  // The last one given decides; `percent` is undefined where its number could not be read.
  if (given.length > 0) return { percent: given.at(-1), from: 'command line' };
  return env.DATABASE_URL
    ? { percent: HEAP_GROWING_PERCENT_POSTGRES, from: 'DATABASE_URL' }
    : { percent: HEAP_GROWING_PERCENT_EMBEDDED, from: 'embedded database' };
}

export interface SemiSpaceSetting {
  /** MiB per semi-space; undefined: V8 chose from the machine's memory. */
  mb: number | undefined;
  /** Where it was given: node takes the command line's over NODE_OPTIONS', and the last one of either. */
  from: 'command line' | 'NODE_OPTIONS' | undefined;
}

/** The `--max-semi-space-size` this process was started with (its command line, then NODE_OPTIONS). */
export function semiSpaceSetting(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): SemiSpaceSetting {
  const fromArgs = lastSemiSpace(execArgv);
  if (fromArgs !== undefined) return { mb: fromArgs, from: 'command line' };
  const fromOptions = lastSemiSpace(nodeOptions.split(/\s+/).filter(Boolean));
  if (fromOptions !== undefined) return { mb: fromOptions, from: 'NODE_OPTIONS' };
  return { mb: undefined, from: undefined };
}

const SEMI_SPACE = /^--max[-_]semi[-_]space[-_]size(?:=(\d+))?$/;

/** The last `--max-semi-space-size` with a number: one without is skipped, as it sets nothing. */
function lastSemiSpace(args: readonly string[]): number | undefined {
  return flagValues(args, SEMI_SPACE).filter((mb) => mb !== undefined).at(-1);
}

/**
 * Every occurrence of a numeric node flag in `args`, in order: its number (`--flag=N` or `--flag N`), or undefined
 * where none can be read. `pattern` captures the `=N` form's digits.
 */
function flagValues(args: readonly string[], pattern: RegExp): (number | undefined)[] {
  return args.flatMap((arg, i) => {
    const match = pattern.exec(arg);
    if (!match) return [];
    const value = match[1] ?? args[i + 1];
    return [value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined];
  });
}

/**
 * For the ready line: V8's heap limit (the old generation's plus three semi-spaces), the semi-space setting and
 * whether WebAssembly is baseline-only; `warning` when the process was started without the semi-space flag (e.g.
 * `node dist/src/main.js` by hand).
 */
export function youngGenerationReport(setting = semiSpaceSetting()): {
  heap: { limitMb: number; semiSpaceMb: number | 'v8-default'; liftoffOnly: boolean; externalMemoryInGlobalLimit: boolean; heapGrowingPercent: number | undefined };
  warning?: string;
} {
  const heap = {
    limitMb: Math.round(getHeapStatistics().heap_size_limit / 2 ** 20),
    semiSpaceMb: setting.mb ?? ('v8-default' as const),
    liftoffOnly: process.execArgv.some((arg) => /^--liftoff[-_]only$/.test(arg)),
    externalMemoryInGlobalLimit: externalMemoryInGlobalLimit().on,
    heapGrowingPercent: heapGrowingPercent().percent,
  };
  if (setting.mb !== undefined) return { heap };
  return {
    heap,
    warning: `started without --max-semi-space-size: V8 sized the young generation from the machine's memory (up to 3 x 64 MiB); npm start and deploy/systemd give node ${SERVICE_NODE_FLAGS.join(' ')} (docs/deployment.md#memory)`,
  };
}
