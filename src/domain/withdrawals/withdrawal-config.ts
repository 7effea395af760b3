import type { DepositCurrency } from '../deposits/deposit-config.js';
import type { TokenRates } from '../tokens/token-rates.js';

export const PAYOUT_RAILS = ['ach', 'sepa'] as const;
export type PayoutRail = (typeof PAYOUT_RAILS)[number];

export interface WithdrawalConfig {
  /** WITHDRAWAL_RAILS: the rails this deployment pays fiat out on; a bank account on another rail gets 422 not_offered. */
  rails: ReadonlySet<PayoutRail>;
  /** WITHDRAWAL_RATES: wei taken per whole unit of fiat paid out (defaults to DEPOSIT_RATES). */
  weiPerUnit: Record<DepositCurrency, bigint>;
  /** WITHDRAWAL_TOKEN_RATES: whole units of a listed token taken per whole unit of fiat (defaults to DEPOSIT_TOKEN_RATES). */
  tokenRates: TokenRates;
  /** Sandbox: a stablecoin of the withdrawal's currency without a configured rate is taken 1:1 (tokenRate). */
  sandboxRates: boolean;
  /** WITHDRAWAL_FEE_BPS: the service's fee on the amount paid out, in basis points (default 50 = 0.5%). */
  feeBps: number;
  /** WITHDRAWAL_QUOTE_SECONDS: how long a quote may be approved (default 60). */
  quoteTtlMs: number;
}

/** WITHDRAWAL_RAILS: comma-separated `ach`, `sepa`; empty for none. */
export function parseRails(raw: string): Set<PayoutRail> {
  const rails = new Set<PayoutRail>();
  for (const part of raw.split(',').map((p) => p.trim()).filter(Boolean)) {
    if (!(PAYOUT_RAILS as readonly string[]).includes(part)) throw new Error(`"${part}" is not a payout rail (${PAYOUT_RAILS.join(', ')})`);
    rails.add(part as PayoutRail);
  }
  return rails;
}
