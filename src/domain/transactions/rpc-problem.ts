import type { RpcFailure, RpcFailureCode } from '../../chain/rpc-failure.js';
import { ApiError } from '../errors.js';

/** RpcFailure codes as API problems (docs/transactions.md#errors). */
export function rpcProblem(failure: RpcFailure): ApiError {
  const map: Partial<Record<RpcFailureCode, 'insufficient_funds' | 'nonce_too_low' | 'chain_unavailable'>> = {
    insufficient_funds: 'insufficient_funds',
    nonce_too_low: 'nonce_too_low',
    rpc_unreachable: 'chain_unavailable',
  };
  const code = map[failure.code] ?? 'chain_rejected';
  return new ApiError(code, `The chain node refused the transaction: ${failure.message}`, code === 'chain_rejected' ? { extensions: { reason: failure.code } } : {});
}
