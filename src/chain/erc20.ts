import { decodeFunctionData, encodeFunctionData, erc20Abi, type Address, type Hex } from 'viem';
import type { ChainClient } from './chain-client.js';
import { ContractCallError } from './rpc-failure.js';

/** The contract at an address did not answer as an ERC-20 (no code, a revert, another contract). */
export class TokenReadError extends Error {
  override readonly name = 'TokenReadError';
}

/** What the contract itself says of a listed token (docs/tokens.md): read once, at start-up. */
export interface TokenContractMetadata {
  symbol: string;
  decimals: number;
}

export async function readTokenMetadata(chain: ChainClient, token: Address): Promise<TokenContractMetadata> {
  try {
    const [symbol, decimals] = await Promise.all([chain.read(token, erc20Abi, 'symbol', []), chain.read(token, erc20Abi, 'decimals', [])]);
    return { symbol, decimals };
  } catch (err) {
    if (err instanceof ContractCallError) throw new TokenReadError(`${token} on chain ${chain.chainId} is not an ERC-20 (${err.message})`);
    throw err;
  }
}

/** The calldata of an ERC-20 `transfer(to, amount)`. */
export function encodeTransfer(to: Address, amount: bigint): Hex {
  return encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] });
}

/** The calldata of `balanceOf(owner)`. */
export function encodeBalanceOf(owner: Address): Hex {
  return encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
}

/** `transfer(to, amount)` read back from calldata; undefined for any other call (or calldata that does not decode). */
export function decodeTransfer(data: Hex | undefined): { to: Address; amount: bigint } | undefined {
  if (!data || data.length < 10 || !data.toLowerCase().startsWith('0xa9059cbb')) return undefined;
  try {
    const decoded = decodeFunctionData({ abi: erc20Abi, data });
    if (decoded.functionName !== 'transfer') return undefined;
    const [to, amount] = decoded.args;
    return { to, amount };
  } catch {
    return undefined;
  }
}
