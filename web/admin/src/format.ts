import type { BankAccount, BankAccountStatus, PayoutStatus, SubjectType, TransactionStatus, VerificationStatus } from './types';

export const STATUS_LABELS: Record<VerificationStatus, string> = {
  under_review: 'Under review',
  resubmission_requested: 'Resubmission requested',
  active: 'Active',
  rejected: 'Rejected',
  inactive: 'Inactive',
  awaiting_associated_person_information: 'Awaiting persons',
  awaiting_information: 'Awaiting information',
  init: 'Ready to submit',
  not_started: 'Not started',
};

export const BANK_ACCOUNT_STATUS_LABELS: Record<BankAccountStatus, string> = {
  pending_review: 'Pending review',
  verified: 'Verified',
  rejected: 'Rejected',
  removed: 'Removed',
};

export const PAYOUT_STATUS_LABELS: Record<PayoutStatus, string> = {
  pending: 'Pending',
  sent: 'Sent',
  settled: 'Settled',
  returned: 'Returned',
};

export const TRANSACTION_STATUS_LABELS: Record<TransactionStatus, string> = {
  created: 'Created',
  waiting_for_funds: 'Waiting for funds',
  funds_in_transfer: 'Funds in transfer',
  processing: 'Processing',
  completed: 'Completed',
  failed: 'Failed',
};

/** "1234567" -> "1,234,567": thousands separators in a whole number's digits. */
const grouped = (whole: string) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** "1,234.50 USD": the decimal string as the API sends it, grouped, never through a float. */
export function money(amount: string, currency: string): string {
  const [whole = amount, cents] = amount.split('.');
  return `${grouped(whole)}${cents !== undefined ? `.${cents}` : ''} ${currency}`;
}

/**
 * The chains the console names. 31337 is anvil's default chain id: the local node of `npm run chain` and of the
 * tests, never a public network.
 */
const CHAIN_NAMES: Record<number, string> = { 1: 'Ethereum', 10: 'Optimism', 137: 'Polygon', 8453: 'Base', 42161: 'Arbitrum', 84532: 'Base Sepolia', 11155111: 'Sepolia', 31337: 'Anvil (local)' };

/** "Base", "Ethereum", "Anvil (local)"; "chain 7777" for one the console does not know by name. */
export const chainName = (chainId: number) => CHAIN_NAMES[chainId] ?? `chain ${chainId}`;

/** Each chain's native coin, as the server names it in `asset` (src/domain/tokens/token-registry.ts): ETH unless listed. */
const NATIVE_SYMBOLS: Record<number, string> = { 137: 'POL', 56: 'BNB', 43114: 'AVAX' };
export const nativeSymbol = (chainId: number) => NATIVE_SYMBOLS[chainId] ?? 'ETH';

/**
 * "1,000,000.50", "0.000001", "0.00": a decimal string in an asset's units, grouped, with every significant fraction
 * digit it has (as many as the asset's decimals: 6 for USDC, 18 for ETH) and at least two. Only trailing zeros are
 * dropped, and leading zeros of the whole part, so the figure read back is the one given: it never goes through a
 * float. A string that is not a plain decimal is shown as it came.
 */
export function unitsAmount(amount: string): string {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(amount.trim());
  if (!match) return amount;
  const whole = match[1]!.replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '').padEnd(2, '0');
  return `${grouped(whole)}.${fraction}`;
}

/**
 * Base units ("1500000" of a 6-decimals token, or wei with 18) as a decimal string in the asset's units ("1.5"),
 * exactly: digits are moved, not divided.
 */
