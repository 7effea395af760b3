import type { Database, Executor, Tx } from '../../db/database.js';
import { findAccount } from '../../db/repositories/accounts.js';
import * as repo from '../../db/repositories/bank-accounts.js';
import { findEntity } from '../../db/repositories/entities.js';
import { findIntegratorName } from '../../db/repositories/integrators.js';
import { findUser } from '../../db/repositories/users.js';
import { runMutation, type MutationContext } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { advanceBankAccount, recordBankAccountChange, type BankAccountCause } from './bank-accounts.js';
import { toBankAccountView, toHistoryEntry, type BankAccountHistoryEntry, type BankAccountView } from './bank-account-view.js';
import { expectedHolderNames } from './holder-name.js';

export type BankAccountOutcome = 'approve' | 'reject';

/** pending_review -> verified or rejected, audited with who decided and why; 409 from any other status. */
async function decide(tx: Tx, row: repo.BankAccountRow, outcome: BankAccountOutcome, cause: BankAccountCause, at: Date): Promise<BankAccountView> {
  if (row.status !== 'pending_review') {
    throw new ApiError('bank_account_not_pending', `The bank account is ${row.status}: only one in pending_review can be approved or rejected`, { extensions: { fromStatus: row.status } });
  }
  const moved = await advanceBankAccount(tx, row, outcome === 'approve' ? { status: 'verified', updatedAt: at } : { status: 'rejected', rejectionReason: cause.reason, updatedAt: at });
  return recordBankAccountChange(tx, moved, row.status, cause, at);
}

/** Sandbox: simulate-bank-account-review on the integrator's own bank account. */
export function simulateBankAccountReview(ctx: MutationContext, input: { bankAccountId: string; outcome: BankAccountOutcome }): Promise<BankAccountView> {
  return runMutation(ctx, async (tx) => {
    const row = await repo.findBankAccount(tx, ctx.actor.integratorId, input.bankAccountId, { lock: true });
    if (!row) throw notFound('Bank account');
    const reason = input.outcome === 'reject' ? 'rejected in the sandbox' : null;
    return decide(tx, row, input.outcome, { actorType: 'sandbox', actorId: ctx.actor.credentialId ?? null, reason }, ctx.now);
  });
}

/** An operator's decision; a rejection carries its reason (shown to the integrator as rejectionReason). */
export function decideBankAccountAsOperator(db: Database, input: { bankAccountId: string; outcome: BankAccountOutcome; reason?: string }, operatorId: string, at: Date): Promise<BankAccountView> {
  return db.db.transaction(async (tx) => {
    const row = await repo.findAnyBankAccount(tx, input.bankAccountId, { lock: true });
    if (!row) throw notFound('Bank account');
    return decide(tx, row, input.outcome, { actorType: 'operator', actorId: operatorId, reason: input.reason ?? null }, at);
  });
}

export interface BankAccountCase extends BankAccountView {
  integratorId: string;
  integratorName: string;
  /** The names the holder name was compared with (the KYC name, or the company's legal and trade names). */
  expectedHolderNames: string[];
  history: BankAccountHistoryEntry[];
}

async function toCase(db: Executor, row: repo.BankAccountRow): Promise<BankAccountCase> {
  const account = await findAccount(db, row.integratorId, row.accountId);
  const user = account?.userId ? await findUser(db, row.integratorId, account.userId) : undefined;
  const entity = account?.entityId ? await findEntity(db, row.integratorId, account.entityId) : undefined;
  const history = (await repo.listBankAccountTransitions(db, row.id)).map(toHistoryEntry);
  return {
    ...toBankAccountView(row),
    integratorId: row.integratorId,
    integratorName: (await findIntegratorName(db, row.integratorId)) ?? '',
    expectedHolderNames: expectedHolderNames({ userInfo: user?.userInfo ?? null, entityInfo: entity?.entityInfo ?? null }),
    history,
  };
}

/** Operators: one bank account with what the review needs. */
export async function getBankAccountCase(db: Executor, bankAccountId: string): Promise<BankAccountCase> {
  const row = await repo.findAnyBankAccount(db, bankAccountId);
  if (!row) throw notFound('Bank account');
  return toCase(db, row);
}

/** Operators: the bank accounts waiting for review, every integrator's, oldest change first. */
export async function listBankAccountReviews(db: Executor, limit: number): Promise<{ data: BankAccountCase[]; hasMore: boolean }> {
  const rows = await repo.listPendingBankAccounts(db, limit + 1);
  const data: BankAccountCase[] = [];
  for (const row of rows.slice(0, limit)) data.push(await toCase(db, row));
  return { data, hasMore: rows.length > limit };
}
