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

/** An error's first line, short enough for a problem's detail (viem's messages run to many lines). */
export function firstLine(err: unknown): string {
  const e = err as { shortMessage?: unknown; message?: unknown };
  const text = typeof e?.shortMessage === 'string' ? e.shortMessage : typeof e?.message === 'string' ? e.message : String(err);
  return text.split('\n')[0]!.slice(0, 300);
}
