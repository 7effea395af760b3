/**
 * CHAIN_RPC_URLS: `chainId=url` pairs, comma-separated (e.g. `1=https://eth.example,8453=https://base.example`).
 * Returns the map, or throws an Error naming the bad entry.
 */
export function parseChainRpcUrls(raw: string): Map<number, string> {
  const urls = new Map<number, string>();
  for (const entry of raw.split(',').map((e) => e.trim()).filter((e) => e !== '')) {
    const eq = entry.indexOf('=');
    const id = eq > 0 ? entry.slice(0, eq).trim() : '';
    const url = eq > 0 ? entry.slice(eq + 1).trim() : '';
    if (!/^\d{1,15}$/.test(id)) throw new Error(`"${entry}" must be chainId=url with a decimal chain id`);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`"${entry}": ${url || 'the URL'} is not an absolute URL`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`"${entry}": the RPC URL must be http or https`);
    if (urls.has(Number(id))) throw new Error(`chain ${id} is given twice`);
    urls.set(Number(id), url);
  }
  return urls;
}
