import { createPublicClient, formatTransactionReceipt, http, type Abi, type Address, type ContractFunctionArgs, type ContractFunctionName, type ContractFunctionReturnType, type Hash, type Hex, type Log, type PublicClient, type TransactionReceipt, type TransactionSerializable } from 'viem';
import { postJsonRpc, rpcFetch } from './rpc-fetch.js';

/** Why an RPC call failed, in the terms the API reports (docs: transactions). */
export type RpcFailureCode =
  | 'insufficient_funds'
  | 'nonce_too_low'
  | 'nonce_too_high'
  | 'replacement_underpriced'
  | 'gas_too_low'
  | 'fee_too_low'
  | 'transaction_rejected'
  | 'rpc_unreachable'
  | 'rpc_error';

export class RpcFailure extends Error {
  override readonly name = 'RpcFailure';
  constructor(
    readonly code: RpcFailureCode,
    message: string,
  ) {
    super(message);
  }
}

/** A contract call reverted or reached an address without the function (no code, another contract). */
export class ContractCallError extends Error {
  override readonly name = 'ContractCallError';
}

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

/** One call's answer in a JSON-RPC batch. */
export interface RpcAnswer {
  id?: unknown;
  result?: unknown;
  error?: { message?: unknown };
}

/** A JSON-RPC quantity: 0x and hexadecimal digits. */
const HEX = /^0x[0-9a-fA-F]+$/;

/** eth_getTransactionReceipt's answer: the receipt's view, null while pending, or why it is neither. */
function receiptOf(answer: RpcAnswer | undefined): ReceiptView | null | RpcFailure {
  if (answer?.error) return classifyRpcError(new Error(`eth_getTransactionReceipt: ${String(answer.error.message)}`));
  if (answer?.result === null) return null;
  const raw = answer?.result as Record<string, unknown> | undefined;
  // What toReceiptView reads, checked before viem's formatter parses it (which trusts the node).
  const quantities = ['transactionIndex', 'blockNumber', 'gasUsed'].every((k) => typeof raw?.[k] === 'string' && HEX.test(raw[k] as string));
  if (!raw || typeof raw !== 'object' || !quantities || typeof raw.transactionHash !== 'string' || typeof raw.blockHash !== 'string' || (raw.status !== '0x1' && raw.status !== '0x0')) {
    return new RpcFailure('rpc_error', "eth_getTransactionReceipt: the node's answer is not a receipt");
  }
  return toReceiptView(formatTransactionReceipt(raw as never));
}

/** Maps a node's error text (geth, anvil, reth and most providers agree on these phrases) to a code. */
export function classifyRpcError(err: unknown): RpcFailure {
  const text = collectMessages(err).toLowerCase();
  const code: RpcFailureCode = /insufficient funds/.test(text)
    ? 'insufficient_funds'
    : /nonce too low|nonce has already been used|already known|known transaction/.test(text)
      ? 'nonce_too_low'
      : /nonce too high/.test(text)
        ? 'nonce_too_high'
        : /replacement transaction underpriced|replacement fee too low/.test(text)
          ? 'replacement_underpriced'
          : /intrinsic gas too low|gas limit reached|exceeds block gas limit/.test(text)
            ? 'gas_too_low'
            : /max fee per gas less than block base fee|fee cap less than block base fee|transaction underpriced/.test(text)
              ? 'fee_too_low'
              : /fetch failed|econnrefused|econnreset|etimedout|socket hang up|request timed out|took too long|enotfound|network/.test(text)
                ? 'rpc_unreachable'
                : /invalid|rejected|not supported|chain id/.test(text)
                  ? 'transaction_rejected'
                  : 'rpc_error';
  return new RpcFailure(code, firstLine(err));
}

function collectMessages(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current && depth < 8; depth++) {
    const e = current as { message?: unknown; details?: unknown; shortMessage?: unknown; cause?: unknown; code?: unknown };
    for (const v of [e.shortMessage, e.details, e.message, e.code]) if (typeof v === 'string') parts.push(v);
    current = e.cause;
  }
  return parts.join(' | ');
}

