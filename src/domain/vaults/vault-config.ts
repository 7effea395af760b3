import { v5 as uuidv5 } from 'uuid';

/** VAULTS and the VAULT_* settings (docs/products.md#vaults). */
export interface VaultConfig {
  /** VAULTS: `chainId:address` pairs. Operators add more at run time (`npm run admin -- vaults add`). */
  configured: { chainId: number; address: string }[];
  /** How long a vault's figures read from the chain are reused (VAULT_CACHE_SECONDS). */
  cacheMs: number;
  /** How often the share price of each vault is recorded, for the APYs (VAULT_SNAPSHOT_SECONDS). */
  snapshotIntervalMs: number;
  /** How long a prepared vault transaction may wait for its approval (VAULT_PREPARATION_SECONDS). */
  preparationTtlMs: number;
  /**
   * The gas limit of a deposit prepared behind an approve (VAULT_DEPOSIT_GAS): the node cannot estimate it before the
   * approve is mined, since the deposit would revert on the missing allowance. Unused gas is not charged.
   */
  depositGasLimit: bigint;
}

/** The namespace of vault ids: a vault's id is UUIDv5 of `chainId:address`, so it is the same however it was configured. */
const VAULT_NAMESPACE = '2f0e6c1a-8b1d-5b8e-9a55-4f7c3e1d2b60';

export function vaultIdOf(chainId: number, address: string): string {
  return uuidv5(`${chainId}:${address.toLowerCase()}`, VAULT_NAMESPACE);
}

/** VAULTS: comma-separated `chainId:0xaddress` (example `8453:0xabc...,1:0xdef...`); each chain must be in CHAIN_RPC_URLS. */
export function parseVaults(raw: string | undefined, chainIds: ReadonlySet<number>): VaultConfig['configured'] {
  if (raw === undefined || raw.trim() === '') return [];
  const seen = new Set<string>();
  const vaults: VaultConfig['configured'] = [];
  for (const entry of raw.split(',').map((e) => e.trim()).filter(Boolean)) {
    const m = /^([0-9]{1,15}):(0x[0-9a-fA-F]{40})$/.exec(entry);
    if (!m) throw new Error(`"${entry}" is not chainId:0x<40 hex digits>`);
    const chainId = Number(m[1]);
    if (!chainIds.has(chainId)) throw new Error(`"${entry}": chain ${chainId} is not in CHAIN_RPC_URLS`);
    const address = m[2]!.toLowerCase();
    if (seen.has(`${chainId}:${address}`)) throw new Error(`"${entry}" is listed twice`);
    seen.add(`${chainId}:${address}`);
    vaults.push({ chainId, address });
  }
  return vaults;
}
