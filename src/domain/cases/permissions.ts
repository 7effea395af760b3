import { ApiError } from '../errors.js';

export const OPERATOR_ROLES = ['reviewer', 'supervisor'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export interface OperatorRef {
  operatorId: string;
  name: string;
  role: OperatorRole;
}

/**
 * `approve` is a decision that lets a customer in (approve, reactivate), made directly or by confirming its
 * proposal; `decide` is any other decision.
 */
export const CASE_ACTIONS = ['decide', 'approve', 'propose', 'withdraw', 'confirm', 'overturn', 'claim', 'release', 'note', 'dispose', 'close'] as const;
export type CaseAction = (typeof CASE_ACTIONS)[number];

interface Rule {
  roles: readonly OperatorRole[];
  /** The proposer of the pending decision may not (four eyes). */
  notProposer?: true;
  /** Only the proposer of the pending decision may. */
  proposerOnly?: true;
  /** Only whoever holds the case, or a supervisor, when another operator holds it. */
  holderOrSupervisor?: true;
  /** Not an operator who marked one of the case's screening hits a false positive: their judgement is the first pair of eyes. */
  notDisposer?: true;
}

/** Who the case's work so far involves: the pending proposal's author, its holder, who found which hits false. */
export interface CaseState {
  proposerId?: string | null;
  holderId?: string | null;
  /** The case's hits marked false_positive: by whom, and the hit as operators name it ("OFAC-SDN entry 7001"). */
  falsePositives?: readonly { by: string; hit: string }[];
}

/**
 * Who may do what on a case: the one table of operator permissions (docs/back-office.md#roles), walked cell by cell
 * by test/domain/cases/permissions.test.ts. Whether a case needs four eyes at all is the case's (true matches, error
 * findings), not the operator's: see operator-decisions.ts.
 */
export const CASE_PERMISSIONS: Readonly<Record<CaseAction, Rule>> = {
  decide: { roles: OPERATOR_ROLES },
  approve: { roles: OPERATOR_ROLES, notDisposer: true },
  propose: { roles: OPERATOR_ROLES },
  withdraw: { roles: OPERATOR_ROLES, proposerOnly: true },
  confirm: { roles: ['supervisor'], notProposer: true },
  overturn: { roles: ['supervisor'], notProposer: true },
  claim: { roles: OPERATOR_ROLES },
  release: { roles: OPERATOR_ROLES, holderOrSupervisor: true },
  note: { roles: OPERATOR_ROLES },
  dispose: { roles: OPERATOR_ROLES },
  close: { roles: OPERATOR_ROLES },
};

const WITHDRAW = 'POST …/proposal/withdraw';

/**
 * Throws the 403 that says why `operator` may not do `action` on a case in this state, worded for them: what they
 * can do instead, and who can do what they cannot. A rule about the proposal holds only while there is one.
 */
export function authorize(action: CaseAction, operator: OperatorRef, state: CaseState): void {
  const rule = CASE_PERMISSIONS[action];
  const proposer = state.proposerId ?? null;
  const own = proposer === operator.operatorId;
  if (!rule.roles.includes(operator.role)) {
    const instead = own ? `; you proposed it, and may withdraw it (${WITHDRAW})` : '';
    throw new ApiError('supervisor_required', `Only a supervisor may ${action} a proposed decision; ${operator.name} is a ${operator.role}${instead}`);
  }
  if (rule.notProposer && own) {
    throw new ApiError('four_eyes_same_operator', `${operator.name} proposed this decision: another supervisor must ${action} it; you may withdraw it (${WITHDRAW})`);
  }
  if (rule.proposerOnly && proposer && !own) {
    const instead = operator.role === 'supervisor' ? 'as a supervisor, confirm or overturn it' : 'a supervisor confirms or overturns it';
    throw new ApiError('not_the_proposer', `Only the operator who proposed this decision may withdraw it: ${instead}`);
  }
  if (rule.holderOrSupervisor && state.holderId && state.holderId !== operator.operatorId && operator.role !== 'supervisor') {
    throw new ApiError('case_not_held', 'Another operator holds the case: only they or a supervisor may release it');
  }
  const mine = rule.notDisposer ? ownFalsePositives(operator, state) : [];
  if (mine.length > 0) {
    throw new ApiError(
      'four_eyes_same_operator',
      `${operator.name} marked ${mine.join(', ')} a false positive, so another operator approves this case: ${proposer ? 'another supervisor confirms the proposal' : 'propose the approval (POST …/proposal) for a supervisor to confirm, or leave it to another operator'}`,
    );
  }
}

/** The hits of the case this operator marked false positives ("OFAC-SDN entry 7001"): they do not approve it. */
export function ownFalsePositives(operator: Pick<OperatorRef, 'operatorId'>, state: CaseState): string[] {
  return (state.falsePositives ?? []).filter((f) => f.by === operator.operatorId).map((f) => f.hit);
}
