import type { Database } from '../../db/database.js';
import * as repo from '../../db/repositories/reconciliation.js';
import type { ExpectedKind } from '../../db/schema/index.js';
import { ApiError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { customerAccount, serviceAccount } from '../ledger/ledger-accounts.js';
import { postLedger } from '../ledger/post.js';
import { lockLedgerTransaction } from '../../db/repositories/ledger-writes.js';

// Working a run's breaks and exceptions (docs/reconciliation.md#working-a-break), by an operator, each once.

const closed = (what: string, status: string) => new ApiError('reconciliation_item_closed', `The ${what} is ${status} already`);

/**
 * Records what a break was. With `adjust`, the difference is posted to the ledger (the holder's account against
 * `adjustments`, final at the run's block), so the next run finds none: money that reached the treasury from outside
 * the service, say. Without it, the note alone (a difference the operator explained otherwise).
 */
export async function resolveBreak(database: Database, input: { runId: string; breakId: string; note: string; adjust: boolean }, operatorId: string, at: Date): Promise<repo.BreakRow> {
  return database.db.transaction(async (tx) => {
    const found = await repo.findBreak(tx, input.runId, input.breakId, { lock: true });
    if (!found) throw notFound('Break');
    if (found.status !== 'open') throw closed('break', found.status);
    let adjustment: string | null = null;
    if (input.adjust) {
      const difference = BigInt(found.difference);
      const asset = { code: found.asset, chainId: found.chainId, address: found.asset.split('/erc20:')[1] ?? null, symbol: found.symbol, decimals: found.decimals };
      const holder = found.accountId && found.integratorId ? customerAccount(found.integratorId, found.accountId, asset) : serviceAccount('treasury', asset);
      const causeKey = `adjustment:break:${found.id}`;
      await postLedger(
        tx,
        [
          {
            causeKey,
            causeType: 'adjustment',
            causeId: found.id,
            integratorId: null,
            description: `break of ${found.ledgerAccountCode} at block ${found.blockNumber}: ${input.note}`.slice(0, 500),
            status: 'posted',
            chainId: found.chainId,
            blockNumber: found.blockNumber,
            minedIn: found.blockNumber,
            legs: [
              { account: holder, amount: difference },
              { account: serviceAccount('adjustments', asset), amount: -difference },
            ],
          },
        ],
        at,
      );
      adjustment = (await lockLedgerTransaction(tx, causeKey))?.id ?? null;
    }
    return repo.updateBreak(tx, found.id, { status: 'resolved', note: input.note, resolvedBy: operatorId, resolvedAt: at, adjustmentLedgerTransactionId: adjustment });
  });
}

/** Matches an exception's line by hand to a movement (by its kind and reference): each movement is matched once. */
export async function matchException(database: Database, input: { runId: string; exceptionId: string; kind: ExpectedKind; reference: string; note?: string }, operatorId: string, at: Date): Promise<repo.ExceptionRow> {
  return database.db.transaction(async (tx) => {
    const found = await repo.findException(tx, input.runId, input.exceptionId, { lock: true });
    if (!found) throw notFound('Exception');
    if (found.status !== 'open') throw closed('exception', found.status);
    if (!found.line) throw new ApiError('invalid_state_transition', 'A missing line has no statement line to match: resolve it with a note');
    const [movement] = await repo.expectedMovements(tx, { reference: input.reference }).then((rows) => rows.filter((r) => r.kind === input.kind));
    if (!movement) throw notFound('Movement');
    const line = found.line as { lineId: string };
    const taken = await repo.insertMatches(tx, [{ id: newId(), runId: found.runId, lineId: line.lineId, line: found.line, expectedKind: input.kind, expectedId: movement.id, reference: movement.reference, matchedBy: operatorId, createdAt: at }]);
    if (taken.size > 0) throw new ApiError('already_matched', `A statement line is matched to ${input.reference} already`);
    return repo.updateException(tx, found.id, { status: 'matched', expectedKind: input.kind, expectedId: movement.id, expectedReference: movement.reference, note: input.note ?? null, resolvedBy: operatorId, resolvedAt: at });
  });
}

/** Closes an exception with a note (a bank fee, a line explained elsewhere). */
export async function resolveException(database: Database, input: { runId: string; exceptionId: string; note: string }, operatorId: string, at: Date): Promise<repo.ExceptionRow> {
  return database.db.transaction(async (tx) => {
    const found = await repo.findException(tx, input.runId, input.exceptionId, { lock: true });
    if (!found) throw notFound('Exception');
    if (found.status !== 'open') throw closed('exception', found.status);
    return repo.updateException(tx, found.id, { status: 'resolved', note: input.note, resolvedBy: operatorId, resolvedAt: at });
  });
}