function firstLine(err: unknown): string {
  const e = err as { shortMessage?: unknown; message?: unknown };
  const text = typeof e?.shortMessage === 'string' ? e.shortMessage : typeof e?.message === 'string' ? e.message : String(err);
  return text.split('\n')[0]!.slice(0, 300);
}

/** One chain's JSON-RPC endpoint. Each call is bounded (timeout) and not retried here: callers decide. */
export class ChainClient {
  private readonly client: PublicClient;
  constructor(
    readonly chainId: number,
    private readonly url: string,
    private readonly timeoutMs = 10_000,
  ) {
    const fetchFn = rpcFetch();
    this.client = createPublicClient({ transport: http(url, { timeout: timeoutMs, retryCount: 0, fetchFn }) });
  }

  /** A JSON-RPC call or batch posted without viem's client (postJsonRpc): the request path's calls. */
  private post(body: unknown): Promise<unknown> {
    return postJsonRpc(this.url, body, { timeoutMs: this.timeoutMs });
  }

  /**
   * eth_sendRawTransaction; throws RpcFailure. Sent as a bare JSON-RPC request (the request path's every submission):
   * viem's client adds retry, dedupe and error-formatting layers this call does not use.
   */
  async broadcast(signed: Hex): Promise<Hash> {
    let answer: { result?: unknown; error?: { message?: unknown } } | null;
    try {
      answer = (await this.post({ jsonrpc: '2.0', id: 0, method: 'eth_sendRawTransaction', params: [signed] })) as typeof answer;
    } catch (err) {
      throw classifyRpcError(err);
    }
    if (!answer || typeof answer !== 'object') throw new RpcFailure('rpc_error', "eth_sendRawTransaction: the node's answer is not a JSON-RPC response");
    if (answer.error) throw classifyRpcError(new Error(`eth_sendRawTransaction: ${String(answer.error.message)}`));
    if (typeof answer.result !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(answer.result)) throw new RpcFailure('rpc_error', "eth_sendRawTransaction: the node's answer is not a transaction hash");
    return answer.result as Hash;
  }

  /** The receipt once mined; null while pending (or unknown to the node). Throws RpcFailure. */
  async receipt(hash: Hash): Promise<ReceiptView | null> {
    try {
      return toReceiptView(await this.client.getTransactionReceipt({ hash }));
    } catch (err) {
      if ((err as { name?: string }).name === 'TransactionReceiptNotFoundError') return null;
      throw classifyRpcError(err);
    }
  }

  /**
   * Each hash's receipt (null while pending) or the RpcFailure of its lookup, asked in JSON-RPC batches of up to
   * RECEIPT_BATCH (one HTTP request for a watcher round instead of one per transaction). Posted bare (postJsonRpc):
   * through viem, every pending transaction's null answer became a TransactionReceiptNotFoundError with its stack,
   * a thousand a second under bench:transactions (docs/benchmarks.md#transactions).
   */
  async receipts(hashes: Hash[]): Promise<Map<Hash, ReceiptView | null | RpcFailure>> {
    const found = new Map<Hash, ReceiptView | null | RpcFailure>();
    for (let i = 0; i < hashes.length; i += RECEIPT_BATCH) {
      const chunk = hashes.slice(i, i + RECEIPT_BATCH);
      let answers: (RpcAnswer | undefined)[];
      try {
        answers = await this.batch(chunk.map((hash) => ({ method: 'eth_getTransactionReceipt', params: [hash] })));
      } catch (err) {
        const failure = err instanceof RpcFailure ? err : classifyRpcError(err);
        for (const hash of chunk) found.set(hash, failure);
        continue;
      }
      chunk.forEach((hash, id) => found.set(hash, receiptOf(answers[id])));
    }
    return found;
  }

  /** Whether the node still knows the transaction (mined or in its pool): false means dropped. */
  async known(hash: Hash): Promise<boolean> {
    try {
      await this.client.getTransaction({ hash });
      return true;
    } catch (err) {
      if ((err as { name?: string }).name === 'TransactionNotFoundError') return false;
      throw classifyRpcError(err);
    }
  }

