import { formatUnits } from 'viem';
import type { TransactionRow } from '../../db/repositories/transactions.js';
import { invalidFields } from '../errors.js';
import { nativeSymbol, type Token, type TokenRegistry } from './token-registry.js';

/** A deposit's, withdrawal's or refund's token as it was when the transaction was made (the `token` column). */
export interface StoredToken {
  symbol: string;
  address: string;
  decimals: number;
}

/** What a deposit, withdrawal or refund moves on chain, as its views show it (docs/tokens.md#deposits-and-withdrawals). */
export interface CryptoAmountView {
  /** The native coin's symbol (`ETH`) or the listed token's. */
  asset: string;
  /** In the asset's units, decimal. */
  cryptoAmount: string;
  /** In base units (wei for the native coin), integer. */
  cryptoAmountRaw: string;
  /** The native coin only, the same as cryptoAmountRaw: kept for integrations written before tokens. */
  cryptoAmountWei?: string;
}

/**
 * The `asset` of create-deposit or create-withdrawal: a token listed on the chain (any case), or undefined for the
 * native coin when absent. Another symbol is a 400 naming /asset with what is listed.
 */
export function requireAsset(tokens: TokenRegistry, chainId: number, asset: string | undefined): Token | undefined {
  if (asset === undefined) return undefined;
  const token = tokens.symbol(chainId, asset);
  if (token) return token;
  const listed = tokens.list(chainId).map((t) => t.symbol);
  const native = nativeSymbol(chainId);
  const detail = `is not a token listed on chain ${chainId} (${listed.length > 0 ? `listed: ${listed.join(', ')}` : 'none is listed'}); leave asset out for ${native}`;
  throw invalidFields([{ pointer: '/asset', code: 'unknown_asset', detail, in: 'body' }]);
}

export const storedToken = (token: Token): StoredToken => ({ symbol: token.symbol, address: token.address, decimals: token.decimals });

/** The asset and amount a row moves: its token's base units, or its value in wei. */
export function cryptoAmountOf(row: Pick<TransactionRow, 'token' | 'tokenAmount' | 'value' | 'chainId'>): CryptoAmountView {
  const token = row.token as StoredToken | null;
  if (token) {
    const raw = BigInt(row.tokenAmount ?? '0');
    return { asset: token.symbol, cryptoAmount: formatUnits(raw, token.decimals), cryptoAmountRaw: raw.toString() };
  }
  const wei = BigInt(row.value);
  return { asset: nativeSymbol(row.chainId), cryptoAmount: formatUnits(wei, 18), cryptoAmountRaw: wei.toString(), cryptoAmountWei: wei.toString() };
}
