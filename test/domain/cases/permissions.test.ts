import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ApiError } from '../../../src/domain/errors.js';
import { authorize, CASE_ACTIONS, CASE_PERMISSIONS, OPERATOR_ROLES, type CaseAction, type CaseState, type OperatorRef, type OperatorRole } from '../../../src/domain/cases/permissions.js';
import { ROOT_URL } from '../../harness/root.js';

/*
 * Every cell of the operators' permission table (src/domain/cases/permissions.ts, docs/back-office.md#roles): each
 * action × role × relation to the case (the operator proposed its pending decision or not; holds it, another
 * operator holds it, nobody holds it; marked one of its hits a false positive, another operator did, nobody did:
 * the actor's own disposition is a cell of its own). The expected outcome is written out below by hand, not read
 * from CASE_PERMISSIONS, so a change of the table fails here until this table (and the docs) say the same.
 */

type Proposer = 'proposer' | 'not_proposer';
type Holder = 'holds' | 'other_holds' | 'nobody_holds';
type Disposer = 'own_false_positive' | 'other_false_positive' | 'no_false_positive';
type Outcome = 'allowed' | 'supervisor_required' | 'four_eyes_same_operator' | 'case_not_held' | 'not_the_proposer';

const PROPOSERS: readonly Proposer[] = ['proposer', 'not_proposer'];
const HOLDERS: readonly Holder[] = ['holds', 'other_holds', 'nobody_holds'];
const DISPOSERS: readonly Disposer[] = ['own_false_positive', 'other_false_positive', 'no_false_positive'];

/** What the rules say, per action and role: a constant outcome, or one that depends on the relation. */
type Expected = Outcome | ((proposer: Proposer, holder: Holder, disposer: Disposer) => Outcome);

const anyone: Record<OperatorRole, Expected> = { reviewer: 'allowed', supervisor: 'allowed' };
/** Four eyes: only a supervisor, and never the one who proposed. */
const secondPairOfEyes: Record<OperatorRole, Expected> = {
  reviewer: 'supervisor_required',
  supervisor: (proposer) => (proposer === 'proposer' ? 'four_eyes_same_operator' : 'allowed'),
};
/** Letting a customer in: anyone, but not over a false positive of their own (their judgement was the first pair of eyes). */
const notOverOwnFalsePositive: Expected = (_p, _h, disposer) => (disposer === 'own_false_positive' ? 'four_eyes_same_operator' : 'allowed');
/** Taking a proposal back: its proposer only. */
const proposerOnly: Expected = (proposer) => (proposer === 'proposer' ? 'allowed' : 'not_the_proposer');

