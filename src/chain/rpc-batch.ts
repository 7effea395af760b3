import { classifyRpcError, RpcFailure } from './rpc-failure.js';

/** Posts a JSON-RPC call or batch to one node without viem's client (postJsonRpc): the request path's calls. */
export type RpcPost = (body: unknown) => Promise<unknown>;

/** One call's answer in a JSON-RPC batch. */
export interface RpcAnswer {
  id?: unknown;
  result?: unknown;
  error?: { message?: unknown };
}

/** A JSON-RPC quantity: 0x and hexadecimal digits. */
export const QUANTITY = /^0x[0-9a-fA-F]+$/;

/**
 * Calls posted as one JSON-RPC batch: each call's answer in the order asked (undefined where the node left one
 * out). Throws RpcFailure when the batch as a whole fails (the node out of reach, or refusing the batch).
 */
export async function postBatch(post: RpcPost, calls: { method: string; params: unknown[] }[]): Promise<(RpcAnswer | undefined)[]> {
  let answers: unknown;
  try {
    answers = await post(calls.map((call, id) => ({ jsonrpc: '2.0', id, ...call })));
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

/**
 * Reads whose answers are quantities, as one JSON-RPC batch (one HTTP request): the answers in the order asked.
 * Throws RpcFailure: the first error answer classified, rpc_error for an answer that is not a batch of quantities.
 */
export async function readQuantities(post: RpcPost, calls: { method: string; params: unknown[] }[]): Promise<bigint[]> {
  const answers = await postBatch(post, calls);
  return calls.map((call, id) => {
    const answer = answers[id];
    if (answer?.error) throw classifyRpcError(new Error(`${call.method}: ${String(answer.error.message)}`));
    if (typeof answer?.result !== 'string' || !QUANTITY.test(answer.result)) throw new RpcFailure('rpc_error', `${call.method}: the node's answer is not a quantity`);
    return BigInt(answer.result);
  });
}
