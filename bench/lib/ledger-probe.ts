/**
 * Counts and times the round trips a ledger transfer makes (docs/benchmarks.md#ledger): every `pg` client's `query`
 * in this process (the engine's pool through drizzle and the bare equivalents' alike) is recorded while a probe is
 * open. Used for a short sequential run only, never during the measured rounds.
 */
import pg from 'pg';

type Query = (...args: unknown[]) => unknown;

let recording: number[] | undefined;

let installed = false;

/**
 * Puts the counter on pg's Client prototype (a pass-through while no probe is open). Call it before any connection is
 * made: the database's pool keeps each client's own `query` as it first lends it (src/db/pg-pool.ts), so a wrapper
 * put on the prototype later would not be seen through those clients. Idempotent.
 */
export function installRoundTripProbe(): void {
  if (installed) return;
  installed = true;
  const proto = pg.Client.prototype as unknown as { query: Query };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const into = recording;
    if (!into) return original.apply(this, args);
    const slot = into.length;
    into.push(Number.NaN);
    const started = performance.now();
    const done = () => {
      into[slot] = performance.now() - started;
    };
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      // pg-pool's own query passes a callback and gets no promise back.
      args[args.length - 1] = (...answer: unknown[]) => {
        done();
        return (callback as Query)(...answer);
      };
    }
    const result = original.apply(this, args);
    if (result instanceof Promise) result.then(done, done);
    return result;
  };
}

/** The round trips `run` made, each's milliseconds, in the order sent. */
export async function probeRoundTrips(run: () => Promise<void>): Promise<number[]> {
  if (!installed) throw new Error('installRoundTripProbe() first, before any connection is made');
  const into: number[] = [];
  recording = into;
  try {
    await run();
  } finally {
    recording = undefined;
  }
  return into;
}
