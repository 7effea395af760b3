import { formatMinor } from './amounts.js';
import { ReferenceIndex } from './reference-index.js';
import type { StatementLine } from './statement.js';

/**
 * Statement lines against the movements the service expects on the account (docs/bank-statements.md#matching).
 * Pure: no clock, no database; the same input gives the same result, in the lines' order.
 */

export interface ExpectedMovement {
  id: string;
  kind: 'deposit' | 'payout' | 'payout_return';
  /** The payment reference (`DEP-…`, `WDR-…`); a payout_return carries its payout's. */
  reference: string;
  direction: 'credit' | 'debit';
  amountMinor: bigint;
  currency: string;
  /** YYYY-MM-DD: when the service recorded it. */
  date: string;
  /** Matched by an earlier statement: a line for it now is a duplicate. */
  alreadyMatched?: boolean;
}

/** docs/bank-statements.md#exceptions explains each (a test keeps the two equal). */
export const STATEMENT_EXCEPTION_TYPES = ['unknown_line', 'amount_mismatch', 'duplicate', 'date_outside_window', 'currency_mismatch'] as const;
export type StatementExceptionType = (typeof STATEMENT_EXCEPTION_TYPES)[number];

export interface StatementException {
  type: StatementExceptionType;
  lineId: string;
  expectedId?: string;
  expectedAmountMinor?: bigint;
  lineAmountMinor: bigint;
  detail: string;
}

export interface MatchResult {
  matched: { lineId: string; expectedId: string; kind: ExpectedMovement['kind'] }[];
  /** At most one per line. */
  exceptions: StatementException[];
  /** Expected movements no line matched (alreadyMatched ones left out): not exceptions, the statement may predate them. */
  unmatchedExpected: string[];
  /** Lines not booked (pending, information): never matched. With matched and exceptions, every line is in one. */
  notBooked: string[];
}

export interface MatchOptions {
  /** How many calendar days the booking (or value) date may be from the expected date, either way. Default 5. */
  windowDays?: number;
}

const DAY_MS = 86_400_000;
const dayNumber = (date: string | undefined): number | undefined => {
  const ms = date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? Date.parse(`${date}T00:00:00Z`) : Number.NaN;
  return Number.isNaN(ms) ? undefined : ms / DAY_MS;
};

/** The line's days from the expected date: the closer of its booking and value dates (Infinity with neither). */
function distance(line: StatementLine, expectedDay: number): number {
  const days = [dayNumber(line.bookingDate), dayNumber(line.valueDate)].filter((d): d is number => d !== undefined);
  return Math.min(Infinity, ...days.map((d) => Math.abs(d - expectedDay)));
}

/** What a line may match at all: a return only a payout_return (never a deposit or the payout itself), same direction. */
const kindFits = (line: StatementLine, e: ExpectedMovement) => e.direction === line.direction && (!line.isReturn || e.kind === 'payout_return');

