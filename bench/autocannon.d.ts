/**
 * The slice of autocannon 9's programmatic API that the bench (bench/lib/load.ts) uses. autocannon ships no types, and
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
      body?: string | Buffer;
      /** Per-request timeout, seconds. */
      timeout?: number;
      /** The sequence each connection sends, in a loop. */
      requests?: RequestSpec[];
    }

    /** What a request is built from; setupRequest may change any field. */
    interface RequestData {
      method: string;
      path: string;
      headers: Record<string, string>;
      body?: string | Buffer;
    }

    interface RequestSpec {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      /** Called before every send of this request (in the sending connection); must return the request. */
      setupRequest?: (request: RequestData, context: Record<string, unknown>) => RequestData;
      /** Called with every response to this request; setting it makes autocannon collect response bodies. */
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string | string[]>) => void;
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
