import type { TransactionRow } from '../../db/repositories/transactions.js';
import { notOffered } from '../errors.js';
import type { Token } from '../tokens/token-registry.js';
import { tokenRate, tokenUnitsFor } from '../tokens/token-rates.js';
import { storedToken, type StoredToken } from '../tokens/transaction-asset.js';
import type { DepositConfig, DepositCurrency } from './deposit-config.js';

/** Cents (hundredths) of a validated amount. */
export function toCents(amount: string): bigint {
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0'));
}

export function weiFor(amount: string, currency: DepositCurrency, config: Pick<DepositConfig, 'weiPerUnit'>): bigint {
  return (toCents(amount) * config.weiPerUnit[currency]) / 100n;
}

/** The columns of a new deposit that say what it pays out: wei, or a token's base units at the rate quoted now. */
export function depositPayoutColumns(amount: string, currency: DepositCurrency, token: Token | undefined, config: DepositConfig) {
  if (!token) return { value: weiFor(amount, currency, config).toString() };
  const rate = tokenRate(config.tokenRates, currency, token.symbol, config.sandboxRates);
  if (!rate) throw notOffered('/asset', 'no_rate', `Deposits of ${currency} in ${token.symbol} are not offered on this deployment: DEPOSIT_TOKEN_RATES has no rate for ${currency}:${token.symbol}`);
  // The rate is kept with the deposit: what arrives later is paid at the rate its integrator was shown.
  return { value: '0', token: storedToken(token), depositRate: rate, tokenAmount: tokenUnitsFor(toCents(amount), rate, token.decimals, 'down').toString() };
}

/** What a deposit pays for the fiat that arrived: wei at the configured rate, or its token at the rate it was quoted. */
export function arrivedPayoutColumns(row: TransactionRow, amount: string, config: Pick<DepositConfig, 'weiPerUnit'>): { value: string } | { tokenAmount: string } {
  const token = row.token as StoredToken | null;
  if (!token || !row.depositRate) return { value: weiFor(amount, row.depositCurrency as DepositCurrency, config).toString() };
  return { tokenAmount: tokenUnitsFor(toCents(amount), row.depositRate, token.decimals, 'down').toString() };
}
