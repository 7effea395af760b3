import type { ChainRegistry } from '../chain/chain-client.js';
import { readVaultMetadata, readVaultState } from '../chain/erc4626.js';
import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import { insertSharePrice, latestSharePrice } from '../db/repositories/vaults.js';
import type { VaultConfig } from '../domain/vaults/vault-config.js';
import { listVaultRefs } from '../domain/vaults/vault-registry.js';
import type { Log } from '../log.js';
import { Rounds } from './rounds.js';

export interface VaultSnapshotsDeps {
  database: Database;
  chains: ChainRegistry;
  config: VaultConfig;
  clock: Clock;
  log: Pick<Log, 'warn' | 'error'>;
}

export interface VaultSnapshots {
  /** Records a snapshot of every vault due one now (tests drive it); resolves with how many were recorded. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Records each vault's share price every VAULT_SNAPSHOT_SECONDS: the history the APYs are computed from
 * (docs/products.md#apy). A vault whose last snapshot is younger than half the interval is skipped, so several
 * processes running this job record about one snapshot per interval between them. A chain that cannot be read is
 * tried again next round; the APY windows tolerate gaps.
 */
export function startVaultSnapshots(deps: VaultSnapshotsDeps): VaultSnapshots {
  const { database, chains, config, clock, log } = deps;
  let waiting: ((recorded: number) => void)[] = [];

  async function round(): Promise<number> {
    let recorded = 0;
    for (const ref of await listVaultRefs(database.db, config, chains)) {
      const now = clock();
      const latest = await latestSharePrice(database.db, ref.vaultId);
      if (latest && now.getTime() - latest.recordedAt.getTime() < config.snapshotIntervalMs / 2) continue;
      const chain = chains.get(ref.chainId)!;
      try {
        const metadata = await readVaultMetadata(chain, ref.address);
        const state = await readVaultState(chain, ref.address, metadata.decimals);
        await insertSharePrice(database.db, { vaultId: ref.vaultId, recordedAt: now, assetsPerShare: state.assetsPerShare.toString(), blockNumber: Number(state.blockNumber) });
        recorded++;
      } catch (err) {
        log.warn({ err, vaultId: ref.vaultId, chainId: ref.chainId }, 'vault snapshot: the vault could not be read; trying again next round');
      }
    }
    return recorded;
  }

  const rounds = new Rounds(
    async () => {
      const served = waiting;
      waiting = [];
      let recorded = 0;
      try {
        recorded = await round();
      } finally {
        served.forEach((resolve) => resolve(recorded));
        rounds.wakeIn(config.snapshotIntervalMs);
      }
    },
    (err) => log.error({ err }, 'vault snapshot round failed'),
    config.snapshotIntervalMs,
  );
  rounds.kick();
  return {
    runOnce() {
      const done = new Promise<number>((resolve) => waiting.push(resolve));
      rounds.kick();
      return done;
    },
    async stop() {
      await rounds.stop();
      waiting.forEach((resolve) => resolve(0));
      waiting = [];
    },
  };
}
