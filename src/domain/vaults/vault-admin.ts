import type { Address } from 'viem';
import type { ChainRegistry } from '../../chain/chain-client.js';
import { readVaultMetadata } from '../../chain/erc4626.js';
import type { Executor } from '../../db/database.js';
import { deleteVault, insertVault } from '../../db/repositories/vaults.js';
import { ApiError, notFound } from '../errors.js';
import { vaultIdOf } from './vault-config.js';
import { chainReadProblem } from './vault-view.js';

/** What an operator sees of a vault they registered. */
export interface RegisteredVault {
  vaultId: string;
  chainId: number;
  address: string;
  name: string;
  asset: { address: string; symbol: string; decimals: number };
  /** False when it was registered already (nothing changed). */
  created: boolean;
}

/**
 * Registers a vault at run time (`npm run admin -- vaults add`), beside VAULTS: its chain must be configured and
 * the contract must answer as an ERC-4626 vault. Registering it again changes nothing.
 */
export async function registerVault(db: Executor, chains: ChainRegistry, input: { chainId: number; address: string }, now: Date): Promise<RegisteredVault> {
  const chain = chains.get(input.chainId);
  if (!chain) throw new ApiError('unsupported_chain', `Chain ${input.chainId} is not in CHAIN_RPC_URLS`);
  if (!/^0x[0-9a-fA-F]{40}$/.test(input.address)) throw new ApiError('validation_failed', 'The address must be 0x and 40 hex digits');
  const address = input.address.toLowerCase() as Address;
  let metadata;
  try {
    metadata = await readVaultMetadata(chain, address);
  } catch (err) {
    throw chainReadProblem(err);
  }
  const vaultId = vaultIdOf(input.chainId, address);
  const created = await insertVault(db, { id: vaultId, chainId: input.chainId, address, createdAt: now });
  return { vaultId, chainId: input.chainId, address, name: metadata.name, asset: { address: metadata.asset.address.toLowerCase(), symbol: metadata.asset.symbol, decimals: metadata.asset.decimals }, created };
}

/** Unregisters a vault added at run time (one from VAULTS stays until the setting changes). Positions stay on chain. */
export async function unregisterVault(db: Executor, vaultId: string): Promise<{ vaultId: string; removed: true }> {
  if (!(await deleteVault(db, vaultId.toLowerCase()))) throw notFound('Vault');
  return { vaultId: vaultId.toLowerCase(), removed: true };
}
