import { parseUnits } from 'viem';

/**
 * Fiat-to-token rates (DEPOSIT_TOKEN_RATES, WITHDRAWAL_TOKEN_RATES; docs/tokens.md#deposits-and-withdrawals): how many
 * whole units of a listed token one whole unit of a currency buys, as the decimal string configured ("1", "0.92").
 * Keyed by `CURRENCY:SYMBOL` in upper case, so one entry holds for that symbol on every chain.
 */
export type TokenRates = ReadonlyMap<string, string>;

/** At most this many fraction digits in a rate: an 18-decimals token's base unit. */
const RATE = /^(0|[1-9][0-9]{0,11})(\.[0-9]{1,18})?$/;

/** `USD:USDC=1,EUR:EURC=1,EUR:USDC=1.08`; empty for none. Throws naming the first bad entry (the caller names the variable). */
export function parseTokenRates(raw: string): Map<string, string> {
  const rates = new Map<string, string>();
  for (const part of raw.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(USD|EUR):([A-Za-z][A-Za-z0-9.]{0,10})=(.+)$/.exec(part);
    if (!m || !RATE.test(m[3]!) || /^0(\.0+)?$/.test(m[3]!)) throw new Error(`"${part}" is not CURRENCY:SYMBOL=<token units per unit> (USD or EUR, a listed symbol, a decimal greater than 0)`);
    const key = `${m[1]}:${m[2]!.toUpperCase()}`;
    if (rates.has(key)) throw new Error(`${key} is given twice`);
    rates.set(key, m[3]!);
  }
  return rates;
}

/**
 * The rate of a token for a currency: the configured one, else in sandbox 1 for a stablecoin of that currency (a
 * symbol starting with it: USDC, USDT for USD; EURC for EUR), its natural rate. Undefined: none (deposits and
 * withdrawals in it are not offered, 422 not_offered).
 */
export function tokenRate(rates: TokenRates, currency: string, symbol: string, sandbox: boolean): string | undefined {
  const upper = symbol.toUpperCase();
  return rates.get(`${currency}:${upper}`) ?? (sandbox && upper.startsWith(currency) ? '1' : undefined);
}

/** Base units of a token with `decimals` for `cents` of fiat at `rate`; down (deposits pay no more) or up (withdrawals take no less). */
export function tokenUnitsFor(cents: bigint, rate: string, decimals: number, round: 'down' | 'up'): bigint {
  // The rate as an integer over 10^18, so every configured rate is exact.
  const scaled = parseUnits(rate, 18);
  const numerator = cents * scaled * 10n ** BigInt(decimals);
  const denominator = 100n * 10n ** 18n;
  return round === 'down' ? numerator / denominator : (numerator + denominator - 1n) / denominator;
}
