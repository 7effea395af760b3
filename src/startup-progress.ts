import type { Log } from './log.js';

/** How often a step still running says so: nobody watching a start should wait longer than this for a line. */
export const HEARTBEAT_MS = 10_000;

/**
 * A start's steps, one log line each as it begins (what is being done: initializing the embedded database, its
 * migrations, the screening lists), and one more every HEARTBEAT_MS while it lasts (docs/deployment.md#start-up).
 * A first run on 2 cores once spent 58 s before its first line; an operator could not tell work from a hang.
 */
export interface StartupProgress {
  step<T>(what: string, run: () => Promise<T> | T): Promise<T>;
}

/** Steps logged at info through `log`; without one (tests, the CLI's quiet paths) they just run. */
export function startupProgress(log: Log | undefined): StartupProgress {
  return {
    async step(what, run) {
      if (!log?.info) return run();
      const started = Date.now();
      log.info({}, what);
      const timer = setInterval(() => log.info?.({ seconds: Math.round((Date.now() - started) / 1000) }, `still ${what}`), HEARTBEAT_MS);
      // The heartbeat never keeps the process alive on its own.
      timer.unref();
      try {
        return await run();
      } finally {
        clearInterval(timer);
      }
    },
  };
}

export const NO_PROGRESS: StartupProgress = startupProgress(undefined);
