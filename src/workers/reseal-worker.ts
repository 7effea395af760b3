import type { Clock } from '../clock.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Database } from '../db/database.js';
import { resealAll, resealedToNewest } from '../domain/keys/reseal.js';
import type { Log } from '../log.js';

export interface ResealWorker {
  /** Settles when the pass is over (complete, stopped or failed); a test waits on it. */
  readonly finished: Promise<void>;
  stop(): Promise<void>;
}

/**
 * After the newest key of ENCRYPTION_KEYS changed, every sealed value is sealed again under it in the background,
 * batch after batch, while requests go on (docs/key-management.md#rotating-the-sealing-key). Once a pass completes the
 * database records the key, so later starts with the same ring do nothing. Stopped, it picks up at the next start.
 */
export function startResealWorker(deps: { database: Database; secrets: SecretBox; clock: Clock; log: Log; batch: number }): ResealWorker {
  const abort = new AbortController();
  const finished = (async () => {
    if (await resealedToNewest(deps.database.db, deps.secrets)) return;
    const started = Date.now();
    // Announced once there is something to re-seal: a new database (the first start) has nothing, and its first run
    // would otherwise end on two lines about keys after the ready line.
    let announced = false;
    const announce = () => {
      if (announced) return;
      announced = true;
      deps.log.info?.({ key: deps.secrets.sealingKeyId, batch: deps.batch }, 're-sealing every sealed value under the newest key');
    };
    let lastLog = started;
    const outcome = await resealAll(deps.database.db, deps.secrets, {
      batch: deps.batch,
      now: deps.clock,
      signal: abort.signal,
      onProgress: (p) => {
        announce();
        if (Date.now() - lastLog < 1000) return;
        lastLog = Date.now();
        deps.log.info?.(p, 're-sealing');
      },
    });
    if (outcome.complete && outcome.resealed > 0) {
      announce();
      deps.log.info?.({ key: deps.secrets.sealingKeyId, resealed: outcome.resealed, ms: Date.now() - started }, 'every sealed value is sealed under the newest key');
    }
  })().catch((err: unknown) => deps.log.error({ err }, 're-sealing failed; it resumes at the next start (or run keys reseal)'));
  return {
    finished,
    async stop() {
      abort.abort();
      await finished;
    },
  };
}
