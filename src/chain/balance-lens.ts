import { encodeDeployData, type Address, type Hex } from 'viem';
import type { ChainClient } from './chain-client.js';
import { classifyRpcError, RpcFailure } from './rpc-failure.js';
import { artifact } from './demo-vault.js';

/**
 * Owners read by one eth_call of the lens. What a constructor returns is taken as the code of a contract, so it is
 * held to EIP-170's 24,576 bytes: 64 bytes a figure (the balance and its ok flag) and 192 for the head and lengths.
 * The gas is the node's own cap (geth 50M, anvil 30M): an owner costs about 2,600 for its native balance and 5,000 a
 * token, far under it at these counts.
 */
export function ownersPerCall(tokens: number): number {
  return Math.max(1, Math.min(200, Math.floor((24_576 - 256) / (64 * (tokens + 1)))));
}

/** One owner's figures on one chain, all of one block. */
export interface OwnerBalances {
  blockNumber: bigint;
  /** The block's timestamp, seconds. */
  blockTimestamp: bigint;
  native: bigint;
  /** Each token's balance in the order asked; undefined where its balanceOf reverted or answered nothing. */
  tokens: (bigint | undefined)[];
}

/** 32 bytes, in hex digits. */
const WORD = 64;

/**
 * The lens's answer, ABI-encoded `(uint256 blockNumber, uint256 timestamp, uint256[] balances, bool[] ok)`, decoded
 * straight from its hex digits; throws on anything else (a short answer, an offset or length out of it, a bool other
 * than 0 or 1). viem's decodeAbiParameters gave the same figures in 6 ms for 1,000 owners with one token, and up to
 * 85 ms on a busy machine: a stall of every request in flight once a block (docs/benchmarks.md#balances); this takes
 * well under a millisecond.
 */
export function decodeLensAnswer(hex: string): [bigint, bigint, bigint[], boolean[]] {
  const digits = hex.startsWith('0x') ? hex.slice(2) : hex;
  if (digits.length % WORD !== 0 || digits.length < 4 * WORD) throw new Error('not four words and their arrays');
  const words = digits.length / WORD;
  const word = (i: number) => digits.slice(i * WORD, (i + 1) * WORD);
  /** A word holding a small count (an offset or a length): anything above 2^48 cannot be within the answer. */
  const small = (i: number) => {
    const w = word(i);
    if (!/^0{52}/.test(w)) throw new Error('offset or length out of range');
    return parseInt(w.slice(52), 16);
  };
  /** The array whose offset is in head word `head`: its first element's word and its length. */
  const array = (head: number) => {
    const offset = small(head);
    if (offset % 32 !== 0 || offset / 32 >= words) throw new Error('array offset out of the answer');
    const at = offset / 32;
    const length = small(at);
    if (at + 1 + length > words) throw new Error('array longer than the answer');
    return { first: at + 1, length };
  };
  const balances = array(2);
  const ok = array(3);
  return [
    BigInt(`0x${word(0)}`),
    BigInt(`0x${word(1)}`),
    Array.from({ length: balances.length }, (_, i) => BigInt(`0x${word(balances.first + i)}`)),
    Array.from({ length: ok.length }, (_, i) => {
      const w = word(ok.first + i);
      if (!/^0{63}[01]$/.test(w)) throw new Error('a bool other than 0 or 1');
      return w.endsWith('1');
    }),
  ];
}

let lens: { abi: readonly unknown[]; bytecode: Hex } | undefined;

/** The eth_call of contracts/BalanceLens.sol's constructor over these owners and tokens (no `to`: nothing is deployed). */
function lensCall(owners: readonly Address[], tokens: readonly Address[]): { data: Hex } {
  lens ??= artifact('BalanceLens');
  return { data: encodeDeployData({ abi: lens.abi as never, bytecode: lens.bytecode, args: [owners, tokens] } as never) };
}

function decodeLens(result: unknown, owners: number, tokens: number): OwnerBalances[] {
  if (typeof result !== 'string' || !/^0x[0-9a-fA-F]*$/.test(result)) throw new RpcFailure('rpc_error', "eth_call (balances): the node's answer is not data");
  let decoded: readonly [bigint, bigint, readonly bigint[], readonly boolean[]];
  try {
    decoded = decodeLensAnswer(result);
  } catch {
    throw new RpcFailure('rpc_error', "eth_call (balances): the node's answer does not decode");
  }
  const [blockNumber, blockTimestamp, balances, ok] = decoded;
  const width = tokens + 1;
  if (balances.length !== owners * width || ok.length !== balances.length) throw new RpcFailure('rpc_error', 'eth_call (balances): the answer has another number of figures than asked');
  return Array.from({ length: owners }, (_, i) => ({
    blockNumber,
    blockTimestamp,
    native: balances[i * width]!,
    tokens: Array.from({ length: tokens }, (_t, j) => (ok[i * width + j + 1] ? balances[i * width + j + 1] : undefined)),
  }));
}

/**
 * Every owner's native balance and balance of every token, in ONE HTTP request to the chain's node however many
 * owners and tokens (a JSON-RPC batch of one lens eth_call per ownersPerCall owners, each at `latest`). Each owner's
 * figures come from one EVM execution, so they are of one block, which the answer names. Owners of different calls
 * may be a block apart, unless `block` pins them all to one (the ledger's opening and reconciliation read a final block).
 * Throws RpcFailure (rpc_unreachable when the node does not answer).
 */
export async function readBalances(chain: ChainClient, owners: readonly Address[], tokens: readonly Address[], block?: bigint): Promise<OwnerBalances[]> {
  const chunks: Address[][] = [];
  const size = ownersPerCall(tokens.length);
  for (let i = 0; i < owners.length; i += size) chunks.push(owners.slice(i, i + size));
  const answers = await chain.batch(chunks.map((chunk) => ({ method: 'eth_call', params: [lensCall(chunk, tokens), block === undefined ? 'latest' : `0x${block.toString(16)}`] })));
  return chunks.flatMap((chunk, id) => {
    const answer = answers[id];
    if (answer?.error) throw classifyRpcError(new Error(`eth_call (balances): ${String(answer.error.message)}`));
    return decodeLens(answer?.result, chunk.length, tokens.length);
  });
}
