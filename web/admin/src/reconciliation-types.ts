// The /admin/api shapes of reconciliation runs (docs/reconciliation.md), written out as ledger-types.ts's are.

export const EXCEPTION_TYPES = ['unknown_line', 'amount_mismatch', 'duplicate', 'date_outside_window', 'currency_mismatch', 'missing_line'] as const;
export type ExceptionType = (typeof EXCEPTION_TYPES)[number];

export const EXPECTED_KINDS = ['deposit', 'payout', 'payout_return'] as const;
export type ExpectedKind = (typeof EXPECTED_KINDS)[number];

export type RunKind = 'chain' | 'bank';
export type RunTrigger = 'operator' | 'cli' | 'schedule';

/** An amount in the asset's units (signed) and in base units (never shown). */
export interface Figure {
  amount: string;
  amountRaw: string;
}

export interface ReconciliationBreak {
  breakId: string;
  chainId: number;
  /** The final block both figures are of. */
  blockNumber: number;
  /** `treasury:<asset>` or `customer:<accountId>:<asset>`. */
  ledgerAccountCode: string;
  asset: { code: string; symbol: string; decimals: number };
  address: string;
  /** A customer wallet's account; null for the treasury. */
  accountId: string | null;
  ledger: Figure;
  chain: Figure;
  /** chain − ledger. */
  difference: Figure;
  status: 'open' | 'resolved';
  note: string | null;
  /** The operator's id. */
  resolvedBy: string | null;
  resolvedAt: string | null;
  adjustmentLedgerTransactionId: string | null;
}

/** A booked line of the statement, as read. */
export interface StatementLine {
  lineId: string;
  direction: 'credit' | 'debit';
  amount: string;
  currency: string;
  bookingDate: string | null;
  valueDate: string | null;
  references: string[];
  isReturn: boolean;
  returnReason: string | null;
  counterpartyName: string | null;
}

/** The movement an exception concerns (a candidate, the one repeated, the one no line paid). */
export interface ExpectedMovement {
  kind: ExpectedKind;
  id: string;
  reference: string | null;
  amount: string | null;
}

export interface ReconciliationException {
  exceptionId: string;
  type: ExceptionType;
  line: StatementLine | null;
  expected: ExpectedMovement | null;
  detail: string;
  status: 'open' | 'matched' | 'resolved';
  note: string | null;
  resolvedBy: string | null;
  resolvedAt: string | null;
}

export interface StatementMatch {
  lineId: string;
  line: StatementLine;
  kind: ExpectedKind;
  expectedId: string;
  reference: string;
  /** "auto", or the id of the operator who matched it by hand. */
  matchedBy: string;
}

/** A bank run's statement: its version, message id and statements with their periods (an open record in the API). */
export interface StatementDescription {
  version?: string;
  messageId?: string | null;
  statements?: { statementId?: string | null; iban?: string | null; currency?: string | null; fromDate?: string | null; toDate?: string | null; lines?: number }[];
}

/**
 * A run as listed. `summary` is an open record in the API: a chain run's counts are `breaks` and `holdings` (and
 * `blocks`: the block read per chain id), a bank run's `matched`, `exceptions`, `lines` and `notBooked`.
 */
export interface RunSummary {
  runId: string;
  kind: RunKind;
  trigger: RunTrigger;
  operatorId: string | null;
  startedAt: string;
  completedAt: string;
  summary: Record<string, unknown>;
  statement: StatementDescription | null;
}

export interface Run extends RunSummary {
  breaks: ReconciliationBreak[];
  exceptions: ReconciliationException[];
  matched: StatementMatch[];
}

export interface RunPage {
  data: RunSummary[];
  hasMore: boolean;
  nextCursor: string | null;
}
