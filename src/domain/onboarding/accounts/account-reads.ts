import type { Executor } from '../../../db/database.js';
import { findAccount, listAccounts as listAccountRows } from '../../../db/repositories/accounts.js';
import { findEntity } from '../../../db/repositories/entities.js';
import { findUser } from '../../../db/repositories/users.js';
import type { VerificationStatus } from '../../../db/schema/index.js';
import { notFound } from '../../errors.js';
import { toAccountView, type AccountView } from './account-view.js';

export async function getAccountDetails(db: Executor, integratorId: string, accountId: string): Promise<AccountView> {
  const account = await findAccount(db, integratorId, accountId);
  if (!account) throw notFound('Account');
  const owner = account.userId ? await findUser(db, integratorId, account.userId) : await findEntity(db, integratorId, account.entityId!);
  return toAccountView(account, owner!.verificationStatus);
}

export interface AccountPage {
  data: AccountView[];
  hasMore: boolean;
}

/** Stripe-style cursor pagination: `startingAfter` is the last accountId of the previous page. */
export async function listAccounts(
  db: Executor,
  integratorId: string,
  options: { limit: number; startingAfter?: string; type?: 'individual' | 'entity'; verificationStatus?: VerificationStatus },
): Promise<AccountPage> {
  if (options.startingAfter && !(await findAccount(db, integratorId, options.startingAfter))) throw notFound('Account startingAfter');
  const rows = await listAccountRows(db, integratorId, options);
  return { data: rows.slice(0, options.limit).map((r) => toAccountView(r, r.verificationStatus)), hasMore: rows.length > options.limit };
}
