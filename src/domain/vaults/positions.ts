import { formatUnits, parseUnits } from 'viem';
import { convertToAssets, tokenBalance } from '../../chain/erc4626.js';
import { findDepositAccount } from '../../db/repositories/deposits.js';
import { listSettledVaultTransactions } from '../../db/repositories/vaults.js';
import type { TransactionRow } from '../../db/repositories/transactions.js';
import type { Executor } from '../../db/database.js';
import { notFound } from '../errors.js';
import type { StoredVaultCall } from '../transactions/transaction-view.js';
import { findVaultRef, listVaultRefs, type VaultRef } from './vault-registry.js';
import { chainReadProblem, readVault, type VaultDeps } from './vault-view.js';

/** An account's holding in a vault (docs/products.md#positions). Amounts are decimal strings in whole units. */
export interface VaultPositionView {
  accountId: string;
  vaultId: string;
  chainId: number;
  /** The vault's shares the account's wallet holds (balanceOf). */
  shares: string;
  /** What those shares convert to now (convertToAssets), in the asset. */
  assets: string;
  /** Deposited minus withdrawn through this service, as the vault's events recorded them. */
  netDeposited: string;
  /** assets - netDeposited: the yield so far (negative when the share price fell). */
  earnings: string;
  asset: { address: string; symbol: string; decimals: number };
}

/** Σ deposited − Σ withdrawn in the asset's base units, from the completed calls' settled figures. */
export function netDepositedOf(rows: TransactionRow[], vaultId: string, assetDecimals: number): bigint {
  let net = 0n;
  for (const row of rows) {
    const call = row.vault as StoredVaultCall | null;
    if (!call || call.vaultId !== vaultId || call.call === 'approve') continue;
    const assets = parseUnits(call.settled?.assets ?? call.assets, assetDecimals);
    net += call.call === 'deposit' ? assets : -assets;
  }
  return net;
}

async function positionOf(deps: VaultDeps, ref: VaultRef, accountId: string, wallet: `0x${string}` | null, rows: TransactionRow[]): Promise<VaultPositionView> {
  const vault = await readVault(deps, ref);
  let shares = 0n;
  let assets = 0n;
  if (wallet) {
    try {
      shares = await tokenBalance(vault.chain, ref.address, wallet);
      assets = shares === 0n ? 0n : await convertToAssets(vault.chain, ref.address, shares);
    } catch (err) {
      throw chainReadProblem(err);
    }
  }
  const { asset } = vault.metadata;
  const net = netDepositedOf(rows, ref.vaultId, asset.decimals);
  return {
    accountId,
    vaultId: ref.vaultId,
    chainId: ref.chainId,
    shares: formatUnits(shares, vault.metadata.decimals),
    assets: formatUnits(assets, asset.decimals),
    netDeposited: formatUnits(net, asset.decimals),
    earnings: formatUnits(assets - net, asset.decimals),
    asset: { address: asset.address.toLowerCase(), symbol: asset.symbol, decimals: asset.decimals },
  };
}

async function accountWallet(db: Executor, integratorId: string, accountId: string) {
  const found = await findDepositAccount(db, integratorId, accountId);
  if (!found) throw notFound('Account');
  return { accountId: found.account.id, wallet: (found.account.walletAddress?.toLowerCase() ?? null) as `0x${string}` | null };
}

export async function getVaultPosition(db: Executor, deps: VaultDeps, integratorId: string, accountId: string, vaultId: string): Promise<VaultPositionView> {
  const { accountId: id, wallet } = await accountWallet(db, integratorId, accountId);
  const ref = await findVaultRef(db, deps.config, deps.chains, vaultId);
  if (!ref) throw notFound('Vault');
  return positionOf(deps, ref, id, wallet, await listSettledVaultTransactions(db, id, [ref.vaultId]));
}

/** The account's positions: every vault where its wallet holds shares or it has deposited through this service. */
export async function listVaultPositions(db: Executor, deps: VaultDeps, integratorId: string, accountId: string): Promise<{ data: VaultPositionView[] }> {
  const { accountId: id, wallet } = await accountWallet(db, integratorId, accountId);
  const rows = await listSettledVaultTransactions(db, id);
  const used = new Set(rows.map((r) => (r.vault as StoredVaultCall | null)?.vaultId));
  const positions = await Promise.all((await listVaultRefs(db, deps.config, deps.chains)).map((ref) => positionOf(deps, ref, id, wallet, rows)));
  return { data: positions.filter((p) => p.shares !== '0' || used.has(p.vaultId)) };
}
