import type { Address, TransactionSerializable } from 'viem';
import { decodeTransfer } from '../../chain/erc20.js';
import type { ChainClient } from '../../chain/chain-client.js';
import { tokenBalanceOf } from '../../chain/token-preflight.js';
import { ApiError } from '../errors.js';
import { tokenAmount } from './amounts.js';
import type { Token, TokenRegistry } from './token-registry.js';

/**
 * Extension of a transfer's view (docs/tokens.md#transfers): the listed token it moves, to whom, how much. Decoded
 * at submission and stored with the row (token_transfer), so the view is what was approved even if TOKENS changes.
 */
export interface TokenTransferView {
  symbol: string;
  /** Checksummed: the unsigned transaction's `to`. */
  tokenAddress: string;
  /** Checksummed: the recipient of the tokens. */
  to: string;
  /** In the token's units ("12.5"), and the same in base units ("12500000"). */
  amount: string;
  amountRaw: string;
}

/** A decoded transfer of a listed token. */
export interface TokenTransfer {
  token: Token;
  to: Address;
  raw: bigint;
}

/**
 * The listed token's `transfer(to, amount)` an unsigned transaction calls: its `to` is a token of TOKENS on its chain,
 * it sends no coin and its calldata is exactly that call. Undefined for anything else (a coin transfer, an unlisted
 * contract, another function), which stays a contract call like any other.
 */
export function tokenTransferOf(tokens: TokenRegistry, unsigned: TransactionSerializable): TokenTransfer | undefined {
  if (!unsigned.to || unsigned.chainId === undefined || (unsigned.value ?? 0n) !== 0n) return undefined;
  const token = tokens.address(unsigned.chainId, unsigned.to);
  const call = token && decodeTransfer(unsigned.data);
  return call && { token: token!, to: call.to, raw: call.amount };
}

export function tokenTransferView(transfer: TokenTransfer): TokenTransferView {
  return { symbol: transfer.token.symbol, tokenAddress: transfer.token.address, to: transfer.to, ...tokenAmount(transfer.raw, transfer.token.decimals) };
}

/** The token_transfer column of a new transaction: the view of its token transfer, or null. */
export function tokenTransferColumn(tokens: TokenRegistry, unsigned: TransactionSerializable): TokenTransferView | null {
  const transfer = tokenTransferOf(tokens, unsigned);
  return transfer ? tokenTransferView(transfer) : null;
}

/**
 * The pre-flight's token half: a transfer of more than the wallet holds of the token would revert on chain (and
 * still cost its gas), so it is refused as gas is, 422 insufficient_funds, naming the token (`needs`: what the
 * detail says the transfer or withdrawal takes). Throws RpcFailure when the node cannot tell.
 */
export async function requireTokenBalance(chain: ChainClient, from: Address, token: { symbol: string; address: string; decimals: number }, raw: bigint, needs = 'the transfer needs'): Promise<void> {
  const held = await tokenBalanceOf(chain, token.address as Address, from);
  if (held >= raw) return;
  const { symbol, decimals } = token;
  throw new ApiError(
    'insufficient_funds',
    `The wallet holds ${tokenAmount(held, decimals).amount} ${symbol}, ${needs} ${tokenAmount(raw, decimals).amount} ${symbol} (chain ${chain.chainId}, token ${token.address})`,
  );
}
