import type { Address } from 'viem';
import { ANVIL_DEV_KEY, deployDemoVault, mintDemoToken } from '../../src/chain/demo-vault.js';
import type { Anvil } from './anvil.js';

export interface DeployedVault {
  /** The demo ERC-20 (dUSD, 6 decimals). */
  token: Address;
  /** The ERC-4626 vault over it. */
  vault: Address;
  /** Mints dUSD (base units) to an address: a wallet, or the vault itself (yield). */
  mint(to: Address, amount: bigint): Promise<void>;
}

/** The demo token and vault (contracts/, compiled artifacts), deployed on `anvil` by its funded development account. */
export async function deployVault(anvil: Anvil): Promise<DeployedVault> {
  const { token, vault } = await deployDemoVault({ rpcUrl: anvil.url, chainId: anvil.chainId, deployerKey: ANVIL_DEV_KEY });
  return {
    token,
    vault,
    mint: async (to, amount) => {
      await mintDemoToken({ rpcUrl: anvil.url, chainId: anvil.chainId, signerKey: ANVIL_DEV_KEY, token, to, amount });
    },
  };
}
