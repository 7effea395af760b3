/**
 * The roles of an entity account's members and what each may do (docs/members.md#roles). Fixed, not configurable: a
 * finance team needs to know what "approver" means without reading a deployment's settings.
 */
export const ROLES = ['owner', 'admin', 'approver', 'initiator', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * The whole permission table, one row per role (docs/members.md#roles shows the same table; a test compares every
 * cell). `manages`: the roles a member may invite, take from a member, give to a member, or remove. Only owners
 * manage roles with approval power, so nobody but an owner can seat a new approver or owner.
 */
export const PERMISSIONS: Readonly<Record<Role, { manages: readonly Role[]; policy: boolean; propose: boolean; approve: boolean }>> = {
  owner: { manages: ROLES, policy: true, propose: true, approve: true },
  admin: { manages: ['initiator', 'viewer'], policy: false, propose: false, approve: false },
  approver: { manages: [], policy: false, propose: true, approve: true },
  initiator: { manages: [], policy: false, propose: true, approve: false },
  viewer: { manages: [], policy: false, propose: false, approve: false },
};

/** `self`: the member the action changes is the actor (the actor's own record). */
export type MemberAction =
  | { kind: 'read' }
  | { kind: 'invite'; role: Role }
  | { kind: 'change_role'; from: Role; to: Role; self: boolean }
  | { kind: 'remove'; role: Role; self: boolean }
  | { kind: 'update_policy' }
  | { kind: 'delete_spending_policy' }
  | { kind: 'propose_transaction' }
  | { kind: 'approve_transaction' };

/**
 * Whether a member with `actor`'s role may take `action`, read off PERMISSIONS. Nobody changes their own role (an
 * admin made themselves approver and moved funds alone); leaving (removing oneself) follows the removal rule, which
 * only an owner's role allows. The last-owner and quorum rules are the caller's (they need the counts).
 */
export function mayAct(actor: Role, action: MemberAction): boolean {
  const row = PERMISSIONS[actor];
  switch (action.kind) {
    case 'read':
      return true;
    case 'invite':
      return row.manages.includes(action.role);
    case 'change_role':
      return !action.self && row.manages.includes(action.from) && row.manages.includes(action.to);
    case 'remove':
      return row.manages.includes(action.role);
    case 'update_policy':
    // Lifting a spending policy loosens the entity's limits as lowering the quorum does (docs/policies.md).
    case 'delete_spending_policy':
      return row.policy;
    case 'propose_transaction':
      return row.propose;
    case 'approve_transaction':
      return row.approve;
  }
}

/** Roles whose approval counts towards a transaction's quorum (while the member's user is verified). */
export function countsAsApprover(role: Role): boolean {
  return PERMISSIONS[role].approve;
}
