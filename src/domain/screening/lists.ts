import type { Log } from '../../log.js';
import type { AddressScreen, ListedAddress } from './address-screen.js';
import { DEFAULT_THRESHOLD, ScreeningIndex } from './engine.js';
import { loadListSync, parseListFiles, readListFiles, type ListSource, type LoadedList } from './load.js';
import type { ListEntry, ScreeningHit, ScreeningSubject } from './types.js';

/** A list that was loaded anew: its label, the version now in use, and the one before. */
export interface ListChange {
  label: string;
  version: string;
  previousVersion: string;
  entries: number;
}

/** The outcome of one look at the lists' files. */
export interface CheckOutcome {
  changed: ListChange[];
  /** Lists whose new files could not be read or parsed: the loaded version stays. */
  failed: { label: string; problem: string }[];
}

interface Snapshot {
  lists: LoadedList[];
  index: ScreeningIndex;
  addresses: Map<string, ListedAddress>;
  /** Each entry by its list and number (a hit's panel shows the entry's aliases). */
  byNumber: Map<string, ListEntry>;
}

const entryKey = (list: string, entryNumber: string): string => `${list}\u0000${entryNumber}`;

/** 0x addresses are hex: their case (EIP-55's checksum) does not make another address. Others are compared as written. */
export const addressKey = (address: string): string => (/^0x[0-9a-fA-F]+$/.test(address.trim()) ? address.trim().toLowerCase() : address.trim());

function snapshot(lists: LoadedList[], threshold: number, index?: ScreeningIndex): Snapshot {
  const entries = lists.flatMap((l) => l.entries);
  const addresses = new Map<string, ListedAddress>();
  for (const entry of entries) {
    for (const wallet of entry.walletAddresses) {
      const key = addressKey(wallet.address);
      if (!addresses.has(key)) addresses.set(key, { list: entry.list, entryNumber: entry.entryNumber, name: entry.name, programs: entry.programs, currency: wallet.currency, address: wallet.address });
    }
  }
  const byNumber = new Map(entries.map((e) => [entryKey(e.list, e.entryNumber), e]));
  return { lists, index: index ?? new ScreeningIndex(entries, threshold), addresses, byNumber };
}

/**
 * The screening lists in force (docs/screening.md): loaded at start-up, looked at again by `check()` (every
 * SCREENING_RELOAD_SECONDS and on SIGHUP, see `watch`), and swapped whole when a list's files changed: a screening
 * sees one version of every list, never half of one. A new version that cannot be read or parsed is reported and
 * the loaded one kept. Also the AddressScreen of the lists' wallet addresses.
 */
export class ScreeningLists implements AddressScreen {
  private current: Snapshot;
  private readonly listeners = new Set<(change: ListChange) => void>();
  private checking: Promise<CheckOutcome> | undefined;
  /** The check that runs after the one under way, for the callers that asked during it. */
  private again: Promise<CheckOutcome> | undefined;

  constructor(
    readonly sources: readonly ListSource[],
    readonly threshold: number = DEFAULT_THRESHOLD,
    initial?: LoadedList[],
  ) {
    this.current = snapshot(initial ?? sources.map(loadListSync), threshold);
  }

  /** Each list's label, version (fingerprint of its files), format and number of entries. */
  versions(): { label: string; version: string; format: LoadedList['format']; entries: number; path: string }[] {
    return this.current.lists.map((l) => ({ label: l.source.label, version: l.version, format: l.format, entries: l.entries.length, path: l.source.path }));
  }

  screen(subject: ScreeningSubject): ScreeningHit[] {
    return this.current.index.screen(subject);
  }

  /** A listed entry by its list's label and number, in the version in force. */
  entry(list: string, entryNumber: string): ListEntry | undefined {
    return this.current.byNumber.get(entryKey(list, entryNumber));
  }

  addressHit(address: string): ListedAddress | undefined {
    return this.current.addresses.get(addressKey(address));
  }

  addressIndex(): ReadonlyMap<string, ListedAddress> {
    return this.current.addresses;
  }

  /** Called after a list was swapped for a new version (re-screening the customers will hang here). */
  onChange(listener: (change: ListChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Reads every list's files again; those whose fingerprint changed are parsed and swapped in together. One check at a
   * time: asked for during one, which may have read the files before they changed (an operator's SIGHUP just after
   * the interval's check began), it runs again once that one ends, for everyone who asked meanwhile.
   */
  check(): Promise<CheckOutcome> {
    if (this.checking) {
      // After the current check however it ended: a failed one must not leave `again` standing for later callers.
      const next = () => {
        this.again = undefined;
        return this.check();
      };
      this.again ??= this.checking.then(next, next);
      return this.again;
    }
    this.checking = this.checkOnce().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async checkOnce(): Promise<CheckOutcome> {
    const outcome: CheckOutcome = { changed: [], failed: [] };
    const before = this.current;
    const next = await Promise.all(
      before.lists.map(async (loaded) => {
        try {
          const files = await readListFiles(loaded.source);
          if (files.version === loaded.version) return loaded;
          // Each list parsed in a turn of its own (a parse itself holds the event loop: the EU's 25 MB about 3 s).
          await new Promise<void>((resolve) => setImmediate(resolve));
          const fresh = parseListFiles(files);
          outcome.changed.push({ label: loaded.source.label, version: fresh.version, previousVersion: loaded.version, entries: fresh.entries.length });
          return fresh;
        } catch (err) {
          outcome.failed.push({ label: loaded.source.label, problem: (err as Error).message });
          return loaded;
        }
      }),
    );
    if (outcome.changed.length > 0 && this.current === before) {
      // Indexed a slice at a time, letting requests run (screening them against the lists still in force).
      this.current = snapshot(next, this.threshold, await ScreeningIndex.build(next.flatMap((l) => l.entries), this.threshold));
      for (const change of outcome.changed) {
        for (const listener of this.listeners) {
          try {
            listener(change);
          } catch (err) {
            // A listener's failure is its own: the new lists stay in force, and the others are still told.
            outcome.failed.push({ label: change.label, problem: `onChange listener: ${(err as Error).message}` });
          }
        }
      }
    }
    return outcome;
  }

  /**
   * Checks the files every `intervalMs` (the timer does not keep the process alive) and logs what changed or
   * failed; returns stop, and a `now()` that checks at once (SIGHUP).
   */
  watch(intervalMs: number, log: Log): { now(): Promise<CheckOutcome>; stop(): void } {
    const run = async (): Promise<CheckOutcome> => {
      const outcome = await this.check();
      for (const c of outcome.changed) log.info?.({ list: c.label, version: c.version, previousVersion: c.previousVersion, entries: c.entries }, 'screening list reloaded');
      for (const f of outcome.failed) log.error({ list: f.label, problem: f.problem }, 'screening list could not be reloaded; the loaded version stays');
      return outcome;
    };
    // 0: only when asked (SIGHUP).
    const timer = intervalMs > 0 ? setInterval(() => void run(), intervalMs) : undefined;
    timer?.unref();
    return { now: run, stop: () => clearInterval(timer) };
  }
}
