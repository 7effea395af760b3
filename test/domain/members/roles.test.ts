import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { countsAsApprover, mayAct, ROLES, type MemberAction, type Role } from '../../../src/domain/members/roles.js';

const role = fc.constantFrom(...ROLES);
const action: fc.Arbitrary<MemberAction> = fc.oneof(
  fc.constant({ kind: 'read' as const }),
  role.map((r) => ({ kind: 'invite' as const, role: r })),
  fc.tuple(role, role).map(([from, to]) => ({ kind: 'change_role' as const, from, to })),
  role.map((r) => ({ kind: 'remove' as const, role: r })),
  fc.constant({ kind: 'update_policy' as const }),
  fc.constant({ kind: 'propose_transaction' as const }),
  fc.constant({ kind: 'approve_transaction' as const }),
);

/** The documented matrix (docs/members.md), written out by hand: the code must agree with it row by row. */
const MATRIX: Record<string, Record<Role, boolean>> = {
  read: { owner: true, admin: true, approver: true, initiator: true, viewer: true },
  'invite viewer': { owner: true, admin: true, approver: false, initiator: false, viewer: false },
  'invite owner': { owner: true, admin: false, approver: false, initiator: false, viewer: false },
  'change_role approver->viewer': { owner: true, admin: true, approver: false, initiator: false, viewer: false },
  'change_role owner->admin': { owner: true, admin: false, approver: false, initiator: false, viewer: false },
  'change_role admin->owner': { owner: true, admin: false, approver: false, initiator: false, viewer: false },
  'remove initiator': { owner: true, admin: true, approver: false, initiator: false, viewer: false },
  'remove owner': { owner: true, admin: false, approver: false, initiator: false, viewer: false },
  update_policy: { owner: true, admin: false, approver: false, initiator: false, viewer: false },
  propose_transaction: { owner: true, admin: false, approver: true, initiator: true, viewer: false },
  approve_transaction: { owner: true, admin: false, approver: true, initiator: false, viewer: false },
};

function parse(row: string): MemberAction {
  const [kind, arg] = row.split(' ') as [string, string | undefined];
  if (kind === 'invite') return { kind, role: arg as Role };
  if (kind === 'remove') return { kind, role: arg as Role };
  if (kind === 'change_role') {
    const [from, to] = arg!.split('->') as [Role, Role];
    return { kind, from, to };
  }
  return { kind } as MemberAction;
}

describe('member roles', () => {
  it('match the documented matrix', () => {
    for (const [row, expected] of Object.entries(MATRIX)) {
      for (const r of ROLES) assert.equal(mayAct(r, parse(row)), expected[r], `${r}: ${row}`);
    }
  });

  it('owners may do everything; viewers only read; nobody but an owner touches an owner', () => {
    fc.assert(
      fc.property(role, action, (r, a) => {
        if (r === 'owner') assert.ok(mayAct(r, a));
        if (r === 'viewer') assert.equal(mayAct(r, a), a.kind === 'read');
        const touchesOwner = (a.kind === 'invite' && a.role === 'owner') || (a.kind === 'remove' && a.role === 'owner') || (a.kind === 'change_role' && (a.from === 'owner' || a.to === 'owner'));
        if (touchesOwner && r !== 'owner') assert.equal(mayAct(r, a), false);
      }),
    );
  });

  it('only owners and approvers count towards a quorum', () => {
    assert.deepEqual(ROLES.filter(countsAsApprover), ['owner', 'approver']);
  });
});
