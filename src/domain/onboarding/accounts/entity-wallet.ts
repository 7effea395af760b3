import type { Executor } from '../../../db/database.js';
import { attachCustodialWallet, findAccount, insertWallet, type AccountRow } from '../../../db/repositories/accounts.js';
import { findEntity } from '../../../db/repositories/entities.js';
import { runMutation, type MutationContext } from '../../context.js';
import { ApiError, notFound } from '../../errors.js';
import { recordEvent } from '../../events/record-event.js';
import { newId } from '../../ids.js';
import { createCustodialWallet } from '../users/custodial-wallet.js';
import { toAccountView, type AccountView } from './account-view.js';

/**
 * The custodial wallet of an entity account, in the caller's transaction: a key like an individual's, a
 * custody organization, one approval by default (docs/members.md). Undefined when the account has a wallet by now.
 */
export async function giveEntityWallet(tx: Executor, account: AccountRow, at: Date, ctx: Pick<MutationContext, 'custody' | 'secrets'>): Promise<AccountRow | undefined> {
  const walletId = newId();
  const wallet = await createCustodialWallet(ctx, walletId);
  const updated = await attachCustodialWallet(tx, account.id, { walletAddress: wallet.address, organizationId: newId(), updatedAt: at });
  if (!updated) return undefined;
  await insertWallet(tx, { id: walletId, integratorId: account.integratorId, accountId: account.id, ...wallet, createdAt: at });
  return updated;
}

/**
 * create-entity-wallet: entity accounts made before entities had wallets get theirs; idempotent (an account that
 * has one answers it as it is, and nothing is written).
 */
export async function createEntityWallet(ctx: MutationContext, accountId: string): Promise<{ created: boolean; account: AccountView }> {
  return runMutation(ctx, async (tx) => {
    const account = await findAccount(tx, ctx.actor.integratorId, accountId, { lock: true });
    if (!account) throw notFound('Account');
    if (account.type !== 'entity') throw new ApiError('entity_account_required', 'Only entity accounts get a wallet this way (individual accounts get theirs when they are created)');
    const entity = await findEntity(tx, ctx.actor.integratorId, account.entityId!);
    const status = entity!.verificationStatus;
    if (account.walletAddress) return { created: false, account: toAccountView(account, status) };
    const updated = await giveEntityWallet(tx, account, ctx.now, ctx);
    const view = toAccountView(updated!, status);
    await recordEvent(tx, { integratorId: account.integratorId, type: 'account.wallet_created', objectType: 'account', objectId: account.id, object: view, at: ctx.now });
    return { created: true, account: view };
  });
}
