import type { ChainRegistry } from '../../chain/chain-client.js';
import { nativeSymbol, type TokenRegistry } from '../tokens/token-registry.js';

/** What a rule's `asset` on a `chainId` resolves to: its symbol as configured, its decimals, and `native` or the token's address. */
export interface PolicyAsset {
  symbol: string;
  decimals: number;
  /** `native`, or the token contract in lower case (policy_reservations.asset). */
  key: string;
}

/** The assets a rule may name: a chain's native coin or a token TOKENS lists on it. */
export interface PolicyAssets {
  hasChain(chainId: number): boolean;
  /** Undefined when the chain is not configured or lists no such symbol (any case). */
  find(chainId: number, symbol: string): PolicyAsset | undefined;
  /** What a 400 offers instead: the native coin first, then the listed tokens. */
  listed(chainId: number): string[];
  chainIds(): number[];
}

/** Every EVM chain's native coin has 18 decimals (wei). */
const NATIVE_DECIMALS = 18;

/** The deployment's assets: CHAIN_RPC_URLS' chains with their native coins, and TOKENS. */
export function policyAssets(chains: ChainRegistry, tokens: TokenRegistry): PolicyAssets {
  return {
    hasChain: (chainId) => chains.get(chainId) !== undefined,
    find(chainId, symbol) {
      if (!chains.get(chainId)) return undefined;
      const native = nativeSymbol(chainId);
      if (symbol.toUpperCase() === native.toUpperCase()) return { symbol: native, decimals: NATIVE_DECIMALS, key: 'native' };
      const token = tokens.symbol(chainId, symbol);
      return token ? { symbol: token.symbol, decimals: token.decimals, key: token.address.toLowerCase() } : undefined;
    },
    listed: (chainId) => [nativeSymbol(chainId), ...tokens.list(chainId).map((t) => t.symbol)],
    chainIds: () => chains.chainIds(),
  };
}
