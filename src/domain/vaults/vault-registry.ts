import type { Address } from 'viem';
import type { ChainRegistry } from '../../chain/chain-client.js';
import type { Executor } from '../../db/database.js';
import { listRegisteredVaults } from '../../db/repositories/vaults.js';
import { vaultIdOf, type VaultConfig } from './vault-config.js';

/** A vault this deployment offers: from VAULTS or registered by an operator, on a chain of CHAIN_RPC_URLS. */
export interface VaultRef {
  vaultId: string;
  chainId: number;
  address: Address;
}

/** Every vault offered, by chain then address; a vault both configured and registered is listed once. */
export async function listVaultRefs(db: Executor, config: VaultConfig, chains: ChainRegistry): Promise<VaultRef[]> {
  const byId = new Map<string, VaultRef>();
  const add = (chainId: number, address: string) => {
    if (!chains.get(chainId)) return;
    const vaultId = vaultIdOf(chainId, address);
    if (!byId.has(vaultId)) byId.set(vaultId, { vaultId, chainId, address: address.toLowerCase() as Address });
  };
  for (const v of config.configured) add(v.chainId, v.address);
  for (const v of await listRegisteredVaults(db)) add(v.chainId, v.address);
  return [...byId.values()].sort((a, b) => a.chainId - b.chainId || a.address.localeCompare(b.address));
}

export async function findVaultRef(db: Executor, config: VaultConfig, chains: ChainRegistry, vaultId: string): Promise<VaultRef | undefined> {
  return (await listVaultRefs(db, config, chains)).find((v) => v.vaultId === vaultId.toLowerCase());
}
