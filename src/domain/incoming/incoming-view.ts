import type { TokenAmount } from '../tokens/amounts.js';

/** An incoming transfer as the transaction view shows it (docs/incoming.md): the asset, the sender and the amount. */
export interface IncomingView extends TokenAmount {
  /** A listed token's symbol, or the chain's native coin's (ETH). */
  symbol: string;
  /** The token's contract, checksummed; null for the native coin. */
  tokenAddress: string | null;
  /** The sender, checksummed: the token transfer's `from` (the zero address for a mint), or the transaction's sender. */
  from: string;
}
