import { formatUnits, type Address, type Hex } from 'viem';
import type { ChainClient } from '../../chain/chain-client.js';
import { encodeTransfer } from '../../chain/erc20.js';
import { tokenBalanceOf } from '../../chain/token-preflight.js';
import type { Executor } from '../../db/database.js';
import { reservedTokenPayouts } from '../../db/repositories/deposits.js';
import type { TransactionRow } from '../../db/repositories/transactions.js';
import type { StoredToken } from '../tokens/transaction-asset.js';

/** What a payout (a deposit's, a refund's) sends from the treasury: wei to the wallet, or a token's transfer to it. */
export interface PayoutCall {
  to: Address;
  value: bigint;
  /** Token payouts: transfer(wallet, amount), sent to the token contract with no value. */
  data?: Hex;
  token?: StoredToken & { amount: bigint };
}

export function payoutCall(row: TransactionRow): PayoutCall {
  const wallet = row.toAddress as Address;
  const token = row.token as StoredToken | null;
  if (!token) return { to: wallet, value: BigInt(row.value) };
  const amount = BigInt(row.tokenAmount ?? '0');
  return { to: token.address as Address, value: 0n, data: encodeTransfer(wallet, amount), token: { ...token, amount } };
}

/** The treasury cannot pay a token payout now: it waits (payoutError says why) until the treasury is funded. */
export class TreasuryShortfall extends Error {
  override readonly name = 'TreasuryShortfall';
}

/**
 * A token payout is signed only if the treasury's balance of the token, less what payouts signed or under way will
 * take, covers it: else the token's transfer would revert on chain (a failed deposit, gas spent) instead of waiting.
 * Called under the treasury's nonce lock, so two payouts never count the same balance. Throws TreasuryShortfall.
 */
export async function requireTreasuryTokens(tx: Executor, chain: ChainClient, treasury: Address, call: PayoutCall): Promise<void> {
  const token = call.token;
  if (!token) return;
  const [balance, reserved] = await Promise.all([tokenBalanceOf(chain, token.address as Address, treasury), reservedTokenPayouts(tx, chain.chainId, treasury, token.address)]);
  const free = balance > reserved ? balance - reserved : 0n;
  if (free >= token.amount) return;
  const units = (raw: bigint) => `${formatUnits(raw, token.decimals)} ${token.symbol}`;
  throw new TreasuryShortfall(`the treasury ${treasury} holds ${units(balance)} on chain ${chain.chainId}${reserved > 0n ? ` (${units(reserved)} of it for payouts under way)` : ''}; this payout needs ${units(token.amount)}`);
}
