import { getAddress, type Address } from 'viem';
import type { ChainRegistry } from '../../chain/chain-client.js';
import { readTokenMetadata, TokenReadError } from '../../chain/erc20.js';
import type { TokenEntry } from './token-config.js';

/** A listed token as the API shows it (list-tokens, balances, transfers, deposits and withdrawals in a token). */
export interface Token {
  chainId: number;
  symbol: string;
  /** Checksummed. */
  address: Address;
  decimals: number;
}

/** Why the listed tokens could not all be confirmed on their chains: every problem, reported together. */
export class TokenRegistryError extends Error {
  override readonly name = 'TokenRegistryError';
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

/** The native coin's symbol of the chains this service knows by id; any other chain's coin is `ETH` (an EVM L2's). */
const NATIVE_SYMBOLS: Record<number, string> = { 1: 'ETH', 8453: 'ETH', 10: 'ETH', 42161: 'ETH', 11155111: 'ETH', 84532: 'ETH', 31337: 'ETH', 137: 'POL', 56: 'BNB', 43114: 'AVAX' };

export const nativeSymbol = (chainId: number): string => NATIVE_SYMBOLS[chainId] ?? 'ETH';

/**
 * The ERC-20s of TOKENS, confirmed on their chains at start-up (docs/tokens.md): each answers `symbol()` and
 * `decimals()`, and its symbol is the one configured (any case). Looked up by symbol (an `asset` in a request) or
 * address (a transfer's `to`).
 */
export class TokenRegistry {
  private readonly bySymbol = new Map<string, Token>();
  private readonly byAddress = new Map<string, Token>();

  constructor(readonly tokens: readonly Token[]) {
    for (const token of tokens) {
      this.bySymbol.set(`${token.chainId}:${token.symbol.toUpperCase()}`, token);
      this.byAddress.set(`${token.chainId}:${token.address.toLowerCase()}`, token);
    }
  }

  /** Every listed token, or those of one chain; by chain, then symbol. */
  list(chainId?: number): Token[] {
    return this.tokens.filter((t) => chainId === undefined || t.chainId === chainId);
  }

  symbol(chainId: number, symbol: string): Token | undefined {
    return this.bySymbol.get(`${chainId}:${symbol.toUpperCase()}`);
  }

  address(chainId: number, address: string): Token | undefined {
    return this.byAddress.get(`${chainId}:${address.toLowerCase()}`);
  }
}

/**
 * Reads every listed token's metadata from its chain, all at once. TokenRegistryError names every problem of TOKENS
 * in one run: those of the configuration (`configured`: malformed entries, chains not configured, entries given twice)
 * first, then each entry its chain refuses, in TOKENS' order.
 */
export async function loadTokenRegistry(entries: readonly TokenEntry[], chains: ChainRegistry, configured: readonly string[] = []): Promise<TokenRegistry> {
  const read = await Promise.all(entries.map((entry) => confirm(entry, chains)));
  const problems = [...configured, ...read.filter((r): r is string => typeof r === 'string')];
  if (problems.length > 0) throw new TokenRegistryError(problems);
  const tokens = (read as Token[]).sort((a, b) => a.chainId - b.chainId || a.symbol.localeCompare(b.symbol));
  return new TokenRegistry(tokens);
}

/** One entry confirmed on its chain: the token, or the problem that names it. */
async function confirm(entry: TokenEntry, chains: ChainRegistry): Promise<Token | string> {
  const named = `TOKENS: ${entry.chainId}:${entry.symbol}:${entry.address}`;
  const chain = chains.get(entry.chainId);
  if (!chain) return `${named}: chain ${entry.chainId} is not in CHAIN_RPC_URLS`;
  try {
    const { symbol, decimals } = await readTokenMetadata(chain, entry.address as Address);
    if (symbol.toUpperCase() !== entry.symbol.toUpperCase()) return `${named}: the contract's symbol is ${JSON.stringify(symbol)}, not ${entry.symbol}`;
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > 36) return `${named}: decimals() is ${decimals}, outside 0 to 36`;
    return { chainId: entry.chainId, symbol: entry.symbol, address: getAddress(entry.address), decimals };
  } catch (err) {
    return err instanceof TokenReadError ? `${named}: ${err.message}` : `${named}: its chain did not answer (${(err as Error).message})`;
  }
}
