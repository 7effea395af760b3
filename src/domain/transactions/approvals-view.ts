import type { Executor } from '../../db/database.js';
import { findAccountById } from '../../db/repositories/accounts.js';
import { countingApprovals } from '../../db/repositories/members.js';
import type { TransactionRow } from '../../db/repositories/transactions.js';

/** Extension: the quorum of a transaction from an entity wallet (docs/members.md#quorum). */
export interface ApprovalsView {
  /** The account's requiredApprovals now, or a spending policy's step-up when larger (docs/policies.md#step-up). */
  required: number;
  /** Distinct members whose approval counts now (owners and approvers), oldest first. */
  received: { userId: string; at: string }[];
}

/** The approvals a transaction needs: its account's requiredApprovals, or a spending policy's step-up when larger. */
export const quorumOf = (account: { requiredApprovals: number | null } | undefined, row: Pick<TransactionRow, 'requiredApprovals'> | undefined): number =>
  Math.max(account?.requiredApprovals ?? 1, row?.requiredApprovals ?? 0);

/** Whether the transaction went through an entity's members (it has a proposer) and so shows its approvals. */
export const hasQuorum = (row: TransactionRow): boolean => row.proposedByUserId !== null;

/** The approvals of each of `rows` that has a quorum (all rows of one account, or any), by row id. */
export async function approvalsOf(db: Executor, rows: TransactionRow[]): Promise<Map<string, ApprovalsView>> {
  const result = new Map<string, ApprovalsView>();
  const byAccount = new Map<string, TransactionRow[]>();
  for (const row of rows.filter(hasQuorum)) byAccount.set(row.accountId, [...(byAccount.get(row.accountId) ?? []), row]);
  for (const [accountId, accountRows] of byAccount) {
    const account = await findAccountById(db, accountId);
    const received = await countingApprovals(db, accountId, accountRows.map((r) => r.id));
    for (const row of accountRows) {
      result.set(row.id, {
        required: quorumOf(account, row),
        received: received.filter((a) => a.transactionRowId === row.id).map((a) => ({ userId: a.userId, at: a.createdAt.toISOString() })),
      });
    }
  }
  return result;
}