  /**
   * What the node would refuse at once, asked before anything is recorded (docs/transactions.md#sending): a nonce
   * below the sender's mined count (nonce_too_low) and a balance short of value plus the most the gas can cost
   * (insufficient_funds). Two reads at one moment, not a promise: the broadcast after the commit may still be
   * refused. Throws RpcFailure.
   */
  async preflight(from: Address, tx: TransactionSerializable): Promise<void> {
    // One JSON-RPC batch of this request's two reads, sent by itself: viem's batching would take in other
    // requests' calls of the same tick and wait on a timer tick.
    const [balance, mined] = await this.readBatch([
      { method: 'eth_getBalance', params: [from, 'latest'] },
      { method: 'eth_getTransactionCount', params: [from, 'latest'] },
    ]);
    if (tx.nonce !== undefined && tx.nonce < Number(mined)) throw new RpcFailure('nonce_too_low', `nonce ${tx.nonce} is below the sender's next nonce ${mined}`);
    const feeCap = ('maxFeePerGas' in tx ? tx.maxFeePerGas : undefined) ?? ('gasPrice' in tx ? tx.gasPrice : undefined) ?? 0n;
    const cost = (tx.value ?? 0n) + (tx.gas ?? 0n) * feeCap;
    if (balance! < cost) throw new RpcFailure('insufficient_funds', `insufficient funds for gas * price + value: balance ${balance}, cost ${cost}`);
  }

  /**
   * Reads whose answers are quantities, as one JSON-RPC batch (one HTTP request): the answers in the order asked.
   * Throws RpcFailure: the first error answer classified, rpc_error for an answer that is not a batch of quantities.
   */
  private async readBatch(calls: { method: string; params: unknown[] }[]): Promise<bigint[]> {
    const answers = await this.batch(calls);
    return calls.map((call, id) => {
      const answer = answers[id];
      if (answer?.error) throw classifyRpcError(new Error(`${call.method}: ${String(answer.error.message)}`));
      if (typeof answer?.result !== 'string' || !HEX.test(answer.result)) throw new RpcFailure('rpc_error', `${call.method}: the node's answer is not a quantity`);
      return BigInt(answer.result);
    });
  }

  /**
   * Calls posted as one JSON-RPC batch: each call's answer in the order asked (undefined where the node left one
   * out). Throws RpcFailure when the batch as a whole fails (the node out of reach, or refusing the batch).
   */
  async batch(calls: { method: string; params: unknown[] }[]): Promise<(RpcAnswer | undefined)[]> {
    let answers: unknown;
    try {
      answers = await this.post(calls.map((call, id) => ({ jsonrpc: '2.0', id, ...call })));
    } catch (err) {
      throw classifyRpcError(err);
    }
    // A node that refuses the batch answers it with one error, without an id (some wrap it in a list).
    const list = (Array.isArray(answers) ? answers : answers && typeof answers === 'object' ? [answers] : []) as (RpcAnswer | null)[];
    const whole = list.find((a) => a?.error && (a.id === null || a.id === undefined));
    if (whole) throw classifyRpcError(new Error(String(whole.error!.message)));
    const byId = new Map(list.map((a) => [a?.id, a ?? undefined]));
    return calls.map((_call, id) => byId.get(id));
  }

  /** An address's balance of the native coin, in wei (eth_getBalance at the latest block); throws RpcFailure. */
  async nativeBalance(address: Address): Promise<bigint> {
    try {
      return await this.client.getBalance({ address });
    } catch (err) {
      throw classifyRpcError(err);
    }
  }

  /** The next nonce of an address counting its pending transactions (eth_getTransactionCount "pending"). */
  async pendingNonce(address: Address): Promise<number> {
    try {
      return await this.client.getTransactionCount({ address, blockTag: 'pending' });
    } catch (err) {
      throw classifyRpcError(err);
    }
  }

