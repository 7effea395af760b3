import { getAddress, type Address, type Hash } from 'viem';
import type { ChainClient } from './chain-client.js';
import type { RpcAnswer } from './rpc-batch.js';
import { RpcFailure } from './rpc-failure.js';

/** keccak256("Transfer(address,address,uint256)"): an ERC-20's Transfer event (ERC-721's has a fourth topic). */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** A block header as the scan checks its place in the chain. */
export interface BlockHeader {
  number: number;
  hash: Hash;
  parentHash: Hash;
}

/** A top-level transaction that moves the native coin. */
export interface ValueTransfer {
  hash: Hash;
  from: Address;
  to: Address;
  value: bigint;
}

export interface ScannedBlock extends BlockHeader {
  /** The block's transactions with a recipient and a value above 0 (contract creations and zero-value calls left out). */
  transfers: ValueTransfer[];
}

/** An ERC-20 Transfer log of one of the tokens asked for. */
export interface TokenTransferLog {
  token: Address;
  from: Address;
  to: Address;
  value: bigint;
  blockNumber: number;
  blockHash: Hash;
  transactionHash: Hash;
  logIndex: number;
}

export interface ScannedRange {
  /** from..to, in order, each the parent of the next. */
  blocks: ScannedBlock[];
  logs: TokenTransferLog[];
}

/**
 * The chain moved under the scan (a reorg between or during the reads, or a block not there yet): nothing read is
 * used; the next round reads again.
 */
export class ChainMoved extends Error {
  override readonly name = 'ChainMoved';
}

const HASH = /^0x[0-9a-fA-F]{64}$/;
const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const WORD = /^0x[0-9a-fA-F]{64}$/;

const hex = (n: number) => `0x${n.toString(16)}`;

/**
 * Blocks from..to with their transactions and the listed tokens' Transfer logs of the same blocks, in one JSON-RPC
 * batch (one HTTP request, whatever the number of wallets watched): docs/incoming.md#cost. The node's answers are
 * checked before use (a node is not trusted to be well formed); blocks that do not chain, or logs of a block the
 * batch did not see, throw ChainMoved.
 */
export async function scanRange(chain: ChainClient, from: number, to: number, tokens: readonly Address[]): Promise<ScannedRange> {
  const calls: { method: string; params: unknown[] }[] = [];
  for (let n = from; n <= to; n++) calls.push({ method: 'eth_getBlockByNumber', params: [hex(n), true] });
  if (tokens.length > 0) calls.push({ method: 'eth_getLogs', params: [{ fromBlock: hex(from), toBlock: hex(to), address: tokens, topics: [TRANSFER_TOPIC] }] });
  const answers = await chain.batch(calls);
  const blocks: ScannedBlock[] = [];
  for (let i = 0; i <= to - from; i++) {
    const block = blockOf(answers[i], calls[i]!.method, true);
    if (block.number !== from + i) throw new ChainMoved(`eth_getBlockByNumber(${from + i}): the node has no such block yet`);
    const previous = blocks[i - 1];
    if (previous && block.parentHash !== previous.hash) throw new ChainMoved(`block ${block.number} does not follow the block ${previous.number} read with it`);
    blocks.push(block);
  }
  const logs = tokens.length > 0 ? logsOf(answers[to - from + 1]) : [];
  const hashes = new Map(blocks.map((b) => [b.number, b.hash]));
  for (const log of logs) {
    if (hashes.get(log.blockNumber) !== log.blockHash) throw new ChainMoved(`a Transfer log of block ${log.blockNumber} is of another block than the one read with it`);
  }
  return { blocks, logs };
}

/** A block's header by number, or the latest's; throws ChainMoved when the node has no such block. */
export async function readHeader(chain: ChainClient, number: number | 'latest'): Promise<BlockHeader> {
  const [answer] = await chain.batch([{ method: 'eth_getBlockByNumber', params: [number === 'latest' ? 'latest' : hex(number), false] }]);
  return blockOf(answer, 'eth_getBlockByNumber', false);
}

