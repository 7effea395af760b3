import type { Token, TokenRegistry } from './token-registry.js';

/** list-tokens (docs/tokens.md): the listed tokens, by chain then symbol. */
export function listTokens(registry: TokenRegistry, chainId: number | undefined): { data: Token[] } {
  return { data: registry.list(chainId).map(({ chainId, symbol, address, decimals }) => ({ chainId, symbol, address, decimals })) };
}