  /** EIP-1559 fees for a transaction now (base fee with headroom plus the node's priority fee) and its gas. */
  async transferParameters(from: Address, to: Address, value: bigint): Promise<{ gas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> {
    try {
      const [fees, gas] = await Promise.all([this.client.estimateFeesPerGas(), this.client.estimateGas({ account: from, to, value })]);
      return { gas, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
    } catch (err) {
      throw classifyRpcError(err);
    }
  }

  /**
   * Like transferParameters for a contract call: its gas (eth_estimateGas with the calldata) and EIP-1559 fees now.
   * A call that would revert throws RpcFailure (viem's estimate error, classified like every other).
   */
  async callParameters(from: Address, to: Address, data: Hex, value = 0n): Promise<{ gas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> {
    try {
      const [fees, gas] = await Promise.all([this.client.estimateFeesPerGas(), this.client.estimateGas({ account: from, to, data, value })]);
      return { gas, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
    } catch (err) {
      throw classifyRpcError(err);
    }
  }

  /** EIP-1559 fees now: the base fee with headroom plus the node's priority fee. */
  async feesPerGas(): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> {
    try {
      const fees = await this.client.estimateFeesPerGas();
      return { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
    } catch (err) {
      throw classifyRpcError(err);
    }
  }

  /** The gas of a contract call from `from` (eth_estimateGas with its calldata); a call that would revert throws RpcFailure. */
  async estimateCallGas(from: Address, to: Address, data: Hex, value = 0n): Promise<bigint> {
    try {
      return await this.client.estimateGas({ account: from, to, data, value });
    } catch (err) {
      throw classifyRpcError(err);
    }
  }

  /**
   * eth_call of a view function. A call that reverts or reaches no contract throws ContractCallError (the contract
   * is not what it was taken for); a node that cannot be reached throws RpcFailure. `at.blockNumber` reads at that
   * block instead of the latest (several reads at one block agree with each other).
   */
  async read<const abi extends Abi, name extends ContractFunctionName<abi, 'pure' | 'view'>, const args extends ContractFunctionArgs<abi, 'pure' | 'view', name>>(
    address: Address,
    abi: abi,
    functionName: name,
    args: args,
    at?: { blockNumber?: bigint },
  ): Promise<ContractFunctionReturnType<abi, 'pure' | 'view', name, args>> {
    try {
      const block = at?.blockNumber === undefined ? {} : { blockNumber: at.blockNumber };
      return await this.client.readContract({ address, abi, functionName, args, ...block } as never);
    } catch (err) {
      // viem wraps every failure of the call, a node out of reach included: tell them apart by what caused it.
      const failure = classifyRpcError(err);
      if (failure.code !== 'rpc_unreachable' && (err as { name?: string }).name === 'ContractFunctionExecutionError') {
        throw new ContractCallError(`${functionName}() on ${address}: ${firstLine(err)}`);
      }
      throw failure;
    }
  }

  /** The logs of a mined transaction (its receipt's); throws RpcFailure. */
  async receiptLogs(hash: Hash): Promise<Log[]> {
    try {
      return (await this.client.getTransactionReceipt({ hash })).logs;
    } catch (err) {
      throw classifyRpcError(err);
    }
  }

  /**
   * The node's latest block number now (eth_blockNumber on every call). latestBlockNumber may answer from viem's
   * block-number cache (up to the client's polling interval, 4 s), too old to pin reads to.
   */
  async blockNumber(): Promise<bigint> {
    const [head] = await this.readBatch([{ method: 'eth_blockNumber', params: [] }]);
    return head!;
  }

  async latestBlockNumber(): Promise<bigint> {
    try {
      return await this.client.getBlockNumber();
    } catch (err) {
      throw classifyRpcError(err);
    }
  }

  async chainIdOfNode(): Promise<number> {
    try {
      return await this.client.getChainId();
    } catch (err) {
      throw classifyRpcError(err);
    }
  }
}

/** The configured chains (CHAIN_RPC_URLS), one client each. */
export class ChainRegistry {
  private readonly clients = new Map<number, ChainClient>();

  constructor(urls: ReadonlyMap<number, string>, timeoutMs?: number) {
    for (const [id, url] of urls) this.clients.set(id, new ChainClient(id, url, timeoutMs));
  }

  get(chainId: number): ChainClient | undefined {
    return this.clients.get(chainId);
  }

  chainIds(): number[] {
    return [...this.clients.keys()].sort((a, b) => a - b);
  }
}