const EXPECTED: Record<CaseAction, Record<OperatorRole, Expected>> = {
  decide: anyone,
  approve: { reviewer: notOverOwnFalsePositive, supervisor: notOverOwnFalsePositive },
  propose: anyone,
  withdraw: { reviewer: proposerOnly, supervisor: proposerOnly },
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

function stateFor(operator: OperatorRef, proposer: Proposer, holder: Holder, disposer: Disposer): CaseState {
  return {
    proposerId: proposer === 'proposer' ? operator.operatorId : OTHER,
    holderId: holder === 'holds' ? operator.operatorId : holder === 'other_holds' ? OTHER : null,
    falsePositives: disposer === 'no_false_positive' ? [] : [{ by: disposer === 'own_false_positive' ? operator.operatorId : OTHER, hit: 'OFAC-SDN entry 7001' }],
  };
}

function outcomeOf(action: CaseAction, operator: OperatorRef, state: CaseState): Outcome {
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
            for (const disposer of DISPOSERS) {
              const expected = EXPECTED[action][role];
              const want = typeof expected === 'function' ? expected(proposer, holder, disposer) : expected;
              cells.push(`${proposer}/${holder}/${disposer}: ${outcomeOf(action, operator, stateFor(operator, proposer, holder, disposer))}`);
              wanted.push(`${proposer}/${holder}/${disposer}: ${want}`);
            }
          }
        }
        assert.deepEqual(cells, wanted);
      });
    }
  }

  it('a case with no proposal, no holder and no false positive: every action is open to a supervisor; confirm and overturn are not to a reviewer', () => {
    for (const action of CASE_ACTIONS) {
      assert.equal(outcomeOf(action, me('supervisor'), { proposerId: null, holderId: null, falsePositives: [] }), 'allowed', action);
      assert.equal(outcomeOf(action, me('reviewer'), {}), ['confirm', 'overturn'].includes(action) ? 'supervisor_required' : 'allowed', action);
    }
  });

  it('the role is checked before the proposer: a reviewer who proposed is told a supervisor is required, and that they may withdraw it', () => {
    const reviewer = me('reviewer');
    assert.equal(outcomeOf('confirm', reviewer, { proposerId: reviewer.operatorId, holderId: reviewer.operatorId }), 'supervisor_required');
    assert.throws(() => authorize('confirm', reviewer, { proposerId: reviewer.operatorId }), /withdraw/);
  });

  it('each refusal is worded for whoever gets it', () => {
    const words = (action: CaseAction, operator: OperatorRef, state: CaseState) => {
      try {
        authorize(action, operator, state);
      } catch (err) {
        return (err as Error).message;
      }
      assert.fail(`${action} was allowed`);
    };
    // The proposer is told what they can do (withdraw), never to confirm or overturn their own proposal.
    assert.match(words('confirm', me('supervisor'), { proposerId: me('supervisor').operatorId }), /withdraw it/);
    assert.match(words('withdraw', me('supervisor'), { proposerId: OTHER }), /as a supervisor, confirm or overturn it/);
    assert.match(words('withdraw', me('reviewer'), { proposerId: OTHER }), /a supervisor confirms or overturns it/);
    assert.doesNotMatch(words('withdraw', me('reviewer'), { proposerId: OTHER }), /as a supervisor/);
    // The disposer of a false positive is named the hit, and told the approval is another operator's.
    const own = { falsePositives: [{ by: me('reviewer').operatorId, hit: 'OFAC-SDN entry 7001' }] };
    assert.match(words('approve', me('reviewer'), own), /marked OFAC-SDN entry 7001 a false positive.*propose the approval/);
    assert.match(words('approve', me('reviewer'), { ...own, proposerId: OTHER }), /another supervisor confirms the proposal/);
  });
});

describe('docs/back-office.md#roles says what the table says', () => {
  const page = readFileSync(new URL('docs/back-office.md', ROOT_URL), 'utf8');
  const section = page.slice(page.indexOf('## Roles'), page.indexOf('## Case work'));
  const rows = new Map(
    section
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .map((line) => {
        const [label, reviewer, supervisor] = line.split('|').slice(1, -1).map((c) => c.trim());
        return [/^`(\w+)`/.exec(label!)![1]!, { reviewer: reviewer!, supervisor: supervisor! }] as const;
      }),
  );

  it('one row per action, each cell yes or no as the rule gives the role, naming every refusal it can meet', () => {
    assert.deepEqual([...rows.keys()].sort(), [...CASE_ACTIONS].sort());
    for (const action of CASE_ACTIONS) {
      for (const role of OPERATOR_ROLES) {
        const cell = rows.get(action)![role];
        const operator = me(role);
        const codes = new Set<string>();
        for (const proposer of PROPOSERS) {
          for (const holder of HOLDERS) for (const disposer of DISPOSERS) codes.add(outcomeOf(action, operator, stateFor(operator, proposer, holder, disposer)));
        }
        assert.equal(cell.startsWith('yes'), codes.has('allowed'), `${action}, ${role}: "${cell}"`);
        for (const code of codes) if (code !== 'allowed') assert.ok(cell.includes(`\`${code}\``), `${action}, ${role}: "${cell}" names ${code}`);
      }
    }
  });
});
