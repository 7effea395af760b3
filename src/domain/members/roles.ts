/**
 * The roles of an entity account's members and what each may do (docs/members.md). Fixed, not configurable: a
 * finance team needs to know what "approver" means without reading a deployment's settings.
 */
export const ROLES = ['owner', 'admin', 'approver', 'initiator', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export type MemberAction =
  | { kind: 'read' }
  | { kind: 'invite'; role: Role }
  | { kind: 'change_role'; from: Role; to: Role }
  | { kind: 'remove'; role: Role }
  | { kind: 'update_policy' }
  | { kind: 'propose_transaction' }
  | { kind: 'approve_transaction' };

/**
 * Whether a member with `actor`'s role may take `action`. Owners may do everything; admins manage members and
 * invitations but never touch an owner (neither invite, promote to, demote nor remove one); approvers approve and
 * reject transactions (and may propose them); initiators propose them; viewers read. The last-owner rule is the
 * caller's (it needs the count of owners).
 */
export function mayAct(actor: Role, action: MemberAction): boolean {
  if (actor === 'owner') return true;
  switch (action.kind) {
    case 'read':
      return true;
    case 'invite':
      return actor === 'admin' && action.role !== 'owner';
    case 'change_role':
      return actor === 'admin' && action.from !== 'owner' && action.to !== 'owner';
    case 'remove':
      return actor === 'admin' && action.role !== 'owner';
    case 'update_policy':
      return false;
    case 'propose_transaction':
      return actor === 'approver' || actor === 'initiator';
    case 'approve_transaction':
      return actor === 'approver';
  }
}

/** Roles whose approval counts towards a transaction's quorum. */
export function countsAsApprover(role: Role): boolean {
  return role === 'owner' || role === 'approver';
}
