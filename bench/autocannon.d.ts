/**
 * The slice of autocannon 9's programmatic API that bench/whoami.ts uses. autocannon ships no types, and
 * @types/autocannon tracks an older major; a local declaration avoids a devDependency for one script.
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      method?: string;
      headers?: Record<string, string>;
      /** Per-request timeout, seconds. */
      timeout?: number;
    }

    /** Percentiles from hdr-histogram (latency in ms, recorded at 1 ms resolution). */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
      p99_9: number;
    }

    interface Result {
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      resets: number;
      '2xx': number;
      statusCodeStats: Record<string, { count: number }>;
      latency: Histogram;
      requests: Histogram & { sent: number };
      throughput: Histogram;
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {
      /** Ends the run early; the promise still resolves with what was measured. */
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
