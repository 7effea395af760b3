import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { countsAsApprover, mayAct, ROLES } from '../../../src/domain/members/roles.js';
import { documented, everyAction, MATRIX } from '../../harness/role-matrix.js';

// Every cell of docs/members.md's role matrix against the code (roles.ts), and the matrix's invariants by property.

const role = fc.constantFrom(...ROLES);
const anyAction = role.chain((actor) => fc.tuple(fc.constant(actor), fc.constantFrom(...everyAction(actor))));

describe('member roles', () => {
  it('the page has the whole matrix: 27 rows, every acting role in each', () => {
    assert.equal(MATRIX.size, 27);
  });

  it('every cell of the documented matrix is what the code does', () => {
    let cells = 0;
    for (const actor of ROLES) {
      for (const action of everyAction(actor)) {
        assert.equal(mayAct(actor, action), documented(actor, action), `${actor}: ${JSON.stringify(action)}`);
        cells++;
      }
    }
    assert.equal(cells, ROLES.length * 46);
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
