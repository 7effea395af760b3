import { decodeFunctionData, encodeFunctionData, erc20Abi, erc4626Abi, type Address, type Hex } from 'viem';
import type { ChainClient } from './chain-client.js';
import { ContractCallError } from './rpc-failure.js';

/** The contract at an address did not answer as an ERC-4626 vault (or its asset as an ERC-20). */
export class VaultReadError extends Error {
  override readonly name = 'VaultReadError';
}

export interface VaultMetadata {
  address: Address;
  /** The vault share token's name, symbol and decimals. */
  name: string;
  symbol: string;
  decimals: number;
  asset: { address: Address; name: string; symbol: string; decimals: number };
}

export interface VaultState {
  totalAssets: bigint;
  totalSupply: bigint;
  /** convertToAssets(10 ** decimals): the asset's base units one whole share converts to. */
  assetsPerShare: bigint;
  blockNumber: bigint;
}

/** Runs reads, turning a reverting or missing contract into VaultReadError (RpcFailure passes through). */
async function asVault<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ContractCallError) throw new VaultReadError(`${what}: ${err.message}`);
    throw err;
  }
}

export function readVaultMetadata(chain: ChainClient, vault: Address): Promise<VaultMetadata> {
  return asVault(`${vault} on chain ${chain.chainId} is not an ERC-4626 vault`, async () => {
    const [name, symbol, decimals, asset] = await Promise.all([
      chain.read(vault, erc20Abi, 'name', []),
      chain.read(vault, erc20Abi, 'symbol', []),
      chain.read(vault, erc20Abi, 'decimals', []),
      chain.read(vault, erc4626Abi, 'asset', []),
      // An ERC-20 answers the three above; only a vault answers totalAssets and asset.
      chain.read(vault, erc4626Abi, 'totalAssets', []),
    ]);
    const [assetName, assetSymbol, assetDecimals] = await Promise.all([chain.read(asset, erc20Abi, 'name', []), chain.read(asset, erc20Abi, 'symbol', []), chain.read(asset, erc20Abi, 'decimals', [])]);
    return { address: vault, name, symbol, decimals, asset: { address: asset, name: assetName, symbol: assetSymbol, decimals: assetDecimals } };
  });
}

export function readVaultState(chain: ChainClient, vault: Address, shareDecimals: number): Promise<VaultState> {
  return asVault(`reading ${vault}`, async () => {
    // All three at one block, so they agree with each other (and with blockNumber) even while blocks arrive.
    const at = { blockNumber: await chain.blockNumber() };
    const [totalAssets, totalSupply, assetsPerShare] = await Promise.all([
      chain.read(vault, erc4626Abi, 'totalAssets', [], at),
      chain.read(vault, erc4626Abi, 'totalSupply', [], at),
      chain.read(vault, erc4626Abi, 'convertToAssets', [10n ** BigInt(shareDecimals)], at),
    ]);
    const blockNumber = at.blockNumber;
    return { totalAssets, totalSupply, assetsPerShare, blockNumber };
  });
}

export const previewDeposit = (chain: ChainClient, vault: Address, assets: bigint) => asVault('previewDeposit', () => chain.read(vault, erc4626Abi, 'previewDeposit', [assets]));
export const previewRedeem = (chain: ChainClient, vault: Address, shares: bigint) => asVault('previewRedeem', () => chain.read(vault, erc4626Abi, 'previewRedeem', [shares]));
export const previewWithdraw = (chain: ChainClient, vault: Address, assets: bigint) => asVault('previewWithdraw', () => chain.read(vault, erc4626Abi, 'previewWithdraw', [assets]));
export const convertToAssets = (chain: ChainClient, vault: Address, shares: bigint) => asVault('convertToAssets', () => chain.read(vault, erc4626Abi, 'convertToAssets', [shares]));
export const maxWithdraw = (chain: ChainClient, vault: Address, owner: Address) => asVault('maxWithdraw', () => chain.read(vault, erc4626Abi, 'maxWithdraw', [owner]));
export const maxRedeem = (chain: ChainClient, vault: Address, owner: Address) => asVault('maxRedeem', () => chain.read(vault, erc4626Abi, 'maxRedeem', [owner]));
export const tokenBalance = (chain: ChainClient, token: Address, owner: Address) => asVault('balanceOf', () => chain.read(token, erc20Abi, 'balanceOf', [owner]));
export const allowance = (chain: ChainClient, token: Address, owner: Address, spender: Address) => asVault('allowance', () => chain.read(token, erc20Abi, 'allowance', [owner, spender]));

export const encodeApprove = (spender: Address, amount: bigint): Hex => encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] });
export const encodeDeposit = (assets: bigint, receiver: Address): Hex => encodeFunctionData({ abi: erc4626Abi, functionName: 'deposit', args: [assets, receiver] });
export const encodeWithdraw = (assets: bigint, receiver: Address, owner: Address): Hex => encodeFunctionData({ abi: erc4626Abi, functionName: 'withdraw', args: [assets, receiver, owner] });
export const encodeRedeem = (shares: bigint, receiver: Address, owner: Address): Hex => encodeFunctionData({ abi: erc4626Abi, functionName: 'redeem', args: [shares, receiver, owner] });

/** Which vault call (or the asset's approve) calldata makes, or null for anything else. */
export function decodeVaultCall(data: Hex): { functionName: 'approve' | 'deposit' | 'withdraw' | 'redeem'; args: readonly unknown[] } | null {
  for (const abi of [erc4626Abi, erc20Abi] as const) {
    try {
      const decoded = decodeFunctionData({ abi, data });
      if (['approve', 'deposit', 'withdraw', 'redeem'].includes(decoded.functionName)) return { functionName: decoded.functionName as 'approve', args: decoded.args ?? [] };
    } catch {
      // Not this ABI's function.
    }
  }
  return null;
}

/**
 * The vaults' chain reads for the API, per `chainId:address`: metadata kept for the process's life (a vault's
 * asset and decimals do not change), state for `ttlMs`. Concurrent misses share one read; a failed read is not kept.
 */
export class VaultReadCache {
  private readonly metadataByKey = new Map<string, Promise<VaultMetadata>>();
  private readonly stateByKey = new Map<string, { at: number; state: Promise<VaultState> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  metadata(chain: ChainClient, vault: Address): Promise<VaultMetadata> {
    const key = `${chain.chainId}:${vault.toLowerCase()}`;
    let hit = this.metadataByKey.get(key);
    if (!hit) {
      hit = readVaultMetadata(chain, vault);
      this.metadataByKey.set(key, hit);
      hit.catch(() => this.metadataByKey.delete(key));
    }
    return hit;
  }

  state(chain: ChainClient, vault: Address, shareDecimals: number): Promise<VaultState> {
    const key = `${chain.chainId}:${vault.toLowerCase()}`;
    const hit = this.stateByKey.get(key);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.state;
    const entry = { at: this.now(), state: readVaultState(chain, vault, shareDecimals) };
    this.stateByKey.set(key, entry);
    entry.state.catch(() => {
      if (this.stateByKey.get(key) === entry) this.stateByKey.delete(key);
    });
    return entry.state;
  }
}
