import { findAccount } from '../../db/repositories/accounts.js';
import { findTransaction, listAccountTransactions } from '../../db/repositories/transactions.js';
import type { Executor } from '../../db/database.js';
import { notFound } from '../errors.js';
import { approvalsOf } from './approvals-view.js';
import { toTransactionView, type TransactionView } from './transaction-view.js';

export async function getTransaction(db: Executor, integratorId: string, transactionId: string): Promise<TransactionView> {
  const row = await findTransaction(db, integratorId, transactionId);
  if (!row) throw notFound('Transaction');
  return toTransactionView(row, (await approvalsOf(db, [row])).get(row.id));
}

export interface TransactionPage {
  data: TransactionView[];
  hasMore: boolean;
}

/** An account's transactions, newest first; `startingAfter` is the last transactionId of the previous page. */
export async function listTransactions(db: Executor, integratorId: string, options: { accountId: string; limit: number; startingAfter?: string }): Promise<TransactionPage> {
  if (!(await findAccount(db, integratorId, options.accountId))) throw notFound('Account');
  let before: string | undefined;
  if (options.startingAfter) {
    const cursor = await findTransaction(db, integratorId, options.startingAfter);
    if (!cursor || cursor.accountId !== options.accountId) throw notFound('Transaction startingAfter');
    before = cursor.id;
  }
  const rows = await listAccountTransactions(db, integratorId, options.accountId, { limit: options.limit, ...(before ? { before } : {}) });
  const page = rows.slice(0, options.limit);
  const approvals = await approvalsOf(db, page);
  return { data: page.map((row) => toTransactionView(row, approvals.get(row.id))), hasMore: rows.length > options.limit };
}
