import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../../src/domain/errors.js';
import { authorize, CASE_ACTIONS, CASE_PERMISSIONS, OPERATOR_ROLES, type CaseAction, type OperatorRef, type OperatorRole } from '../../../src/domain/cases/permissions.js';

/*
 * Every cell of the operators' permission table (src/domain/cases/permissions.ts, docs/back-office.md#roles): each
 * action × role × relation to the case (the operator proposed its pending decision or not; holds it, another
 * operator holds it, nobody holds it). The expected outcome is written out below by hand, not read from
 * CASE_PERMISSIONS, so a change of the table fails here until this table (and the docs) say the same.
 */

type Proposer = 'proposer' | 'not_proposer';
type Holder = 'holds' | 'other_holds' | 'nobody_holds';
type Outcome = 'allowed' | 'supervisor_required' | 'four_eyes_same_operator' | 'case_not_held';

const PROPOSERS: readonly Proposer[] = ['proposer', 'not_proposer'];
const HOLDERS: readonly Holder[] = ['holds', 'other_holds', 'nobody_holds'];

/** What the rules say, per action and role: a constant outcome, or one that depends on the relation. */
type Expected = Outcome | ((proposer: Proposer, holder: Holder) => Outcome);

const anyone: Record<OperatorRole, Expected> = { reviewer: 'allowed', supervisor: 'allowed' };
/** Four eyes: only a supervisor, and never the one who proposed. */
const secondPairOfEyes: Record<OperatorRole, Expected> = {
  reviewer: 'supervisor_required',
  supervisor: (proposer) => (proposer === 'proposer' ? 'four_eyes_same_operator' : 'allowed'),
};

const EXPECTED: Record<CaseAction, Record<OperatorRole, Expected>> = {
  decide: anyone,
  propose: anyone,
  confirm: secondPairOfEyes,
  overturn: secondPairOfEyes,
  claim: anyone,
  // Whoever holds the case gives it back, or a supervisor takes anyone's back; nobody's case is released by anyone.
  release: { reviewer: (_p, holder) => (holder === 'other_holds' ? 'case_not_held' : 'allowed'), supervisor: 'allowed' },
  note: anyone,
  dispose: anyone,
  close: anyone,
};

const me = (role: OperatorRole): OperatorRef => ({ operatorId: '00000000-0000-4000-8000-00000000000a', name: `Me the ${role}`, role });
const OTHER = '00000000-0000-4000-8000-00000000000b';

function stateFor(operator: OperatorRef, proposer: Proposer, holder: Holder) {
  return {
    proposerId: proposer === 'proposer' ? operator.operatorId : OTHER,
    holderId: holder === 'holds' ? operator.operatorId : holder === 'other_holds' ? OTHER : null,
  };
}

function outcomeOf(action: CaseAction, operator: OperatorRef, state: Parameters<typeof authorize>[2]): Outcome {
  try {
    authorize(action, operator, state);
    return 'allowed';
  } catch (err) {
    assert.ok(err instanceof ApiError, `${action}: throws an ApiError, not ${String(err)}`);
    assert.equal(err.status, 403, `${action}: ${err.code} is a 403`);
    assert.ok(err.message.length > 0);
    return err.code as Outcome;
  }
}

describe('case permissions (CASE_PERMISSIONS and authorize)', () => {
  it('the expected table covers exactly the actions and roles there are', () => {
    assert.deepEqual(Object.keys(EXPECTED).sort(), [...CASE_ACTIONS].sort());
    assert.deepEqual(Object.keys(CASE_PERMISSIONS).sort(), [...CASE_ACTIONS].sort());
    assert.deepEqual([...OPERATOR_ROLES].sort(), ['reviewer', 'supervisor']);
  });

  for (const action of CASE_ACTIONS) {
    for (const role of OPERATOR_ROLES) {
      it(`${action} by a ${role}: every relation to the case`, () => {
        const operator = me(role);
        const cells: string[] = [];
        const wanted: string[] = [];
        for (const proposer of PROPOSERS) {
          for (const holder of HOLDERS) {
            const expected = EXPECTED[action][role];
            const want = typeof expected === 'function' ? expected(proposer, holder) : expected;
            cells.push(`${proposer}/${holder}: ${outcomeOf(action, operator, stateFor(operator, proposer, holder))}`);
            wanted.push(`${proposer}/${holder}: ${want}`);
          }
        }
        assert.deepEqual(cells, wanted);
      });
    }
  }

  it('a case with no proposal and no holder: every action is open to a supervisor; confirm and overturn are not to a reviewer', () => {
    for (const action of CASE_ACTIONS) {
      assert.equal(outcomeOf(action, me('supervisor'), { proposerId: null, holderId: null }), 'allowed', action);
      assert.equal(outcomeOf(action, me('reviewer'), {}), ['confirm', 'overturn'].includes(action) ? 'supervisor_required' : 'allowed', action);
    }
  });

  it('the role is checked before the proposer: a reviewer who proposed is told a supervisor is required', () => {
    const reviewer = me('reviewer');
    assert.equal(outcomeOf('confirm', reviewer, { proposerId: reviewer.operatorId, holderId: reviewer.operatorId }), 'supervisor_required');
  });
});
