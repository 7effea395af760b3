import { chainName, unitsAmount } from './format';
import type { LedgerAccountKind, LedgerCauseType, LedgerStatus } from './ledger-types';
import type { ExceptionType, ExpectedKind, RunKind, RunTrigger } from './reconciliation-types';

// Words and figures of the ledger and reconciliation pages. Amounts stay the API's decimal strings: grouped and
// signed here, never parsed to a number.

export const LEDGER_KIND_LABELS: Record<LedgerAccountKind, string> = {
  customer: 'Customer wallet',
  treasury: 'Treasury',
  fiat_clearing: 'Fiat clearing (bank)',
  exchange: 'Exchange',
  fees_earned: 'Fees earned',
  payouts_in_transit: 'Payouts in transit',
  network_fees: 'Network fees',
  external: 'External',
  opening_balances: 'Opening balances',
  adjustments: 'Adjustments',
};

export const LEDGER_STATUS_LABELS: Record<LedgerStatus, string> = { pending: 'Pending', posted: 'Posted', archived: 'Archived' };

export const CAUSE_LABELS: Record<LedgerCauseType, string> = { transaction: 'Transaction', payout: 'Payout', opening: 'Opening balance', adjustment: 'Adjustment' };

export const RUN_KIND_LABELS: Record<RunKind, string> = { chain: 'Chain', bank: 'Bank statement' };
export const TRIGGER_LABELS: Record<RunTrigger, string> = { operator: 'Operator', cli: 'Command line', schedule: 'Schedule' };

export const EXCEPTION_LABELS: Record<ExceptionType, string> = {
  unknown_line: 'Unknown line: no movement expected',
  amount_mismatch: 'Amount differs',
  currency_mismatch: 'Currency differs',
  date_outside_window: 'Booked outside the date window',
  duplicate: 'Duplicate: the movement is matched already',
  missing_line: 'Missing line: no line paid an expected movement',
};

export const EXPECTED_KIND_LABELS: Record<ExpectedKind, string> = { deposit: 'Deposit', payout: 'Payout', payout_return: 'Payout return' };

/**
 * "-1,234.50", "0.00002", "+2.00" (with `plus`): a signed decimal string in an asset's units, grouped as unitsAmount
 * groups, its sign kept. A string that is not a plain signed decimal is shown as it came.
 */
export function signedUnits(amount: string, options: { plus?: boolean } = {}): string {
  const match = /^([-+]?)(\d+(?:\.\d*)?)$/.exec(amount.trim());
  if (!match) return amount;
  const digits = unitsAmount(match[2]!);
  const zero = /^[0.,]+$/.test(digits);
  if (match[1] === '-' && !zero) return `-${digits}`;
  return options.plus && !zero ? `+${digits}` : digits;
}

/** "0.99998 ETH", "+100.00 USD" (`plus`: an entry, which moves the balance, shows its sign either way). */
export const ledgerAmount = (amount: string, symbol: string, options: { plus?: boolean } = {}) => `${signedUnits(amount, options)} ${symbol}`;

/** "ETH on Base", "USDC on Base", "USD": an asset by its symbol, and its chain where it has one. */
export const assetName = (asset: { symbol: string; chainId: number | null }) => (asset.chainId === null ? asset.symbol : `${asset.symbol} on ${chainName(asset.chainId)}`);

/** The chain of a CAIP-19 asset code (`eip155:8453/slip44:60`); null for fiat (`iso4217:USD`). */
export function chainOfAsset(code: string): number | null {
  const match = /^eip155:(\d+)\//.exec(code);
  return match ? Number(match[1]) : null;
}

/** A date-only value ("2026-11-30", a statement's booking date) as the console writes dates: "30 Nov 2026". */
const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });
export function dateOnly(value: string): string {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? value : dateFormat.format(date);
}

/** "1 break", "3 exceptions": a count and its noun. */
export const counted = (n: number, noun: string, plural = `${noun}s`) => `${n} ${n === 1 ? noun : plural}`;

/** A run's counts from its open `summary` record: only numbers are read, anything else is left out. */
export function runCounts(kind: RunKind, summary: Record<string, unknown>): string {
  const n = (key: string) => (typeof summary[key] === 'number' ? (summary[key] as number) : undefined);
  const parts: [number | undefined, string, string?][] =
    kind === 'chain'
      ? [
          [n('breaks'), 'break'],
          [n('holdings'), 'holding'],
        ]
      : [
          [n('matched'), 'matched', 'matched'],
          [n('exceptions'), 'exception'],
          [n('lines'), 'line'],
          [n('notBooked') || undefined, 'not booked', 'not booked'],
        ];
  return parts.flatMap(([count, noun, plural]) => (count === undefined ? [] : [counted(count, noun, plural)])).join(' · ');
}

/**
 * What a datetime-local field holds ("2026-11-30T12:34" or with seconds), read as UTC as the console shows every time;
 * undefined when it is not one.
 */
export function utcFromField(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return undefined;
  const date = new Date(`${value}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** An ISO time as a datetime-local field's value in UTC, to the second ("2026-11-30T12:34:56"). */
export const fieldFromUtc = (iso: string) => new Date(iso).toISOString().slice(0, 19);
