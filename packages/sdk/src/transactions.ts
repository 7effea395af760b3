import { bytesToHex, hexToBytes } from '@noble/hashes/utils';

// Building the `unsignedTransaction` a transfer's signedBody carries, with nothing but this package: the fields from
// the chain's JSON-RPC node (nonce, gas, fees) and the EIP-1559 serialisation (type 2, RLP) written out here.

export interface Eip1559Fields {
  chainId: number;
  nonce: number;
  maxPriorityFeePerGas: bigint;
  maxFeePerGas: bigint;
  gas: bigint;
  /** 0x + 40 hex digits. */
  to: string;
  value: bigint;
  /** Calldata, 0x hex (default empty). */
  data?: string;
}

type Rlp = Uint8Array | Rlp[];

function intBytes(value: bigint | number): Uint8Array {
  const n = BigInt(value);
  if (n < 0n) throw new RangeError('RLP integers are unsigned');
  if (n === 0n) return new Uint8Array(0);
  const hex = n.toString(16);
  return hexToBytes(hex.length % 2 ? `0${hex}` : hex);
}

function lengthPrefix(length: number, short: number, long: number): Uint8Array {
  if (length <= 55) return new Uint8Array([short + length]);
  const size = intBytes(length);
  return new Uint8Array([long + size.length, ...size]);
}

/** Recursive Length Prefix encoding (the Ethereum yellow paper, appendix B). */
export function rlp(item: Rlp): Uint8Array {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && item[0]! < 0x80) return item;
    return new Uint8Array([...lengthPrefix(item.length, 0x80, 0xb7), ...item]);
  }
  const payload = item.map(rlp);
  const length = payload.reduce((sum, p) => sum + p.length, 0);
  const out = new Uint8Array(length + 9);
  const prefix = lengthPrefix(length, 0xc0, 0xf7);
  out.set(prefix);
  let at = prefix.length;
  for (const p of payload) {
    out.set(p, at);
    at += p.length;
  }
  return out.subarray(0, at);
}

const hexData = (value: string, what: string, bytes?: number): Uint8Array => {
  if (!/^0x([0-9a-fA-F]{2})*$/.test(value)) throw new TypeError(`${what} must be 0x-prefixed hex`);
  const out = hexToBytes(value.slice(2));
  if (bytes !== undefined && out.length !== bytes) throw new TypeError(`${what} must be ${bytes} bytes`);
  return out;
};

/** The unsigned EIP-1559 transaction as the API takes it: 0x02 || rlp([chainId, nonce, ..., accessList]), hex with 0x. */
export function serializeEip1559(tx: Eip1559Fields): string {
  if (tx.maxPriorityFeePerGas > tx.maxFeePerGas) throw new RangeError('maxPriorityFeePerGas is a priority fee above the fee cap (maxFeePerGas): no node accepts it');
  const fields: Rlp[] = [
    intBytes(tx.chainId),
    intBytes(tx.nonce),
    intBytes(tx.maxPriorityFeePerGas),
    intBytes(tx.maxFeePerGas),
    intBytes(tx.gas),
    hexData(tx.to, 'to', 20),
    intBytes(tx.value),
    hexData(tx.data ?? '0x', 'data'),
    [],
  ];
  return `0x02${bytesToHex(rlp(fields))}`;
}

export interface BuildTransferInput {
  /** The chain's JSON-RPC endpoint (yours, or your provider's). */
  rpcUrl: string;
  chainId: number;
  /** The account's walletAddress (it pays value and gas). */
  from: string;
  to: string;
  /** Wei. */
  value: bigint;
  data?: string;
  /** Defaults: the node's pending nonce of `from`, its gas estimate, and fees from the latest block. */
  nonce?: number;
  gas?: bigint;
  maxPriorityFeePerGas?: bigint;
  maxFeePerGas?: bigint;
  fetch?: typeof fetch;
}

/**
 * A transfer's unsignedTransaction with its nonce, gas and fees taken from the chain: the pending nonce of `from`,
 * eth_estimateGas, the node's priority fee, and a fee cap of twice the latest base fee plus that priority fee (so it
 * stays includable while the base fee rises for several full blocks; unused fee is not charged).
 */
export async function buildUnsignedTransaction(input: BuildTransferInput): Promise<Eip1559Fields & { unsignedTransaction: string }> {
  let id = 0;
  const rpc = async <T>(method: string, params: unknown[]): Promise<T> => {
    const res = await (input.fetch ?? fetch)(input.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (body.error || body.result === undefined) throw new Error(`${method}: ${body.error?.message ?? `HTTP ${res.status}`}`);
    return body.result;
  };
  const value = `0x${input.value.toString(16)}`;
  const [chainId, nonce, gas, priority, block] = await Promise.all([
    rpc<string>('eth_chainId', []),
    input.nonce !== undefined ? Promise.resolve(`0x${input.nonce.toString(16)}`) : rpc<string>('eth_getTransactionCount', [input.from, 'pending']),
    input.gas !== undefined ? Promise.resolve(`0x${input.gas.toString(16)}`) : rpc<string>('eth_estimateGas', [{ from: input.from, to: input.to, value, ...(input.data ? { data: input.data } : {}) }]),
    input.maxPriorityFeePerGas !== undefined ? Promise.resolve(`0x${input.maxPriorityFeePerGas.toString(16)}`) : rpc<string>('eth_maxPriorityFeePerGas', []),
    rpc<{ baseFeePerGas?: string }>('eth_getBlockByNumber', ['latest', false]),
  ]);
  if (Number(BigInt(chainId)) !== input.chainId) throw new Error(`the node at rpcUrl is chain ${BigInt(chainId)}, not ${input.chainId}`);
  const maxPriorityFeePerGas = BigInt(priority);
  const maxFeePerGas = input.maxFeePerGas ?? 2n * BigInt(block.baseFeePerGas ?? '0x0') + maxPriorityFeePerGas;
  const fields: Eip1559Fields = { chainId: input.chainId, nonce: Number(BigInt(nonce)), maxPriorityFeePerGas, maxFeePerGas, gas: BigInt(gas), to: input.to, value: input.value, ...(input.data ? { data: input.data } : {}) };
  return { ...fields, unsignedTransaction: serializeEip1559(fields) };
}

/**
 * The signedBody the end user approves for a transaction from their account's wallet (Turnkey's
 * ACTIVITY_TYPE_SIGN_TRANSACTION_V2 shape, docs/transactions.md): stamp JSON.stringify of it with the passkey, or
 * send it with an OTP approvalToken.
 */
export function signedBodyFor(input: { organizationId: string; walletAddress: string; unsignedTransaction: string; timestampMs?: number }) {
  return {
    type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
    timestampMs: String(input.timestampMs ?? Date.now()),
    organizationId: input.organizationId,
    parameters: { signWith: input.walletAddress, unsignedTransaction: input.unsignedTransaction, type: 'TRANSACTION_TYPE_ETHEREUM' },
  };
}
