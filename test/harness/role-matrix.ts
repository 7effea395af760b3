import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ROLES, type MemberAction, type Role } from '../../src/domain/members/roles.js';
import { ROOT_URL } from './root.js';

// The role matrix as docs/members.md#roles writes it, read from the page itself, for the tests that walk its cells
// (test/domain/members/roles.test.ts against the code, test/http/role-matrix.test.ts over HTTP): the expectations
// are the page's, not the code's, so the page and the code cannot drift apart.

type Cell = Record<Role, boolean>;

/** The rows of the matrix table: the action's label (backticks dropped) -> the answer per acting role. */
export function documentedMatrix(): Map<string, Cell> {
  const page = readFileSync(new URL('docs/members.md', ROOT_URL), 'utf8');
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

export const MATRIX = documentedMatrix();
const article = (role: Role) => (/^[aeiou]/.test(role) ? 'an' : 'a');

function row(label: string): Cell {
  const found = MATRIX.get(label);
  assert.ok(found, `docs/members.md's matrix has no row "${label}"`);
  return found;
}

/** What the page says of one action by one role. */
export function documented(actor: Role, action: MemberAction): boolean {
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
    case 'delete_spending_policy':
      return row('delete a spending policy of the account')[actor];
    case 'propose_transaction':
      return row('propose a transaction')[actor];
    case 'approve_transaction':
      return row('approve or reject a transaction')[actor];
  }
}

/** Every action there is: each target role, each pair of roles, the actor's own record (whose role is the actor's). */
export function everyAction(actor: Role): MemberAction[] {
  return [
    { kind: 'read' },
    ...ROLES.map((role) => ({ kind: 'invite' as const, role })),
    ...ROLES.flatMap((from) => ROLES.map((to) => ({ kind: 'change_role' as const, from, to, self: false }))),
    ...ROLES.map((to) => ({ kind: 'change_role' as const, from: actor, to, self: true })),
    ...ROLES.map((role) => ({ kind: 'remove' as const, role, self: false })),
    { kind: 'remove', role: actor, self: true },
    { kind: 'update_policy' },
    { kind: 'delete_spending_policy' },
    { kind: 'propose_transaction' },
    { kind: 'approve_transaction' },
  ];
}