export function fromBaseUnits(raw: string, decimals: number): string {
  if (!/^\d+$/.test(raw) || !Number.isInteger(decimals) || decimals < 0) return raw;
  if (decimals === 0) return raw;
  const digits = raw.padStart(decimals + 1, '0');
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/**
 * "100.50 USDC on Base", "0.000001 USDC on Base", "1.25 ETH on Anvil (local)": an amount in its asset's units as the
 * API sends it (the decimal `cryptoAmount` or `amount`, never base units), with the asset's own decimals as
 * unitsAmount shows them, and the chain's name.
 */
export function cryptoAmount(amount: string, asset: string, chainId: number): string {
  return `${unitsAmount(amount)} ${asset} on ${chainName(chainId)}`;
}

/**
 * Where a deposit's payout stands, said for an operator: nothing due before the bank transfer arrives; once it has,
 * due, or waiting with the reason of its last failed attempt (usually a treasury short of the asset, which is the
 * operator's to fund); then sent, paid, or never paid and why.
 */
export function depositPayoutState(status: TransactionStatus, payoutError?: string, failureReason?: string): string {
  const retrying = payoutError ? `; the last attempt failed: ${payoutError}` : '';
  switch (status) {
    case 'created':
    case 'waiting_for_funds':
      return 'Not due: the bank transfer has not arrived';
    case 'funds_in_transfer':
      return payoutError ? `Waiting, tried again later: ${payoutError}` : 'Due: being signed and sent';
    case 'processing':
      return `Sent: waiting for the chain to confirm it${retrying}`;
    case 'completed':
      return 'Paid';
    case 'failed':
      return `Not paid: ${failureReason ?? 'failed'}`;
  }
}

/** "ACH · USD", "SEPA · EUR". */
export const railAndCurrency = (b: Pick<BankAccount, 'rail' | 'currency'>) => `${b.rail.toUpperCase()} · ${b.currency}`;

/** Only ever the last four characters: the API never sends more. */
export const maskedNumber = (last4: string) => `•••• ${last4}`;

export const SUBJECT_LABELS: Record<SubjectType, string> = { user: 'User', associated_person: 'Associated person', entity: 'Company' };

/** Words kept in capitals in a label: a field path's "Otp" or "ssn" is read as the acronym it is. */
const ACRONYMS = new Set(['otp', 'ssn', 'id', 'ids', 'url', 'kyc', 'kyb', 'ubo', 'iban', 'bic', 'ein', 'tin', 'api', 'ip', 'pep']);

/**
 * camelCase, snake_case or SCREAMING_CASE as a sentence: "residentialAddress" -> "Residential address",
 * "isOTPActivated" and "is_otp_activated" -> "Is OTP activated", "uboIds" -> "UBO IDs".
 */
export function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    // A run of capitals ends where the next word starts: "OTPActivated" -> "OTP Activated".
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .map((w) => (ACRONYMS.has(w) ? (w === 'ids' ? 'IDs' : w.toUpperCase()) : w))
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/*
 * One rule for every time the console shows: UTC, labelled "UTC" on the time itself. The audit trail and the API are
 * in UTC (`timeZone: "UTC"` on a case), and two officers in two countries must read the same time for the same
 * event; a browser's own zone would show each of them another one, unlabelled. Durations ("12 min") need no zone.
 */
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const timeOfDayFormat = new Intl.DateTimeFormat('en-GB', { timeStyle: 'medium', timeZone: 'UTC' });

/** "27 Nov 2026, 20:41 UTC". */
export function dateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${dateTimeFormat.format(date)} UTC`;
}

/** "20:41:05 UTC": when a list was last refreshed. */
export const timeOfDay = (date: Date = new Date()): string => `${timeOfDayFormat.format(date)} UTC`;

/** How long ago, coarse: "just now", "12 min", "3 h 5 min", "2 d 4 h". */
export function age(iso: string, now: number = Date.now()): string {
  const minutes = Math.floor((now - new Date(iso).getTime()) / 60_000);
  if (!(minutes >= 1)) return 'just now';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH_NUMBERS = new Map(MONTHS.map((m, i) => [m.toLowerCase(), i + 1]));

/** "21 Jul 1980", "Jul 1980" or "1980"; null for a month that is none. */
function dayMonthYear(year: string, month?: number, day?: string): string | null {
  if (month === undefined) return year;
  const name = MONTHS[month - 1];
  return name ? [day && String(Number(day)), name, year].filter(Boolean).join(' ') : null;
}

/** One date written `YYYY-MM-DD`, `YYYY-MM`, `YYYY`, `DD Mon YYYY` or `Mon YYYY`; null for any other form. */
function oneBirthDate(text: string): string | null {
  const iso = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(text);
  if (iso) return dayMonthYear(iso[1]!, iso[2] ? Number(iso[2]) : undefined, iso[3]);
  const written = /^(?:(\d{1,2}) )?([A-Za-z]{3}) (\d{4})$/.exec(text);
  if (written) return dayMonthYear(written[3]!, MONTH_NUMBERS.get(written[2]!.toLowerCase()) ?? 0, written[1]);
  return null;
}

/**
 * A date of birth, the customer's (`1980-07-21`) or a list's (`21 Jul 1980`, `circa 1961`, `1961 to 1962`, the EU's
 * and UN's ISO dates), in one form wherever the console shows one: "21 Jul 1980", "Jul 1980", "circa 1961",
 * "1961 to 1962". Day, month name, year: no reader mistakes the day for the month. A form it does not know is shown
 * as given.
 */
export function birthDate(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  const circa = /^circa (.+)$/i.exec(t);
  if (circa) return `circa ${birthDate(circa[1]!)}`;
  const span = /^(.+?) to (.+)$/.exec(t);
  if (span) return `${birthDate(span[1]!)} to ${birthDate(span[2]!)}`;
  return oneBirthDate(t) ?? t;
}
