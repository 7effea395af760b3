import { erc20Abi, type Address } from 'viem';
import type { ChainClient } from './chain-client.js';
import { ContractCallError, RpcFailure } from './rpc-failure.js';

/**
 * An address's balance of an ERC-20 at the latest block: the pre-flight of a transfer (docs/tokens.md#transfers),
 * a withdrawal's quote, a token payout's treasury check, the treasury view. Throws RpcFailure; a listed token whose
 * balanceOf reverts (it was an ERC-20 at start-up) is the node's error, not the wallet's.
 */
export async function tokenBalanceOf(chain: ChainClient, token: Address, owner: Address): Promise<bigint> {
  try {
    return await chain.read(token, erc20Abi, 'balanceOf', [owner]);
  } catch (err) {
    if (err instanceof ContractCallError) throw new RpcFailure('rpc_error', err.message);
    throw err;
  }
}
