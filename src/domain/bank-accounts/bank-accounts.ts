import { sealContexts } from '../../crypto/seal-contexts.js';
import type { Executor, Tx } from '../../db/database.js';
import { findAccount } from '../../db/repositories/accounts.js';
import * as repo from '../../db/repositories/bank-accounts.js';
import type { BankAccountStatus } from '../../db/schema/index.js';
import { runMutation, type MutationContext } from '../context.js';
import { ApiError, invalidFields, notFound } from '../errors.js';
import { recordEvent } from '../events/record-event.js';
import { newId } from '../ids.js';
import { checkBankDetails, type BankAccountInput } from './bank-details.js';
import { toBankAccountView, type BankAccountView } from './bank-account-view.js';
import { expectedHolderNames, holderNameMatches } from './holder-name.js';

/** Live (not removed) bank accounts one account may hold. */
export const MAX_BANK_ACCOUNTS = 10;

/** Who moved a bank account, for its audit trail. */
export interface BankAccountCause {
  actorType: 'integrator' | 'operator' | 'system' | 'sandbox';
  actorId: string | null;
  reason: string | null;
}

/** The integrator's credential behind a change (its id, as verification's credentialCause records). */
function credentialActor(ctx: MutationContext, reason: string | null = null): BankAccountCause {
  return { actorType: 'integrator', actorId: ctx.actor.credentialId ?? null, reason };
}

/**
 * Records a bank account's creation (`from` null) or status change in the caller's transaction: the audit row
 * and its event (`bank_account.created`, `.status_changed` with the old status, or `.removed`).
 */
export async function recordBankAccountChange(tx: Executor, row: repo.BankAccountRow, from: BankAccountStatus | null, cause: BankAccountCause, at: Date): Promise<BankAccountView> {
  await repo.insertBankAccountTransition(tx, { id: newId(), integratorId: row.integratorId, bankAccountId: row.id, fromStatus: from, toStatus: row.status, ...cause, createdAt: at });
  const object = toBankAccountView(row);
  const base = { integratorId: row.integratorId, objectType: 'bank_account', objectId: row.id, object, at };
  if (from === null) await recordEvent(tx, { ...base, type: 'bank_account.created' });
  else if (row.status === 'removed') await recordEvent(tx, { ...base, type: 'bank_account.removed' });
  else await recordEvent(tx, { ...base, type: 'bank_account.status_changed', previousAttributes: { status: from } });
  return object;
}

/**
 * create-bank-account (docs/bank-accounts.md): checks the details, then, under a lock on the account (so the
 * limit and the duplicate check hold against concurrent requests), stores the number sealed. A holder name that
 * matches the KYC or company name is `verified`; any other waits for an operator in `pending_review`.
 */
export async function createBankAccount(ctx: MutationContext, input: BankAccountInput): Promise<BankAccountView> {
  const checked = checkBankDetails(input);
  if ('errors' in checked) throw invalidFields(checked.errors);
  const { details } = checked;
  const integratorId = ctx.actor.integratorId;

  return runMutation(ctx, async (tx) => {
    const owner = await repo.lockAccountForBankAccount(tx, integratorId, input.accountId);
    if (!owner) throw notFound('Account');
    if (owner.verificationStatus !== 'active') {
      throw new ApiError('account_not_active', `Bank accounts can be added only to an active account (its verificationStatus is ${owner.verificationStatus ?? 'unknown'})`);
    }
    // Keyed: equal numbers are found without decrypting, and the hash alone reveals nothing.
    const fingerprint = ctx.secrets.fingerprint(`${details.rail}:${details.rail === 'ach' ? details.routingNumber : ''}:${details.number}`, 'bank_account');
    if (await repo.hasLiveNumber(tx, owner.account.id, fingerprint)) throw new ApiError('bank_account_exists', 'This account already has a bank account with this number');
    if ((await repo.countLiveBankAccounts(tx, owner.account.id)) >= MAX_BANK_ACCOUNTS) {
      throw new ApiError('bank_account_limit_reached', `An account may hold at most ${MAX_BANK_ACCOUNTS} bank accounts; remove one first`);
    }
    const matched = holderNameMatches(input.accountHolderName, expectedHolderNames(owner));
    const id = newId();
    const row = await repo.insertBankAccount(tx, {
      id,
      integratorId,
      accountId: owner.account.id,
      currency: input.currency,
      rail: details.rail,
      accountHolderName: input.accountHolderName.trim(),
      bankName: input.bankName?.trim() || null,
      routingNumber: details.rail === 'ach' ? details.routingNumber : null,
      accountType: details.rail === 'ach' ? details.accountType : null,
      ibanCountry: details.rail === 'sepa' ? details.ibanCountry : null,
      bic: details.rail === 'sepa' ? details.bic : null,
      numberSealed: ctx.secrets.seal(details.number, sealContexts.bankAccountNumber(id)),
      numberFingerprint: fingerprint,
      last4: details.last4,
      address: input.address ?? null,
      status: matched ? 'verified' : 'pending_review',
      nameMatched: matched ? 'match' : 'mismatch',
      createdAt: ctx.now,
      updatedAt: ctx.now,
    });
    return recordBankAccountChange(tx, row, null, credentialActor(ctx, matched ? 'holder name matches' : 'holder name differs: review needed'), ctx.now);
  });
}

export async function getBankAccount(db: Executor, integratorId: string, bankAccountId: string): Promise<BankAccountView> {
  const row = await repo.findBankAccount(db, integratorId, bankAccountId);
  if (!row) throw notFound('Bank account');
  return toBankAccountView(row);
}

/** An account's live bank accounts, oldest first (Stripe-style cursor: the last bankAccountId of the page). */
export async function listBankAccounts(db: Executor, integratorId: string, options: { accountId: string; limit: number; startingAfter?: string }): Promise<{ data: BankAccountView[]; hasMore: boolean }> {
  if (!(await findAccount(db, integratorId, options.accountId))) throw notFound('Account');
  if (options.startingAfter) {
    const cursor = await repo.findBankAccount(db, integratorId, options.startingAfter);
    if (!cursor || cursor.accountId !== options.accountId) throw notFound('Bank account startingAfter');
  }
  const rows = await repo.listLiveBankAccounts(db, integratorId, options.accountId, options);
  return { data: rows.slice(0, options.limit).map(toBankAccountView), hasMore: rows.length > options.limit };
}

/** remove-bank-account: a soft delete; withdrawals already made keep pointing at the record. */
export async function removeBankAccount(ctx: MutationContext, bankAccountId: string): Promise<BankAccountView> {
  return runMutation(ctx, async (tx) => {
    const row = await repo.findBankAccount(tx, ctx.actor.integratorId, bankAccountId, { lock: true });
    if (!row) throw notFound('Bank account');
    if (row.status === 'removed') throw new ApiError('bank_account_removed', 'This bank account was already removed');
    const moved = await advanceBankAccount(tx, row, { status: 'removed', removedAt: ctx.now, updatedAt: ctx.now });
    return recordBankAccountChange(tx, moved, row.status, credentialActor(ctx), ctx.now);
  });
}

/** A guarded move (the row is locked by the caller, so it cannot have changed). */
export async function advanceBankAccount(tx: Tx, row: repo.BankAccountRow, patch: Parameters<typeof repo.moveBankAccount>[3]): Promise<repo.BankAccountRow> {
  const moved = await repo.moveBankAccount(tx, row.id, row.status, patch);
  if (!moved) throw new ApiError('resource_busy', 'The bank account changed meanwhile; read it and try again');
  return moved;
}
