import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { countsAsApprover, mayAct, ROLES, type MemberAction, type Role } from '../../../src/domain/members/roles.js';

// The role matrix as docs/members.md#roles writes it, read from the page itself: every cell of that table is checked
// against the code, so the page and roles.ts cannot drift apart. The expectations are the page's, not the code's.

type Cell = Record<Role, boolean>;

/** The rows of the matrix table: the action's label (backticks dropped) -> the answer per acting role. */
function documentedMatrix(): Map<string, Cell> {
  const page = readFileSync(new URL('../../../docs/members.md', import.meta.url), 'utf8');
  const section = page.slice(page.indexOf('## Roles'), page.indexOf('## Verified members'));
  const rows = new Map<string, Cell>();
  const lines = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Action') && !l.startsWith('|---'));
  for (const line of lines) {
    const [label, ...cells] = line.split('|').slice(1, -1).map((c) => c.trim());
    assert.equal(cells.length, ROLES.length, line);
    rows.set(label!.replaceAll('`', ''), Object.fromEntries(ROLES.map((r, i) => [r, /^yes/.test(cells[i]!)])) as Cell);
  }
  return rows;
}

const MATRIX = documentedMatrix();
const article = (role: Role) => (/^[aeiou]/.test(role) ? 'an' : 'a');

function row(label: string): Cell {
  const found = MATRIX.get(label);
  assert.ok(found, `docs/members.md's matrix has no row "${label}"`);
  return found;
}

/** What the page says of one action by one role. */
function documented(actor: Role, action: MemberAction): boolean {
  switch (action.kind) {
    case 'read':
      return row('read members, invitations, the policy')[actor];
    case 'invite':
      return row(`invite ${article(action.role)} ${action.role}`)[actor];
    case 'change_role':
      if (action.self) return row('change their own role')[actor];
      return row(`change a role from ${action.from}`)[actor] && row(`change a role to ${action.to}`)[actor];
    case 'remove':
      return action.self ? row('remove themselves (leave)')[actor] : row(`remove ${article(action.role)} ${action.role}`)[actor];
    case 'update_policy':
      return row('change the approval policy')[actor];
    case 'propose_transaction':
      return row('propose a transaction')[actor];
    case 'approve_transaction':
      return row('approve or reject a transaction')[actor];
  }
}

/** Every action there is: each target role, each pair of roles, the actor's own record (whose role is the actor's). */
function everyAction(actor: Role): MemberAction[] {
  return [
    { kind: 'read' },
    ...ROLES.map((role) => ({ kind: 'invite' as const, role })),
    ...ROLES.flatMap((from) => ROLES.map((to) => ({ kind: 'change_role' as const, from, to, self: false }))),
    ...ROLES.map((to) => ({ kind: 'change_role' as const, from: actor, to, self: true })),
    ...ROLES.map((role) => ({ kind: 'remove' as const, role, self: false })),
    { kind: 'remove', role: actor, self: true },
    { kind: 'update_policy' },
    { kind: 'propose_transaction' },
    { kind: 'approve_transaction' },
  ];
}

const role = fc.constantFrom(...ROLES);
const anyAction = role.chain((actor) => fc.tuple(fc.constant(actor), fc.constantFrom(...everyAction(actor))));

describe('member roles', () => {
  it('the page has the whole matrix: 26 rows, every acting role in each', () => {
    assert.equal(MATRIX.size, 26);
  });

  it('every cell of the documented matrix is what the code does', () => {
    let cells = 0;
    for (const actor of ROLES) {
      for (const action of everyAction(actor)) {
        assert.equal(mayAct(actor, action), documented(actor, action), `${actor}: ${JSON.stringify(action)}`);
        cells++;
      }
    }
    assert.equal(cells, ROLES.length * 45);
  });

  it('nobody but an owner grants approval power, nobody changes their own role, an admin touches initiators and viewers only', () => {
    fc.assert(
      fc.property(anyAction, ([actor, action]) => {
        const allowed = mayAct(actor, action);
        const grants = (action.kind === 'invite' && countsAsApprover(action.role)) || (action.kind === 'change_role' && countsAsApprover(action.to));
        if (grants && allowed) assert.equal(actor, 'owner');
        if (action.kind === 'change_role' && action.self) assert.equal(allowed, false);
        if (actor === 'admin' && allowed && action.kind !== 'read') {
          const touched = action.kind === 'change_role' ? [action.from, action.to] : action.kind === 'invite' || action.kind === 'remove' ? [action.role] : [];
          assert.ok(touched.length > 0 && touched.every((r) => r === 'initiator' || r === 'viewer'), JSON.stringify(action));
        }
        if (actor === 'viewer') assert.equal(allowed, action.kind === 'read');
        assert.equal(allowed, documented(actor, action));
      }),
      { numRuns: 500 },
    );
  });

  it('only owners and approvers count towards a quorum', () => {
    assert.deepEqual(ROLES.filter(countsAsApprover), ['owner', 'approver']);
  });
});
