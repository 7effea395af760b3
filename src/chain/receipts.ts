import { formatTransactionReceipt, type Hash, type TransactionReceipt } from 'viem';
import { postBatch, QUANTITY, type RpcAnswer, type RpcPost } from './rpc-batch.js';
import { classifyRpcError, RpcFailure } from './rpc-failure.js';

/** The spec's transactionReceipt: integers for index and block number, decimal strings for amounts. */
export interface ReceiptView {
  transactionHash: string;
  transactionIndex: number;
  blockHash: string;
  blockNumber: number;
  gasUsed: string;
  effectiveGasPrice: string;
  blobGasUsed: string;
  blobGasPrice: string;
  from: string;
  to: string;
  contractAddress: string;
  /** Not in the spec's list; tells completed from reverted. */
  status: 'success' | 'reverted';
}

export function toReceiptView(r: TransactionReceipt): ReceiptView {
  return {
    transactionHash: r.transactionHash,
    transactionIndex: r.transactionIndex,
    blockHash: r.blockHash,
    blockNumber: Number(r.blockNumber),
    gasUsed: r.gasUsed.toString(),
    effectiveGasPrice: (r.effectiveGasPrice ?? 0n).toString(),
    blobGasUsed: (r.blobGasUsed ?? 0n).toString(),
    blobGasPrice: (r.blobGasPrice ?? 0n).toString(),
    from: r.from,
    to: r.to ?? '',
    contractAddress: r.contractAddress ?? '',
    status: r.status,
  };
}

/** Receipts asked in one JSON-RPC batch (one HTTP request), as viem's batching had it. */
export const RECEIPT_BATCH = 100;

/** eth_getTransactionReceipt's answer: the receipt's view, null while pending, or why it is neither. */
function receiptOf(answer: RpcAnswer | undefined): ReceiptView | null | RpcFailure {
  if (answer?.error) return classifyRpcError(new Error(`eth_getTransactionReceipt: ${String(answer.error.message)}`));
  if (answer?.result === null) return null;
  const raw = answer?.result as Record<string, unknown> | undefined;
  // What toReceiptView reads, checked before viem's formatter parses it (which trusts the node).
  const quantities = ['transactionIndex', 'blockNumber', 'gasUsed'].every((k) => typeof raw?.[k] === 'string' && QUANTITY.test(raw[k] as string));
  if (!raw || typeof raw !== 'object' || !quantities || typeof raw.transactionHash !== 'string' || typeof raw.blockHash !== 'string' || (raw.status !== '0x1' && raw.status !== '0x0')) {
    return new RpcFailure('rpc_error', "eth_getTransactionReceipt: the node's answer is not a receipt");
  }
  return toReceiptView(formatTransactionReceipt(raw as never));
}

/**
 * Each hash's receipt (null while pending) or the RpcFailure of its lookup, asked in JSON-RPC batches of up to
 * RECEIPT_BATCH (one HTTP request for a watcher round instead of one per transaction). Posted bare (postJsonRpc):
 * through viem, every pending transaction's null answer became a TransactionReceiptNotFoundError with its stack,
 * a thousand a second under bench:transactions (docs/benchmarks.md#transactions).
 */
export async function batchedReceipts(post: RpcPost, hashes: Hash[]): Promise<Map<Hash, ReceiptView | null | RpcFailure>> {
  const found = new Map<Hash, ReceiptView | null | RpcFailure>();
  for (let i = 0; i < hashes.length; i += RECEIPT_BATCH) {
    const chunk = hashes.slice(i, i + RECEIPT_BATCH);
    let answers: (RpcAnswer | undefined)[];
    try {
      answers = await postBatch(post, chunk.map((hash) => ({ method: 'eth_getTransactionReceipt', params: [hash] })));
    } catch (err) {
      const failure = err instanceof RpcFailure ? err : classifyRpcError(err);
      for (const hash of chunk) found.set(hash, failure);
      continue;
    }
    chunk.forEach((hash, id) => found.set(hash, receiptOf(answers[id])));
  }
  return found;
}
