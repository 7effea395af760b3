import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, numeric, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id } from './columns.js';

// Reconciliation (docs/reconciliation.md): runs against the chain (breaks: the ledger's figure is not the chain's)
// and against the bank's statement (matches, and exceptions to work), and the operators' own events.

export const RECONCILIATION_KINDS = ['chain', 'bank'] as const;
export type ReconciliationKind = (typeof RECONCILIATION_KINDS)[number];

/** What an exception says about a statement line, or an expected movement no line paid. */
export const EXCEPTION_TYPES = ['unknown_line', 'amount_mismatch', 'duplicate', 'date_outside_window', 'currency_mismatch', 'missing_line'] as const;
export type ExceptionType = (typeof EXCEPTION_TYPES)[number];

/** The movements a statement's lines are matched to: a deposit's funds, a payout's debit, a returned payout's credit. */
export const EXPECTED_KINDS = ['deposit', 'payout', 'payout_return'] as const;
export type ExpectedKind = (typeof EXPECTED_KINDS)[number];

export const reconciliationRuns = pgTable(
  'reconciliation_runs',
  {
    id: id(),
    kind: text('kind', { enum: RECONCILIATION_KINDS }).notNull(),
    /** operator (the admin API or console), cli, schedule. */
    trigger: text('trigger', { enum: ['operator', 'cli', 'schedule'] }).notNull(),
    operatorId: text('operator_id'),
    /** Bank runs: SHA-256 of the statement file, so the same statement imported twice is refused (409). */
    statementHash: text('statement_hash'),
    /** Bank runs: what the statement was (version, message id, statements and their periods, lines). */
    statement: jsonb('statement'),
    /** Counts: breaks, exceptions, matched, holders read, blocks per chain. */
    summary: jsonb('summary').notNull(),
    startedAt: at('started_at').notNull(),
    completedAt: at('completed_at').notNull(),
  },
  (t) => [
    uniqueIndex('reconciliation_runs_statement_key').on(t.statementHash).where(sql`${t.statementHash} is not null`),
    index('reconciliation_runs_kind_idx').on(t.kind, t.id),
    check('reconciliation_runs_kind_check', sql`${t.kind} in ('chain', 'bank')`),
  ],
);

/** A chain run's difference for one holder and asset: the ledger's figure and the chain's at a final block. */
export const reconciliationBreaks = pgTable(
  'reconciliation_breaks',
  {
    id: id(),
    runId: uuid('run_id')
      .notNull()
      .references(() => reconciliationRuns.id),
    chainId: bigint('chain_id', { mode: 'number' }).notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    /** The ledger account's code (`treasury:<asset>`, `customer:<accountId>:<asset>`); it may not exist yet. */
    ledgerAccountCode: text('ledger_account_code').notNull(),
    asset: text('asset').notNull(),
    symbol: text('symbol').notNull(),
    decimals: integer('decimals').notNull(),
    /** A customer's wallet: its integrator and account; null for the treasury. */
    integratorId: uuid('integrator_id'),
    accountId: uuid('account_id'),
    /** Lower case. */
    address: text('address').notNull(),
    ledgerAmount: numeric('ledger_amount').notNull(),
    chainAmount: numeric('chain_amount').notNull(),
    /** chain − ledger, base units. */
    difference: numeric('difference').notNull(),
    status: text('status', { enum: ['open', 'resolved'] }).notNull(),
    note: text('note'),
    resolvedBy: text('resolved_by'),
    resolvedAt: at('resolved_at'),
    /** The adjustment posted when the operator recorded what the difference was. */
    adjustmentLedgerTransactionId: uuid('adjustment_ledger_transaction_id'),
    createdAt: createdAt(),
  },
  (t) => [index('reconciliation_breaks_run_idx').on(t.runId), index('reconciliation_breaks_open_idx').on(t.createdAt).where(sql`${t.status} = 'open'`)],
);

/** A bank run's line that did not match (or an expected movement no line paid), to work in the console. */
export const reconciliationExceptions = pgTable(
  'reconciliation_exceptions',
  {
    id: id(),
    runId: uuid('run_id')
      .notNull()
      .references(() => reconciliationRuns.id),
    type: text('type', { enum: EXCEPTION_TYPES }).notNull(),
    /** The statement line as read (lineId, direction, amount, currency, dates, references); null for missing_line. */
    line: jsonb('line'),
    /** The movement it concerns, when one is named (the candidate of an amount mismatch, the one a duplicate repeats). */
    expectedKind: text('expected_kind', { enum: EXPECTED_KINDS }),
    expectedId: uuid('expected_id'),
    expectedReference: text('expected_reference'),
    expectedAmount: text('expected_amount'),
    detail: text('detail').notNull(),
    /** open; matched (by hand, to a movement); resolved (with a note). */
    status: text('status', { enum: ['open', 'matched', 'resolved'] }).notNull(),
    note: text('note'),
    resolvedBy: text('resolved_by'),
    resolvedAt: at('resolved_at'),
    createdAt: createdAt(),
  },
  (t) => [index('reconciliation_exceptions_run_idx').on(t.runId), index('reconciliation_exceptions_open_idx').on(t.createdAt).where(sql`${t.status} = 'open'`)],
);

/** A statement line matched to a movement: each movement once, whichever statement and whoever matched it. */
export const statementMatches = pgTable(
  'statement_matches',
  {
    id: id(),
    runId: uuid('run_id')
      .notNull()
      .references(() => reconciliationRuns.id),
    lineId: text('line_id').notNull(),
    line: jsonb('line').notNull(),
    expectedKind: text('expected_kind', { enum: EXPECTED_KINDS }).notNull(),
    /** The deposit's transactions row id, or the payout's withdrawal_payouts id. */
    expectedId: uuid('expected_id').notNull(),
    reference: text('reference').notNull(),
    /** auto (the run), or the operator who matched an exception by hand. */
    matchedBy: text('matched_by').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('statement_matches_expected_key').on(t.expectedKind, t.expectedId), index('statement_matches_run_idx').on(t.runId)],
);

/**
 * Events for operators, never for integrators (`reconciliation.completed`): listed at GET /admin/api/events and
 * described in the admin OpenAPI document.
 */
export const operatorEvents = pgTable(
  'operator_events',
  {
    id: id(),
    type: text('type').notNull(),
    data: jsonb('data').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('operator_events_type_idx').on(t.type, t.id)],
);
