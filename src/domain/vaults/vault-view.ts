import { formatUnits } from 'viem';
import type { ChainClient, ChainRegistry } from '../../chain/chain-client.js';
import { RpcFailure } from '../../chain/rpc-failure.js';
import { VaultReadError, type VaultMetadata, type VaultReadCache, type VaultState } from '../../chain/erc4626.js';
import type { Executor } from '../../db/database.js';
import { sharePriceAtOrBefore } from '../../db/repositories/vaults.js';
import { ApiError } from '../errors.js';
import { rpcProblem } from '../transactions/rpc-problem.js';
import { annualisedYield, APY_WINDOWS, startsWindow } from './apy.js';
import type { VaultConfig } from './vault-config.js';
import type { VaultRef } from './vault-registry.js';

export interface VaultDeps {
  chains: ChainRegistry;
  config: VaultConfig;
  /** The chain reads, cached for VAULT_CACHE_SECONDS (metadata for good). */
  reads: VaultReadCache;
}

/** The spec-less vault object (docs/products.md#vaults). Amounts are decimal strings in whole units. */
export interface VaultView {
  vaultId: string;
  chainId: number;
  address: string;
  name: string;
  symbol: string;
  /** The vault share's decimals. */
  decimals: number;
  asset: { address: string; symbol: string; decimals: number };
  totalAssets: string;
  /** The assets one whole share converts to now. */
  sharePrice: string;
  apy7d: number | null;
  apy30d: number | null;
}

/** A vault read from its chain: metadata, current state. Problems: 502 chain_unavailable or vault_unreadable. */
export interface ReadVault {
  ref: VaultRef;
  chain: ChainClient;
  metadata: VaultMetadata;
  state: VaultState;
}

/** Maps what a chain read may throw to the API's problems. */
export function chainReadProblem(err: unknown): unknown {
  if (err instanceof RpcFailure) return rpcProblem(err);
  if (err instanceof VaultReadError) return new ApiError('vault_unreadable', `The vault did not answer as an ERC-4626 vault: ${err.message}`);
  return err;
}

export async function readVault(deps: VaultDeps, ref: VaultRef): Promise<ReadVault> {
  const chain = deps.chains.get(ref.chainId);
  if (!chain) throw new ApiError('unsupported_chain', `Chain ${ref.chainId} is not configured`);
  try {
    const metadata = await deps.reads.metadata(chain, ref.address);
    const state = await deps.reads.state(chain, ref.address, metadata.decimals);
    return { ref, chain, metadata, state };
  } catch (err) {
    throw chainReadProblem(err);
  }
}

export function toVaultView(read: ReadVault, apys: { apy7d: number | null; apy30d: number | null }): VaultView {
  const { ref, metadata, state } = read;
  return {
    vaultId: ref.vaultId,
    chainId: ref.chainId,
    address: ref.address,
    name: metadata.name,
    symbol: metadata.symbol,
    decimals: metadata.decimals,
    asset: { address: metadata.asset.address.toLowerCase(), symbol: metadata.asset.symbol, decimals: metadata.asset.decimals },
    totalAssets: formatUnits(state.totalAssets, metadata.asset.decimals),
    sharePrice: formatUnits(state.assetsPerShare, metadata.asset.decimals),
    ...apys,
  };
}

/** apy7d and apy30d from this service's snapshots against the current share price (docs/products.md#apy). */
export async function apysOf(db: Executor, vaultId: string, assetsPerShare: bigint, now: Date): Promise<{ apy7d: number | null; apy30d: number | null }> {
  const result = { apy7d: null as number | null, apy30d: null as number | null };
  for (const { field, days } of APY_WINDOWS) {
    const start = await sharePriceAtOrBefore(db, vaultId, new Date(now.getTime() - days * 86_400_000));
    if (!start || !startsWindow(start.recordedAt, now, days)) continue;
    result[field] = annualisedYield({ assetsPerShare: BigInt(start.assetsPerShare), at: start.recordedAt }, { assetsPerShare, at: now });
  }
  return result;
}

export async function vaultView(db: Executor, deps: VaultDeps, ref: VaultRef, now: Date): Promise<VaultView> {
  const read = await readVault(deps, ref);
  return toVaultView(read, await apysOf(db, ref.vaultId, read.state.assetsPerShare, now));
}

