import type { Database } from './database.js';
import { CREDENTIAL_CHANGED_CHANNEL, findCredentialByPublicKey, type CredentialRow } from './repositories/credentials.js';
import type { Listener } from './notifications.js';

/**
 * Every signed request needs its credential; reading it from the database each time would make the
 * database the bottleneck of every call. Entries are dropped the moment a change commits anywhere
 * (NOTIFY from the repository, in the changing transaction), so a deactivated or deleted key stops
 * working in every process as soon as the notification arrives, and in the changing process before its answer
 * is sent (signed-scope clears the cache itself). While the notification channel is down the cache is bypassed.
 * Only found credentials are cached: a new key is never hidden behind a stale "unknown".
 */
export class CredentialCache {
  private readonly entries = new Map<string, { row: CredentialRow; expiresAt: number }>();
  private listener: Listener | undefined;
  /** Bumped by every change notification; a fill that overlapped one is not stored. */
  private generation = 0;

  constructor(
    private readonly database: Database,
    private readonly options: { capacity: number; ttlMs: number } = { capacity: 10_000, ttlMs: 5 * 60_000 },
  ) {}

  async start(): Promise<void> {
    this.listener = await this.database.listen(CREDENTIAL_CHANGED_CHANNEL, {
      onMessage: (publicKey) => {
        this.generation++;
        this.entries.delete(publicKey);
      },
      onReset: () => {
        this.generation++;
        this.entries.clear();
      },
    });
  }

  async stop(): Promise<void> {
    await this.listener?.close();
    this.listener = undefined;
    this.entries.clear();
  }

  /** Forgets everything now (this process changed a credential; its own NOTIFY may arrive a moment later). */
  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  async get(publicKey: string): Promise<CredentialRow | undefined> {
    const usable = this.listener?.live() === true;
    if (usable) {
      const hit = this.entries.get(publicKey);
      if (hit && hit.expiresAt > Date.now()) return hit.row;
    }
    const generation = this.generation;
    const row = await findCredentialByPublicKey(this.database.db, publicKey);
    // A change notified while we were reading may postdate the row we read: then do not keep it.
    if (row && usable && generation === this.generation && this.listener?.live()) {
      if (this.entries.size >= this.options.capacity) {
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
      this.entries.set(publicKey, { row, expiresAt: Date.now() + this.options.ttlMs });
    }
    return row;
  }
}
