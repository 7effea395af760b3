import { ApiError } from '../errors.js';

export const OPERATOR_ROLES = ['reviewer', 'supervisor'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export interface OperatorRef {
  operatorId: string;
  name: string;
  role: OperatorRole;
}

export const CASE_ACTIONS = ['decide', 'propose', 'confirm', 'overturn', 'claim', 'release', 'note', 'dispose', 'close'] as const;
export type CaseAction = (typeof CASE_ACTIONS)[number];

interface Rule {
  roles: readonly OperatorRole[];
  /** The proposer of the pending decision may not (four eyes). */
  notProposer?: true;
  /** Only whoever holds the case, or a supervisor, when another operator holds it. */
  holderOrSupervisor?: true;
}

/**
 * Who may do what on a case: the one table of operator permissions (docs/back-office.md#roles), walked cell by cell
 * by test/domain/cases/permissions.test.ts. Whether a case needs four eyes at all is the case's (open hits, error
 * findings), not the operator's: see four-eyes.ts.
 */
export const CASE_PERMISSIONS: Readonly<Record<CaseAction, Rule>> = {
  decide: { roles: OPERATOR_ROLES },
  propose: { roles: OPERATOR_ROLES },
  confirm: { roles: ['supervisor'], notProposer: true },
  overturn: { roles: ['supervisor'], notProposer: true },
  claim: { roles: OPERATOR_ROLES },
  release: { roles: OPERATOR_ROLES, holderOrSupervisor: true },
  note: { roles: OPERATOR_ROLES },
  dispose: { roles: OPERATOR_ROLES },
  close: { roles: OPERATOR_ROLES },
};

/** Throws the 403 that says why `operator` may not do `action` on a case in this state. */
export function authorize(action: CaseAction, operator: OperatorRef, state: { proposerId?: string | null; holderId?: string | null }): void {
  const rule = CASE_PERMISSIONS[action];
  if (!rule.roles.includes(operator.role)) {
    throw new ApiError('supervisor_required', `Only a supervisor may ${action} a proposed decision; ${operator.name} is a ${operator.role}`);
  }
  if (rule.notProposer && state.proposerId === operator.operatorId) {
    throw new ApiError('four_eyes_same_operator', `${operator.name} proposed this decision: another operator must ${action} it`);
  }
  if (rule.holderOrSupervisor && state.holderId && state.holderId !== operator.operatorId && operator.role !== 'supervisor') {
    throw new ApiError('case_not_held', 'Another operator holds the case: only they or a supervisor may release it');
  }
}
