import type { Executor } from '../../db/database.js';
import { notFound } from '../errors.js';
import { findVaultRef, listVaultRefs } from './vault-registry.js';
import { vaultView, type VaultDeps, type VaultView } from './vault-view.js';

/** list-vaults: every vault offered, read from its chain (cached) with the APYs. */
export async function listVaults(db: Executor, deps: VaultDeps, now: Date): Promise<{ data: VaultView[] }> {
  const refs = await listVaultRefs(db, deps.config, deps.chains);
  return { data: await Promise.all(refs.map((ref) => vaultView(db, deps, ref, now))) };
}

export async function getVault(db: Executor, deps: VaultDeps, vaultId: string, now: Date): Promise<VaultView> {
  const ref = await findVaultRef(db, deps.config, deps.chains, vaultId);
  if (!ref) throw notFound('Vault');
  return vaultView(db, deps, ref, now);
}
