import { Type } from 'typebox';
import { EXCEPTION_TYPES, EXPECTED_KINDS, RECONCILIATION_KINDS } from '../../db/schema/index.js';
import { Nullable, Uuid } from './onboarding/common.js';
import { FORMATS, patterned } from './patterns.js';

// Reconciliation runs as the operators' API shows them (docs/reconciliation.md).

const Figure = Type.Object(
  { amount: patterned(FORMATS.signedDecimal, { description: 'In the asset’s units' }), amountRaw: patterned(FORMATS.signedInteger, { description: 'In base units' }) },
  { additionalProperties: false, title: 'ReconciliationFigure' },
);
const at = (description: string) => Nullable(Type.String({ format: 'date-time', description }));

export const BreakSchema = Type.Object(
  {
    breakId: Uuid(),
    chainId: Type.Integer({ minimum: 0 }),
    blockNumber: Type.Integer({ minimum: 0, description: 'The final block both figures are of' }),
    ledgerAccountCode: Type.String({ description: 'treasury:<asset> or customer:<accountId>:<asset>' }),
    ledgerAccountId: Uuid('The ledger account (GET /admin/api/ledger/accounts/{ledgerAccountId}); absent from the ledger when nothing was ever posted to it'),
    asset: Type.Object({ code: patterned(FORMATS.ledgerAsset), symbol: Type.String(), decimals: Type.Integer({ minimum: 0 }) }, { additionalProperties: false, title: 'BreakAsset' }),
    address: patterned(FORMATS.lowercaseAddress, { description: 'The wallet or treasury read on chain' }),
    accountId: Nullable(Uuid('A customer wallet’s account; null for the treasury')),
    ledger: { ...Figure, description: 'What the ledger says the holder had at the block' },
    chain: { ...Figure, description: 'What the chain says' },
    difference: { ...Figure, description: 'chain − ledger' },
    status: Type.Enum(['open', 'resolved'], { type: 'string' }),
    note: Nullable(Type.String()),
    resolvedBy: Nullable(Type.String({ description: 'The operator' })),
    resolvedAt: at('When it was worked'),
    adjustmentLedgerTransactionId: Nullable(Uuid('The adjustment posted when the operator recorded the difference')),
  },
  { additionalProperties: false, title: 'ReconciliationBreak' },
);

const LineSchema = Type.Object(
  {
    lineId: Type.String(),
    direction: Type.Enum(['credit', 'debit'], { type: 'string' }),
    amount: Type.String(),
    currency: Type.String(),
    bookingDate: Nullable(Type.String()),
    valueDate: Nullable(Type.String()),
    references: Type.Array(Type.String()),
    isReturn: Type.Boolean(),
    returnReason: Nullable(Type.String()),
    counterpartyName: Nullable(Type.String()),
  },
  { additionalProperties: false, title: 'StatementLine', description: 'A booked line of the statement, as read' },
);

export const ExceptionSchema = Type.Object(
  {
    exceptionId: Uuid(),
    type: Type.Enum([...EXCEPTION_TYPES], { type: 'string', description: 'docs/reconciliation.md#exceptions' }),
    line: Nullable(LineSchema),
    expected: Nullable(
      Type.Object(
        { kind: Type.Enum([...EXPECTED_KINDS], { type: 'string' }), id: Uuid(), reference: Nullable(Type.String()), amount: Nullable(Type.String()) },
        { additionalProperties: false, title: 'ExpectedMovement', description: 'The movement it concerns (a candidate, the one repeated, the one no line paid)' },
      ),
    ),
    detail: Type.String(),
    status: Type.Enum(['open', 'matched', 'resolved'], { type: 'string' }),
    note: Nullable(Type.String()),
    resolvedBy: Nullable(Type.String()),
    resolvedAt: at('When it was worked'),
  },
  { additionalProperties: false, title: 'ReconciliationException' },
);

export const MatchSchema = Type.Object(
  { lineId: Type.String(), line: LineSchema, kind: Type.Enum([...EXPECTED_KINDS], { type: 'string' }), expectedId: Uuid(), reference: Type.String(), matchedBy: Type.String({ description: 'auto, or the operator who matched it by hand' }) },
  { additionalProperties: false, title: 'StatementMatch' },
);

const RunFields = {
  runId: Uuid(),
  kind: Type.Enum([...RECONCILIATION_KINDS], { type: 'string' }),
  trigger: Type.Enum(['operator', 'cli', 'schedule'], { type: 'string' }),
  operatorId: Nullable(Type.String()),
  startedAt: Type.String({ format: 'date-time' }),
  completedAt: Type.String({ format: 'date-time' }),
  summary: Type.Record(Type.String(), Type.Unknown(), { description: 'Counts: breaks and holdings (chain); matched, exceptions, lines (bank)' }),
  statement: Nullable(Type.Record(Type.String(), Type.Unknown(), { description: 'Bank runs: the statement’s version, message id and statements with their periods' })),
};

export const RunSummarySchema = Type.Object(RunFields, { additionalProperties: false, title: 'ReconciliationRunSummary' });

export const RunSchema = Type.Object(
  { ...RunFields, breaks: Type.Array(BreakSchema), exceptions: Type.Array(ExceptionSchema), matched: Type.Array(MatchSchema) },
  { additionalProperties: false, title: 'ReconciliationRun' },
);

export const RunPageSchema = Type.Object(
  { data: Type.Array(RunSummarySchema), hasMore: Type.Boolean(), nextCursor: Nullable(Type.String({ description: 'startingAfter for the next page; null on the last' })) },
  { additionalProperties: false, title: 'ReconciliationRunPage' },
);

export const RunRequestSchema = Type.Union(
  [
    Type.Object({ kind: Type.Literal('chain') }, { additionalProperties: false, title: 'ChainReconciliationRequest' }),
    Type.Object(
      { kind: Type.Literal('bank'), statement: Type.String({ minLength: 1, description: 'The camt.053 statement file (XML) as text' }) },
      { additionalProperties: false, title: 'BankReconciliationRequest' },
    ),
  ],
  { description: 'A chain run, or a bank run of an uploaded statement' },
);

export const OperatorEventSchema = Type.Object(
  {
    id: Uuid(),
    type: Type.Enum(['reconciliation.completed'], { type: 'string' }),
    data: Type.Record(Type.String(), Type.Unknown(), { description: 'reconciliation.completed: runId, kind and the run’s counts' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, title: 'OperatorEvent', description: 'An event for operators (alerting), never sent to integrators' },
);

export const RunParams = Type.Object({ runId: Uuid() }, { additionalProperties: false });
export const BreakParams = Type.Object({ runId: Uuid(), breakId: Uuid() }, { additionalProperties: false });
export const ExceptionParams = Type.Object({ runId: Uuid(), exceptionId: Uuid() }, { additionalProperties: false });
export const Note = patterned(FORMATS.notBlank, { maxLength: 1000, description: 'What it was' });
