import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { transactions } from '../schema/index.js';
import type { TransactionRow } from './transactions.js';

/**
 * An entity's transactions waiting for its members' quorum (docs/members.md#quorum): proposed by a member and still
 * in `created`, oldest first. A proposal past its 24 hours stays here until the watcher fails it, so the operator
 * sees what the database holds. At most `limit`: the console shows a team's queue, not its history.
 */
export function listPendingProposals(db: Executor, accountId: string, limit: number): Promise<TransactionRow[]> {
  return db
    .select()
    .from(transactions)
    .where(
      and(
        eq(transactions.accountId, accountId),
        eq(transactions.status, 'created'),
        isNotNull(transactions.proposedByUserId),
        // Only these two are ever proposed; a deposit or refund never waits for members.
        inArray(transactions.kind, ['transfer', 'withdrawal', 'vault_deposit', 'vault_withdrawal']),
      ),
    )
    .orderBy(asc(transactions.createdAt), asc(transactions.id))
    .limit(limit);
}