function blockOf(answer: RpcAnswer | undefined, method: string, full: boolean): ScannedBlock {
  if (answer?.error) throw new RpcFailure('rpc_error', `${method}: ${String(answer.error.message)}`);
  if (answer?.result === null) throw new ChainMoved(`${method}: the node has no such block`);
  const raw = answer?.result as Record<string, unknown> | undefined;
  if (!raw || typeof raw !== 'object' || !isQuantity(raw.number) || !isHash(raw.hash) || !isHash(raw.parentHash) || !Array.isArray(raw.transactions)) {
    throw new RpcFailure('rpc_error', `${method}: the node's answer is not a block`);
  }
  const transfers: ValueTransfer[] = [];
  if (full) {
    for (const tx of raw.transactions as Record<string, unknown>[]) {
      if (!tx || typeof tx !== 'object' || !isHash(tx.hash) || !isAddress(tx.from) || !isQuantity(tx.value)) throw new RpcFailure('rpc_error', `${method}: a transaction of block ${String(raw.number)} is not one`);
      if (tx.to === null || tx.to === undefined) continue;
      if (!isAddress(tx.to)) throw new RpcFailure('rpc_error', `${method}: a transaction's recipient is not an address`);
      const value = BigInt(tx.value);
      if (value > 0n) transfers.push({ hash: tx.hash.toLowerCase() as Hash, from: getAddress(tx.from), to: getAddress(tx.to), value });
    }
  }
  return { number: Number(BigInt(raw.number)), hash: raw.hash.toLowerCase() as Hash, parentHash: raw.parentHash.toLowerCase() as Hash, transfers };
}

function logsOf(answer: RpcAnswer | undefined): TokenTransferLog[] {
  if (answer?.error) throw new RpcFailure('rpc_error', `eth_getLogs: ${String(answer.error.message)}`);
  if (!Array.isArray(answer?.result)) throw new RpcFailure('rpc_error', "eth_getLogs: the node's answer is not a list of logs");
  const logs: TokenTransferLog[] = [];
  for (const raw of answer.result as Record<string, unknown>[]) {
    if (!raw || typeof raw !== 'object' || !isAddress(raw.address) || !Array.isArray(raw.topics) || !isQuantity(raw.blockNumber) || !isHash(raw.blockHash) || !isHash(raw.transactionHash) || !isQuantity(raw.logIndex)) {
      throw new RpcFailure('rpc_error', "eth_getLogs: an entry is not a log");
    }
    if (raw.removed === true) continue;
    const topics = raw.topics as unknown[];
    // An ERC-20 Transfer has the sender and recipient as topics and the amount as its one word of data.
    if (topics.length !== 3 || String(topics[0]).toLowerCase() !== TRANSFER_TOPIC || !isWord(topics[1]) || !isWord(topics[2]) || !isWord(raw.data)) continue;
    logs.push({
      token: getAddress(raw.address),
      from: getAddress(`0x${topics[1].slice(26)}`),
      to: getAddress(`0x${topics[2].slice(26)}`),
      value: BigInt(raw.data),
      blockNumber: Number(BigInt(raw.blockNumber)),
      blockHash: raw.blockHash.toLowerCase() as Hash,
      transactionHash: raw.transactionHash.toLowerCase() as Hash,
      logIndex: Number(BigInt(raw.logIndex)),
    });
  }
  return logs;
}

const isHash = (v: unknown): v is string => typeof v === 'string' && HASH.test(v);
const isQuantity = (v: unknown): v is string => typeof v === 'string' && QUANTITY.test(v);
const isAddress = (v: unknown): v is string => typeof v === 'string' && ADDRESS.test(v);
const isWord = (v: unknown): v is string => typeof v === 'string' && WORD.test(v);
