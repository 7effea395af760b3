import type { Executor } from '../../db/database.js';
import { findAccountByEntity } from '../../db/repositories/accounts.js';
import { listPendingProposals } from '../../db/repositories/entity-team.js';
import { listMembers } from '../../db/repositories/members.js';
import type { TransactionRow } from '../../db/repositories/transactions.js';
import { toMemberView } from '../members/member-view.js';
import type { Role } from '../members/roles.js';
import { approvalsOf, type ApprovalsView } from '../transactions/approvals-view.js';
import { PROPOSAL_LIFETIME_MS } from '../transactions/quorum.js';

/** A member as an operator reads it on the entity's case: who, with which role, since when. */
export interface CaseMember {
  userId: string;
  role: Role;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  since: string;
}

/** A member's proposal still waiting for the quorum (docs/members.md#quorum). */
export interface PendingApproval {
  transactionId: string;
  kind: 'transfer' | 'withdrawal';
  chainId: number;
  toAddress: string | null;
  /** Wei, decimal. */
  value: string;
  proposedByUserId: string;
  createdAt: string;
  /** When it fails without its quorum: 24 h after the proposal for a transfer, the quote's expiry for a withdrawal. */
  expiresAt: string;
  approvals: ApprovalsView;
}

export interface EntityTeam {
  requiredApprovals: number;
  members: CaseMember[];
  pendingApprovals: PendingApproval[];
}

/** More than any team keeps waiting; the case page is a review, not the transaction history. */
const PENDING_LIMIT = 100;

function expiresAt(row: TransactionRow): string {
  // Prepared transactions (withdrawals, vault calls) carry their own expiry; a transfer proposal lasts 24 hours.
  return (row.expiresAt ?? new Date(row.createdAt.getTime() + PROPOSAL_LIFETIME_MS)).toISOString();
}

/**
 * The team behind an entity's wallet, for the operators' case (read-only): its members, its approval policy and the
 * proposals waiting for approval. Undefined when the entity has no account (nothing to show, not an error: the
 * case itself is found by the entity).
 */
export async function entityTeamOf(db: Executor, integratorId: string, entityId: string): Promise<EntityTeam | undefined> {
  const account = await findAccountByEntity(db, entityId);
  if (!account || account.integratorId !== integratorId) return undefined;
  const members = (await listMembers(db, integratorId, account.id)).map(toMemberView);
  const rows = await listPendingProposals(db, account.id, PENDING_LIMIT);
  const approvals = await approvalsOf(db, rows);
  return {
    // The policy as get-approval-policy reports it for a custodial entity: 1 until an owner changes it.
    requiredApprovals: account.requiredApprovals ?? 1,
    members: members.map((m) => ({ userId: m.userId, role: m.role, firstName: m.firstName, lastName: m.lastName, email: m.email, since: m.createdAt })),
    pendingApprovals: rows.map((row) => ({
      transactionId: row.transactionId,
      kind: row.kind as PendingApproval['kind'],
      chainId: row.chainId,
      toAddress: row.toAddress,
      value: row.value,
      proposedByUserId: row.proposedByUserId!,
      createdAt: row.createdAt.toISOString(),
      expiresAt: expiresAt(row),
      approvals: approvals.get(row.id) ?? { required: account.requiredApprovals ?? 1, received: [] },
    })),
  };
}
