import type { Executor } from '../../db/database.js';
import * as repo from '../../db/repositories/reconciliation.js';
import { notFound } from '../errors.js';
import { formatSigned } from '../ledger/assets.js';
import { ledgerAccountId } from '../ledger/ledger-accounts.js';
import type { LineSnapshot } from './bank-run.js';
import type { OperatorEventType } from './operator-events.js';

// Runs as the operators' API and console show them (docs/reconciliation.md).

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function runSummaryView(run: repo.RunRow) {
  return {
    runId: run.id,
    kind: run.kind,
    trigger: run.trigger,
    operatorId: run.operatorId,
    startedAt: run.startedAt.toISOString(),
    completedAt: run.completedAt.toISOString(),
    summary: run.summary as Record<string, unknown>,
    statement: (run.statement as Record<string, unknown> | null) ?? null,
  };
}

export function breakView(b: repo.BreakRow) {
  const figure = (raw: string) => ({ amount: formatSigned(BigInt(raw), b.decimals), amountRaw: BigInt(raw).toString() });
  return {
    breakId: b.id,
    chainId: b.chainId,
    blockNumber: b.blockNumber,
    ledgerAccountCode: b.ledgerAccountCode,
    // The account's page in the console; it may not exist yet (nothing was ever posted to it).
    ledgerAccountId: ledgerAccountId(b.ledgerAccountCode),
    asset: { code: b.asset, symbol: b.symbol, decimals: b.decimals },
    address: b.address,
    accountId: b.accountId,
    ledger: figure(b.ledgerAmount),
    chain: figure(b.chainAmount),
    difference: figure(b.difference),
    status: b.status,
    note: b.note,
    resolvedBy: b.resolvedBy,
    resolvedAt: iso(b.resolvedAt),
    adjustmentLedgerTransactionId: b.adjustmentLedgerTransactionId,
  };
}

export function exceptionView(e: repo.ExceptionRow) {
  return {
    exceptionId: e.id,
    type: e.type,
    line: (e.line as LineSnapshot | null) ?? null,
    expected: e.expectedKind && e.expectedId ? { kind: e.expectedKind, id: e.expectedId, reference: e.expectedReference, amount: e.expectedAmount } : null,
    detail: e.detail,
    status: e.status,
    note: e.note,
    resolvedBy: e.resolvedBy,
    resolvedAt: iso(e.resolvedAt),
  };
}

export function matchView(m: repo.MatchRow) {
  return { lineId: m.lineId, line: m.line as LineSnapshot, kind: m.expectedKind, expectedId: m.expectedId, reference: m.reference, matchedBy: m.matchedBy };
}

export type RunView = ReturnType<typeof runSummaryView> & { breaks: ReturnType<typeof breakView>[]; exceptions: ReturnType<typeof exceptionView>[]; matched: ReturnType<typeof matchView>[] };

/** A run with its breaks, exceptions and matches. */
export async function runView(db: Executor, runId: string): Promise<RunView> {
  const run = await repo.findRun(db, runId);
  if (!run) throw notFound('Reconciliation run');
  const [breaks, exceptions, matched] = await Promise.all([repo.breaksOf(db, runId), repo.exceptionsOf(db, runId), repo.matchesOf(db, runId)]);
  return { ...runSummaryView(run), breaks: breaks.map(breakView), exceptions: exceptions.map(exceptionView), matched: matched.map(matchView) };
}

/** Runs newest first, a page at a time. */
export async function listRunViews(db: Executor, options: { kind?: 'chain' | 'bank'; before?: string; limit: number }) {
  const rows = await repo.listRuns(db, options);
  return { data: rows.slice(0, options.limit).map(runSummaryView), hasMore: rows.length > options.limit };
}

/** The operators' events, newest first. */
export async function listOperatorEventViews(db: Executor, options: { type?: string; before?: string; limit: number }) {
  const rows = await repo.listOperatorEvents(db, options);
  return { data: rows.slice(0, options.limit).map((e) => ({ id: e.id, type: e.type as OperatorEventType, data: e.data as Record<string, unknown>, createdAt: e.createdAt.toISOString() })), hasMore: rows.length > options.limit };
}
