import { createPublicClient, http, type Abi, type Address, type ContractFunctionArgs, type ContractFunctionName, type ContractFunctionReturnType, type Hash, type Hex, type Log, type PublicClient, type TransactionSerializable } from 'viem';
import { broadcastRaw, preflightSend } from './broadcast.js';
import { batchedReceipts, toReceiptView, type ReceiptView } from './receipts.js';
import { postBatch, readQuantities, type RpcAnswer, type RpcPost } from './rpc-batch.js';
import { postJsonRpc, rpcFetch } from './rpc-fetch.js';
import { classifyRpcError, ContractCallError, firstLine, type RpcFailure } from './rpc-failure.js';

/** One chain's JSON-RPC endpoint. Each call is bounded (timeout) and not retried here: callers decide. */
export class ChainClient {
  private readonly client: PublicClient;
  /** A JSON-RPC call or batch posted without viem's client (postJsonRpc): the request path's calls. */
  private readonly post: RpcPost;
  constructor(
    readonly chainId: number,
    url: string,
    timeoutMs = 10_000,
  ) {
    const fetchFn = rpcFetch();
    this.client = createPublicClient({ transport: http(url, { timeout: timeoutMs, retryCount: 0, fetchFn }) });
    this.post = (body) => postJsonRpc(url, body, { timeoutMs });
  }

  /** eth_sendRawTransaction, posted bare (broadcast.ts); throws RpcFailure. */
  broadcast(signed: Hex): Promise<Hash> {
    return broadcastRaw(this.post, signed);
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

  /** Each hash's receipt (null while pending) or the RpcFailure of its lookup, in JSON-RPC batches (receipts.ts). */
  receipts(hashes: Hash[]): Promise<Map<Hash, ReceiptView | null | RpcFailure>> {
    return batchedReceipts(this.post, hashes);
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

  /** What the node would refuse at once (nonce, funds), asked before anything is recorded (broadcast.ts); throws RpcFailure. */
  preflight(from: Address, tx: TransactionSerializable): Promise<void> {
    return preflightSend(this.post, from, tx);
  }

  /** Calls posted as one JSON-RPC batch, answered in the order asked (rpc-batch.ts); throws RpcFailure. */
  batch(calls: { method: string; params: unknown[] }[]): Promise<(RpcAnswer | undefined)[]> {
    return postBatch(this.post, calls);
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
    const [head] = await readQuantities(this.post, [{ method: 'eth_blockNumber', params: [] }]);
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
