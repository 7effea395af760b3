import type { Address, Hash, Hex, TransactionSerializable } from 'viem';
import { readQuantities, type RpcPost } from './rpc-batch.js';
import { classifyRpcError, RpcFailure } from './rpc-failure.js';

/**
 * eth_sendRawTransaction; throws RpcFailure. Sent as a bare JSON-RPC request (the request path's every submission):
 * viem's client adds retry, dedupe and error-formatting layers this call does not use.
 */
export async function broadcastRaw(post: RpcPost, signed: Hex): Promise<Hash> {
  let answer: { result?: unknown; error?: { message?: unknown } } | null;
  try {
    answer = (await post({ jsonrpc: '2.0', id: 0, method: 'eth_sendRawTransaction', params: [signed] })) as typeof answer;
  } catch (err) {
    throw classifyRpcError(err);
  }
  if (!answer || typeof answer !== 'object') throw new RpcFailure('rpc_error', "eth_sendRawTransaction: the node's answer is not a JSON-RPC response");
  if (answer.error) throw classifyRpcError(new Error(`eth_sendRawTransaction: ${String(answer.error.message)}`));
  if (typeof answer.result !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(answer.result)) throw new RpcFailure('rpc_error', "eth_sendRawTransaction: the node's answer is not a transaction hash");
  return answer.result as Hash;
}

/**
 * What the node would refuse at once, asked before anything is recorded (docs/transactions.md#sending): a nonce
 * below the sender's mined count (nonce_too_low) and a balance short of value plus the most the gas can cost
 * (insufficient_funds). Two reads at one moment, not a promise: the broadcast after the commit may still be
 * refused. Throws RpcFailure.
 */
export async function preflightSend(post: RpcPost, from: Address, tx: TransactionSerializable): Promise<void> {
  // One JSON-RPC batch of this request's two reads, sent by itself: viem's batching would take in other
  // requests' calls of the same tick and wait on a timer tick.
  const [balance, mined] = await readQuantities(post, [
    { method: 'eth_getBalance', params: [from, 'latest'] },
    { method: 'eth_getTransactionCount', params: [from, 'latest'] },
  ]);
  if (tx.nonce !== undefined && tx.nonce < Number(mined)) throw new RpcFailure('nonce_too_low', `nonce ${tx.nonce} is below the sender's next nonce ${mined}`);
  const feeCap = ('maxFeePerGas' in tx ? tx.maxFeePerGas : undefined) ?? ('gasPrice' in tx ? tx.gasPrice : undefined) ?? 0n;
  const cost = (tx.value ?? 0n) + (tx.gas ?? 0n) * feeCap;
  if (balance! < cost) throw new RpcFailure('insufficient_funds', `insufficient funds for gas * price + value: balance ${balance}, cost ${cost}`);
}
