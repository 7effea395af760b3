/** One entry of TOKENS: a listed ERC-20 on a configured chain (docs/tokens.md). */
export interface TokenEntry {
  chainId: number;
  /** As configured: the symbol the API names the token by on its chain (`asset`), checked against the contract's. */
  symbol: string;
  /** Lower case. */
  address: string;
}

/** A symbol as integrators write it in `asset`: letters and digits, up to 11 (ERC-20 symbols in use fit). */
const SYMBOL = /^[A-Za-z][A-Za-z0-9.]{0,10}$/;

/**
 * TOKENS: comma-separated `chainId:SYMBOL:0xaddress` (example `8453:USDC:0x8335...`); each chain must be in
 * CHAIN_RPC_URLS, a symbol listed once per chain (any case) and an address once per chain. Every bad entry is
 * reported, not only the first.
 */
export function parseTokens(raw: string | undefined, chainIds: ReadonlySet<number>): { tokens: TokenEntry[]; problems: string[] } {
  const tokens: TokenEntry[] = [];
  const problems: string[] = [];
  if (raw === undefined || raw.trim() === '') return { tokens, problems };
  const symbols = new Set<string>();
  const addresses = new Set<string>();
  for (const entry of raw.split(',').map((e) => e.trim()).filter(Boolean)) {
    const m = /^([0-9]{1,15}):([^:]+):(0x[0-9a-fA-F]{40})$/.exec(entry);
    if (!m) {
      problems.push(`"${entry}" is not chainId:SYMBOL:0x<40 hex digits>`);
      continue;
    }
    const chainId = Number(m[1]);
    const symbol = m[2]!;
    const address = m[3]!.toLowerCase();
    if (!SYMBOL.test(symbol)) problems.push(`"${entry}": the symbol must be a letter then up to 10 letters, digits or dots`);
    else if (!chainIds.has(chainId)) problems.push(`"${entry}": chain ${chainId} is not in CHAIN_RPC_URLS`);
    else if (symbols.has(`${chainId}:${symbol.toUpperCase()}`)) problems.push(`"${entry}": ${symbol} is listed twice on chain ${chainId}`);
    else if (addresses.has(`${chainId}:${address}`)) problems.push(`"${entry}": ${address} is listed twice on chain ${chainId}`);
    else {
      symbols.add(`${chainId}:${symbol.toUpperCase()}`);
      addresses.add(`${chainId}:${address}`);
      tokens.push({ chainId, symbol, address });
    }
  }
  return { tokens, problems };
}
