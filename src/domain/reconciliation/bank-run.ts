import { createHash } from 'node:crypto';
import type { Database } from '../../db/database.js';
import * as repo from '../../db/repositories/reconciliation.js';
import type { ExceptionType, ExpectedKind } from '../../db/schema/index.js';
import { ApiError, invalidFields } from '../errors.js';
import { newId } from '../ids.js';
import { formatMinor, toMinor } from './amounts.js';
import { parseCamt053 } from './camt053.js';
import type { RunTrigger } from './chain-run.js';
import { matchStatement, type ExpectedMovement, type StatementException } from './match-statement.js';
import { recordOperatorEvent } from './operator-events.js';
import { StatementFormatError, type BankStatement, type StatementLine } from './statement.js';

export interface BankReconciliationDeps {
  database: Database;
  now: () => Date;
  /** Days either side of a movement's date a line may be booked (RECONCILE_BANK_WINDOW_DAYS, 5). */
  windowDays: number;
}

/** How far around the statement's dates the expected movements are read (a line's window is much narrower). */
const READ_MARGIN_DAYS = 31;
const DAY_MS = 86_400_000;

/** A statement line as a run keeps it: what an operator needs to work it, no more. */
export interface LineSnapshot {
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

export function lineSnapshot(line: StatementLine): LineSnapshot {
  return {
    lineId: line.lineId,
    direction: line.direction,
    amount: line.amount,
    currency: line.currency,
    bookingDate: line.bookingDate ?? null,
    valueDate: line.valueDate ?? null,
    references: line.references.slice(0, 10),
    isReturn: line.isReturn,
    returnReason: line.returnReason ?? null,
    counterpartyName: line.counterpartyName ?? null,
  };
}

function readStatement(xml: string): BankStatement {
  try {
    return parseCamt053(xml);
  } catch (err) {
    if (err instanceof StatementFormatError) throw invalidFields([{ pointer: '/statement', code: err.code, detail: err.message, in: 'body' }], 'The statement is not a camt.053 file this service reads');
    throw err;
  }
}

const DIRECTIONS: Record<ExpectedKind, 'credit' | 'debit'> = { deposit: 'credit', payout: 'debit', payout_return: 'credit' };
const day = (at: Date) => at.toISOString().slice(0, 10);
const splitId = (id: string) => ({ kind: id.slice(0, id.indexOf(':')) as ExpectedKind, id: id.slice(id.indexOf(':') + 1) });

/**
 * Reconciles the treasury's bank account with its statement (docs/reconciliation.md#against-the-bank): the booked lines
 * of a camt.053 file matched to the deposits, payouts and payout returns the service recorded, by reference, amount
 * and a date window; each movement is matched once, across statements. What does not match is an exception to work:
 * lines no movement explains, amounts or currencies that differ, duplicates, lines outside the window, and movements
 * of the statement's period no line paid. The same file imported twice is a 409 naming the first run.
 */
export async function runBankReconciliation(deps: BankReconciliationDeps, xml: string, by: RunTrigger): Promise<repo.RunRow> {
  const hash = createHash('sha256').update(xml).digest('hex');
  const imported = await repo.findRunByStatement(deps.database.db, hash);
  if (imported) throw alreadyImported(imported.id);
  const statement = readStatement(xml);
  const lines = statement.statements.flatMap((s) => s.lines);
  const dates = lines.flatMap((l) => [l.bookingDate, l.valueDate]).filter((d): d is string => !!d).sort();
  const startedAt = deps.now();
  const from = new Date(Date.parse(dates[0] ?? day(startedAt)) - READ_MARGIN_DAYS * DAY_MS);
  const to = new Date(Date.parse(dates.at(-1) ?? day(startedAt)) + (READ_MARGIN_DAYS + 1) * DAY_MS);
  const rows = await repo.expectedMovements(deps.database.db, { from, to });
  const expected: ExpectedMovement[] = rows.flatMap((r) => {
    const amountMinor = toMinor(r.amount, r.currency);
    return amountMinor === undefined ? [] : [{ id: `${r.kind}:${r.id}`, kind: r.kind, reference: r.reference, direction: DIRECTIONS[r.kind], amountMinor, currency: r.currency, date: day(r.at), alreadyMatched: r.matched }];
  });
  const result = matchStatement(lines, expected, { windowDays: deps.windowDays });
  const byId = new Map(expected.map((e) => [e.id, e]));
  const lineById = new Map(lines.map((l) => [l.lineId, l]));
  const runId = newId();
  const at = deps.now();
  const exceptions = [...result.exceptions.map((e) => exceptionRow(runId, e, lineById.get(e.lineId)!, byId, at)), ...missingLines(runId, statement, result.unmatchedExpected, byId, at)];
  const summary = { matched: result.matched.length, exceptions: exceptions.length, lines: lines.length, notBooked: result.notBooked.length };
  const described = {
    version: statement.version,
    messageId: statement.messageId,
    statements: statement.statements.map((s) => ({ statementId: s.statementId, iban: s.iban ?? null, currency: s.currency ?? null, fromDate: s.fromDate ?? null, toDate: s.toDate ?? null, lines: s.lines.length })),
  };
  return deps.database.db.transaction(async (tx) => {
    const run = await repo.insertRun(tx, { id: runId, kind: 'bank', trigger: by.trigger, operatorId: by.trigger === 'operator' ? by.operatorId : null, statementHash: hash, statement: described, summary, startedAt, completedAt: at });
    if (!run) throw alreadyImported((await repo.findRunByStatement(tx, hash))?.id);
    const taken = await repo.insertMatches(
      tx,
      result.matched.map((m) => ({ id: newId(), runId, lineId: m.lineId, line: lineSnapshot(lineById.get(m.lineId)!), expectedKind: m.kind, expectedId: splitId(m.expectedId).id, reference: byId.get(m.expectedId)!.reference, matchedBy: 'auto', createdAt: at })),
    );
    // Matched by another statement's run meanwhile: this line repeats it.
    const late = result.matched.filter((m) => taken.has(`${m.kind}:${splitId(m.expectedId).id}`));
    const duplicates = late.map((m) => exceptionRow(runId, { type: 'duplicate', lineId: m.lineId, expectedId: m.expectedId, lineAmountMinor: lineById.get(m.lineId)!.amountMinor, detail: 'matched by another statement meanwhile' }, lineById.get(m.lineId)!, byId, at));
    await repo.insertExceptions(tx, [...exceptions, ...duplicates]);
    const final = { ...summary, matched: summary.matched - late.length, exceptions: summary.exceptions + late.length };
    await recordOperatorEvent(tx, 'reconciliation.completed', { runId, kind: 'bank', ...final }, at);
    return { ...run, summary: final };
  });
}

function alreadyImported(runId: string | undefined): ApiError {
  return new ApiError('statement_already_imported', 'This statement was imported already: its run matched what it could, and nothing is matched again', { extensions: { runId: runId ?? null } });
}

function exceptionRow(runId: string, e: StatementException, line: StatementLine, byId: Map<string, ExpectedMovement>, at: Date) {
  const movement = e.expectedId ? byId.get(e.expectedId) : undefined;
  return {
    id: newId(),
    runId,
    type: e.type as ExceptionType,
    line: lineSnapshot(line),
    expectedKind: movement?.kind ?? null,
    expectedId: e.expectedId ? splitId(e.expectedId).id : null,
    expectedReference: movement?.reference ?? null,
    expectedAmount: movement ? formatMinor(movement.amountMinor, movement.currency) : null,
    detail: e.detail,
    status: 'open' as const,
    createdAt: at,
  };
}

/** Movements of the statement's period that no line paid: exceptions on the service's side. */
function missingLines(runId: string, statement: BankStatement, unmatched: string[], byId: Map<string, ExpectedMovement>, at: Date) {
  const periods = statement.statements.filter((s) => s.fromDate && s.toDate).map((s) => ({ from: s.fromDate!.slice(0, 10), to: s.toDate!.slice(0, 10), currency: s.currency }));
  return unmatched.flatMap((id) => {
    const movement = byId.get(id)!;
    const covered = periods.some((p) => movement.date >= p.from && movement.date <= p.to && (!p.currency || p.currency === movement.currency));
    if (!covered) return [];
    return [
      {
        id: newId(),
        runId,
        type: 'missing_line' as const,
        line: null,
        expectedKind: movement.kind,
        expectedId: splitId(id).id,
        expectedReference: movement.reference,
        expectedAmount: formatMinor(movement.amountMinor, movement.currency),
        detail: `no line of the statement pays the ${movement.kind.replace('_', ' ')} ${movement.reference} of ${movement.date}`,
        status: 'open' as const,
        createdAt: at,
      },
    ];
  });
}
