import type { ChainClient, ChainRegistry } from '../chain/chain-client.js';
import { ApiError } from './errors.js';

/** The configured chain's client, or 422 unsupported_chain naming the chains there are (`field` as the request spells it). */
export function requireChain(chains: ChainRegistry, chainId: number, field: 'chainId' | 'chain_id'): ChainClient {
  const chain = chains.get(chainId);
  if (chain) return chain;
  const known = chains.chainIds();
  throw new ApiError('unsupported_chain', `${field} ${chainId} is not supported here${known.length ? ` (supported: ${known.join(', ')})` : ' (no chains are configured)'}`);
}