export function matchStatement(lines: readonly StatementLine[], expected: readonly ExpectedMovement[], options: MatchOptions = {}): MatchResult {
  const windowDays = options.windowDays ?? 5;
  if (!Number.isInteger(windowDays) || windowDays < 0) throw new RangeError(`windowDays must be a whole number of days, not ${windowDays}`);
  const expectedDays = expected.map((e) => {
    const day = dayNumber(e.date);
    if (day === undefined) throw new RangeError(`expected movement ${e.id}: date ${JSON.stringify(e.date)} is not YYYY-MM-DD`);
    return day;
  });
  const index = new ReferenceIndex(expected.map((e) => e.reference));
  const booked = lines.filter((l) => l.booked);
  // Each line's candidates narrowed step by step: named by a reference, then kind and direction, currency, window.
  const steps = booked.map((line): Step => {
    const named = index.named(line.references);
    const fits = named.filter((i) => kindFits(line, expected[i]!));
    const sameCurrency = fits.filter((i) => expected[i]!.currency.toUpperCase() === line.currency.toUpperCase());
    const inWindow = sameCurrency.filter((i) => distance(line, expectedDays[i]!) <= windowDays);
    return { line, named, fits, sameCurrency, inWindow };
  });
  const closest = (line: StatementLine, candidates: number[]) =>
    candidates.reduce((best, i) => (distance(line, expectedDays[i]!) < distance(line, expectedDays[best]!) ? i : best), candidates[0]!);

  // First every exact match (amount included), in line order, so a line a cent off never takes a movement from the
  // right line after it; then what is left is explained.
  const takenBy = new Map<number, string>();
  const matchOf = new Map<Step, number>();
  for (const step of steps) {
    const { line, inWindow } = step;
    const exact = inWindow.filter((i) => !expected[i]!.alreadyMatched && !takenBy.has(i) && expected[i]!.amountMinor === line.amountMinor);
    if (exact.length === 0) continue;
    const i = closest(line, exact);
    takenBy.set(i, line.lineId);
    matchOf.set(step, i);
  }

  const result: MatchResult = { matched: [], exceptions: [], unmatchedExpected: [], notBooked: lines.filter((l) => !l.booked).map((l) => l.lineId) };
  for (const step of steps) {
    const i = matchOf.get(step);
    if (i !== undefined) result.matched.push({ lineId: step.line.lineId, expectedId: expected[i]!.id, kind: expected[i]!.kind });
    else result.exceptions.push(explain(step, expected, takenBy, closest));
  }
  result.unmatchedExpected = expected.filter((e, i) => !e.alreadyMatched && !takenBy.has(i)).map((e) => e.id);
  return result;
}

interface Step {
  line: StatementLine;
  named: number[];
  fits: number[];
  sameCurrency: number[];
  inWindow: number[];
}

/** Why a booked line matched nothing: the first step that left it without a candidate, or what stood in the way. */
function explain(step: Step, expected: readonly ExpectedMovement[], takenBy: Map<number, string>, closest: (line: StatementLine, candidates: number[]) => number): StatementException {
  const { line, named, fits, sameCurrency, inWindow } = step;
  const money = (minor: bigint, currency: string) => `${formatMinor(minor, currency)} ${currency}`;
  const about = (type: StatementExceptionType, i: number, detail: string): StatementException => ({
    type,
    lineId: line.lineId,
    expectedId: expected[i]!.id,
    expectedAmountMinor: expected[i]!.amountMinor,
    lineAmountMinor: line.amountMinor,
    detail,
  });
  // The movement as an operator knows it: its kind and reference (its id is the caller's).
  const name = (i: number) => `${expected[i]!.kind.replace('_', ' ')} ${expected[i]!.reference}`;

  if (named.length === 0) {
    return { type: 'unknown_line', lineId: line.lineId, lineAmountMinor: line.amountMinor, detail: `no reference on the ${line.direction} line names an expected movement` };
  }
  if (fits.length === 0) {
    const i = named[0]!;
    const returnNamed = named.some((j) => expected[j]!.kind === 'payout_return');
    const why = line.isReturn
      ? `a returned ${line.direction} naming ${name(i)}: a return matches only a payout_return, ${returnNamed ? 'which is a credit' : 'and none is expected for it'}`
      : `a ${line.direction} naming ${name(i)}, which is a ${expected[i]!.direction}`;
    return about('unknown_line', i, why);
  }
  if (sameCurrency.length === 0) {
    const i = fits[0]!;
    return about('currency_mismatch', i, `the line is in ${line.currency}, ${name(i)} in ${expected[i]!.currency}`);
  }
  if (inWindow.length === 0) {
    const i = closest(line, sameCurrency);
    const when = line.bookingDate ?? line.valueDate ?? 'no date';
    return about('date_outside_window', i, `the line (${when}) is not within the window of ${name(i)} (${expected[i]!.date})`);
  }
  const free = inWindow.filter((i) => !expected[i]!.alreadyMatched && !takenBy.has(i));
  if (free.length > 0) {
    const i = closest(line, free);
    return about('amount_mismatch', i, `the line's ${money(line.amountMinor, line.currency)} is not the ${money(expected[i]!.amountMinor, expected[i]!.currency)} of ${name(i)}`);
  }
  const i = closest(line, inWindow);
  const by = takenBy.get(i);
  return about('duplicate', i, `${name(i)} is matched already, ${by === undefined ? 'by an earlier statement' : `by line ${by}`}`);
}
