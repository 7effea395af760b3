import type { Executor } from '../../../db/database.js';
import { findAccountByUser } from '../../../db/repositories/accounts.js';
import { listDocuments } from '../../../db/repositories/documents.js';
import { countAuthenticators, findUser } from '../../../db/repositories/users.js';
import { notFound } from '../../errors.js';
import { toUserAccountView, type UserAccountView } from './user-view.js';

export async function getUserDetails(db: Executor, integratorId: string, userId: string): Promise<UserAccountView> {
  const user = await findUser(db, integratorId, userId);
  if (!user) throw notFound('User');
  const account = (await findAccountByUser(db, user.id))!;
  return toUserAccountView(user, account, await listDocuments(db, 'user', user.id), await countAuthenticators(db, user.id));
}
