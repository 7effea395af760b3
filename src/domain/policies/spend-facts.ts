import { decodeFunctionData, parseAbi, type Address, type Hex, type TransactionSerializable } from 'viem';
import type { TokenRegistry } from '../tokens/token-registry.js';
import { decodeValueCall } from '../screening/value-recipients.js';

// What a spending policy judges of a transaction about to be signed (docs/policies.md#what-a-policy-sees): what leaves
// the wallet, per asset, and where value goes. The same decoding of calls as sanctions screening.

export interface SpendFacts {
  chainId: number;
  /** Base units leaving the wallet (or granted to a spender), by asset: `native`, or a listed token's lower-case address. */
  outflows: Map<string, bigint>;
  /** Where value goes or who may take it, lower case, without the wallet itself: recipients, spenders, vault receivers. */
  destinations: string[];
}

/** The token calls whose amount leaves the wallet or may be taken from it. */
const TOKEN_CALLS = parseAbi([
  'function transfer(address to, uint256 amount)',
  'function approve(address spender, uint256 amount)',
  'function increaseAllowance(address spender, uint256 addedValue)',
  'function transferFrom(address from, address to, uint256 amount)',
]);

function tokenOutflow(data: Hex, wallet: string): bigint {
  try {
    const call = decodeFunctionData({ abi: TOKEN_CALLS, data });
    const args = call.args as readonly unknown[];
    if (call.functionName === 'transferFrom') return (args[0] as string).toLowerCase() === wallet ? (args[2] as bigint) : 0n;
    return args[1] as bigint;
  } catch {
    return 0n;
  }
}

/**
 * The facts of an unsigned transaction from `wallet` on its chain. The coin it sends is an outflow; a call to a listed
 * token moves or grants (transfer, transferFrom from the wallet, approve, increaseAllowance) its amount, counted
 * against that token (an allowance is value the spender may take at once). The destinations are the decoded call's
 * address arguments (the token or vault contract called is not one of them), or the `to` of a plain payment or of a
 * call it cannot read, and the delegates of EIP-7702 authorizations.
 */
export function spendFacts(tx: Pick<TransactionSerializable, 'to' | 'data' | 'value' | 'chainId'> & { authorizationList?: readonly { address: Address }[] }, wallet: string, tokens: TokenRegistry): SpendFacts {
  const chainId = tx.chainId ?? 0;
  const self = wallet.toLowerCase();
  const outflows = new Map<string, bigint>();
  const add = (asset: string, amount: bigint) => {
    if (amount > 0n) outflows.set(asset, (outflows.get(asset) ?? 0n) + amount);
  };
  add('native', tx.value ?? 0n);
  const call = decodeValueCall(tx.data);
  const named: string[] = [];
  if (call) {
    named.push(...call.recipients.map((r) => r.address));
    const token = tx.to ? tokens.address(chainId, tx.to) : undefined;
    if (token && tx.data) add(token.address.toLowerCase(), tokenOutflow(tx.data, self));
  } else if (tx.to) {
    named.push(tx.to);
  }
  for (const authorization of tx.authorizationList ?? []) named.push(authorization.address);
  const destinations = [...new Set(named.map((a) => a.toLowerCase()))].filter((a) => a !== self);
  return { chainId, outflows, destinations };
}
