import type { Address } from 'viem';
import { ANVIL_DEV_KEY, deployDemoStablecoin, mintDemoToken } from '../../src/chain/demo-vault.js';
import { encodeBalanceOf } from '../../src/chain/erc20.js';
import type { Anvil } from './anvil.js';
import type { Backend } from './backends.js';
import { startTenantsOnChain, useStarted, type ChainTenantServer } from './tenants.js';

/** A real ERC-20 (contracts/DemoToken.sol, compiled from source: 6 decimals, open mint) deployed as USDC on a test chain. */
export interface TestToken {
  symbol: string;
  address: Address;
  decimals: number;
  /** Mints base units to an address (a wallet, the treasury). */
  mint(to: string, amount: bigint): Promise<void>;
  /** balanceOf(owner) on chain, in base units. */
  balanceOf(owner: string): Promise<bigint>;
}

export async function deployTestToken(chain: Anvil, symbol = 'USDC'): Promise<TestToken> {
  const address = await deployDemoStablecoin({ rpcUrl: chain.url, chainId: chain.chainId, deployerKey: ANVIL_DEV_KEY, symbol });
  return {
    symbol,
    address,
    decimals: 6,
    mint: async (to, amount) => {
      await mintDemoToken({ rpcUrl: chain.url, chainId: chain.chainId, signerKey: ANVIL_DEV_KEY, token: address, to: to as Address, amount });
    },
    balanceOf: async (owner) => BigInt(await chain.rpc<string>('eth_call', [{ to: address, data: encodeBalanceOf(owner as Address) }, 'latest'])),
  };
}

/** Tenants on a test chain whose server lists a USDC (TOKENS) deployed before it started. */
export async function startTenantsWithToken<const Names extends readonly string[]>(
  backend: Backend,
  chainId: number,
  names: Names,
  env: Record<string, string> = {},
): Promise<ChainTenantServer<Names> & { token: TestToken }> {
  let token: TestToken | undefined;
  const started = await startTenantsOnChain(backend, chainId, names, env, async (chain) => {
    token = await deployTestToken(chain);
    return { TOKENS: `${chainId}:${token.symbol}:${token.address}` };
  });
  return { ...started, token: token! };
}

/** startTenantsWithToken as the calling describe's fixture (tenants.ts#useStarted): `const { server, chain, tenants: [acme], token } = useTenantsWithToken(…)`. */
export function useTenantsWithToken<const Names extends readonly string[]>(backend: Backend, chainId: number, names: Names, env: Record<string, string> = {}): ChainTenantServer<Names> & { token: TestToken } {
  return useStarted(['server', 'chain', 'token'], names, () => startTenantsWithToken(backend, chainId, names, env));
}
