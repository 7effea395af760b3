import { serializeTransaction, type Address } from 'viem';
import type { ChainClient } from '../../chain/chain-client.js';
import { RpcFailure } from '../../chain/rpc-failure.js';
import { encodeTransfer } from '../../chain/erc20.js';
import { notOffered } from '../errors.js';
import type { Token } from '../tokens/token-registry.js';
import { tokenRate, tokenUnitsFor } from '../tokens/token-rates.js';
import { requireTokenBalance } from '../tokens/token-transfer.js';
import { cryptoAmountOf, storedToken, type CryptoAmountView, type StoredToken } from '../tokens/transaction-asset.js';
import { rpcProblem } from '../transactions/rpc-problem.js';
import type { WithdrawalConfig } from './withdrawal-config.js';

/** What a withdrawal takes from the wallet, as its row stores it: wei, or a token's base units (and then no wei). */
export interface WithdrawalCrypto {
  value: bigint;
  token?: StoredToken;
  tokenAmount?: bigint;
  /** A token's: whole units of it per unit of the currency (WITHDRAWAL_TOKEN_RATES), shown as withdrawal.rate. */
  rate?: string;
}

/**
 * The crypto for `cents` (amount and fee) at the configured rate: wei at WITHDRAWAL_RATES, or the token's base units
 * at WITHDRAWAL_TOKEN_RATES rounded up (never less than what is paid out). A pair without a rate is 422 not_offered.
 */
export function withdrawalCrypto(cents: bigint, currency: 'USD' | 'EUR', token: Token | undefined, config: WithdrawalConfig): WithdrawalCrypto {
  if (!token) return { value: (cents * config.weiPerUnit[currency]) / 100n };
  const rate = tokenRate(config.tokenRates, currency, token.symbol, config.sandboxRates);
  if (!rate) throw notOffered('/asset', 'no_rate', `Withdrawals of ${currency} in ${token.symbol} are not offered on this deployment: WITHDRAWAL_TOKEN_RATES has no rate for ${currency}:${token.symbol}`);
  return { value: 0n, token: storedToken(token), tokenAmount: tokenUnitsFor(cents, rate, token.decimals, 'up'), rate };
}

/** The view's asset, cryptoAmount, cryptoAmountRaw (and cryptoAmountWei for the native coin) of a quote. */
export function quotedCrypto(crypto: WithdrawalCrypto, chainId: number): CryptoAmountView {
  return cryptoAmountOf({ chainId, value: crypto.value.toString(), token: crypto.token ?? null, tokenAmount: crypto.tokenAmount?.toString() ?? null });
}

/**
 * The unsigned EIP-1559 transaction the end user approves: the coin sent to the treasury, or the token's
 * `transfer(treasury, amount)` sent to the token with no coin. A wallet short of the token is refused now (422
 * insufficient_funds naming it), as the pre-flight would refuse its approval; the node's problems are its own.
 */
export async function unsignedWithdrawal(chain: ChainClient, from: Address, treasury: Address, crypto: WithdrawalCrypto): Promise<{ unsignedTransaction: string; nonce: number }> {
  try {
    const { token, tokenAmount } = crypto;
    if (token && tokenAmount !== undefined) {
      await requireTokenBalance(chain, from, token, tokenAmount, 'the withdrawal takes');
      const data = encodeTransfer(treasury, tokenAmount);
      const [parameters, nonce] = await Promise.all([chain.callParameters(from, token.address as Address, data), chain.pendingNonce(from)]);
      return { unsignedTransaction: serializeTransaction({ chainId: chain.chainId, type: 'eip1559', nonce, to: token.address as Address, value: 0n, data, ...parameters }), nonce };
    }
    const parameters = await chain.transferParameters(from, treasury, crypto.value);
    const nonce = await chain.pendingNonce(from);
    return { unsignedTransaction: serializeTransaction({ chainId: chain.chainId, type: 'eip1559', nonce, to: treasury, value: crypto.value, ...parameters }), nonce };
  } catch (err) {
    if (err instanceof RpcFailure) throw rpcProblem(err);
    throw err;
  }
}
