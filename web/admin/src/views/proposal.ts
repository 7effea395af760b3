import { announce } from '../announce';
import { ApiProblem, type ApiClient } from '../api';
import type { Proposal } from '../back-office-types';
import { DECISION_LABELS } from '../decisions';
import { fill, h } from '../dom';
import { STATUS_LABELS, utcDateTime } from '../format';
import type { CaseRoute } from '../router';
import type { Operator, VerificationStatus } from '../types';
import { reasonFeedback, showProblem } from './form-feedback';

/**
 * A decision proposed under the four-eyes rule, waiting. A supervisor other than the proposer confirms it (the
 * decision is made) or overturns it (with a note); everyone else is told who may. The server checks the same rule
 * (403 supervisor_required, four_eyes_same_operator) and its answer is shown as it comes.
 */
export function createProposalPanel(
  api: ApiClient,
  route: CaseRoute,
  operator: Operator,
  refresh: () => Promise<void>,
  /** The status the confirmation led to: the page then does not announce it as a change made elsewhere. */
  decided: (status: VerificationStatus) => void,
): { element: HTMLElement; update(p: Proposal | null | undefined): void } {
  const { subjectType, subjectId } = route;
  const what = h('div');
  const note = h('textarea', { id: 'proposal-note', name: 'note', rows: '2', 'aria-describedby': 'proposal-note-error' });
  const noteError = h('p', { id: 'proposal-note-error', class: 'field-error', role: 'alert' });
  const feedback = reasonFeedback(note, noteError);
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const confirm = h('button', { type: 'button', class: 'button primary', id: 'confirm-proposal', onclick: () => void decide('confirm') }, 'Confirm');
  const overturn = h('button', { type: 'button', class: 'button danger', id: 'overturn-proposal', onclick: () => void decide('overturn') }, 'Overturn');
  const actions = h(
    'div',
    { class: 'proposal-actions' },
    h('label', { for: 'proposal-note' }, 'Note (required to overturn)'),
    note,
    noteError,
    h('div', { class: 'decision-buttons' }, confirm, overturn),
  );
  const who = h('p', { class: 'hint' });
  const element = h(
    'section',
    { class: 'card proposal', 'aria-labelledby': 'proposal-title', hidden: true },
    h('h2', { id: 'proposal-title' }, 'Awaiting confirmation'),
    what,
    actions,
    who,
    problem,
  );
  let busy = false;

  async function decide(which: 'confirm' | 'overturn'): Promise<void> {
    if (busy) return;
    feedback.clear();
    problem.hidden = true;
    const text = note.value.trim();
    if (which === 'overturn' && !text) return feedback.show('A note is required to overturn the proposal.');
    busy = true;
    confirm.disabled = overturn.disabled = true;
    try {
      let said = 'Proposal overturned: the decision was not made.';
      if (which === 'confirm') {
        const result = await api.confirmProposal(subjectType, subjectId, text ? { note: text } : {});
        decided(result.verificationStatus);
        said = `Proposal confirmed: the case is now ${STATUS_LABELS[result.verificationStatus].toLowerCase()}.`;
      } else {
        await api.overturnProposal(subjectType, subjectId, { note: text });
      }
      note.value = '';
      // Said after the refresh, so the new status is shown when it is heard.
      await refresh().catch(() => {});
      announce(said);
    } catch (err) {
      showProblem(problem, err instanceof ApiProblem ? err.problem : { title: 'The proposal could not be settled', status: 0, detail: String(err) });
      if (err instanceof ApiProblem && err.status === 409) void refresh().catch(() => {});
    } finally {
      busy = false;
      confirm.disabled = overturn.disabled = false;
    }
  }

  return {
    element,
    update(p) {
      element.hidden = !p;
      if (!p) return;
      const label = DECISION_LABELS[p.decision];
      fill(
        what,
        h('p', {}, h('strong', {}, p.proposedBy.name), ` proposed: ${label}, `, h('time', { datetime: p.proposedAt }, utcDateTime(p.proposedAt)), '.'),
        p.reasons.map((r) => h('blockquote', { class: 'reason' }, r)),
      );
      confirm.textContent = `Confirm: ${label.toLowerCase()}`;
      const own = p.proposedBy.operatorId === operator.operatorId;
      // The rule as the server applies it; a console without roles (an older server) offers the buttons and lets it say.
      const may = !own && operator.role !== 'reviewer';
      actions.hidden = !may;
      who.textContent = own
        ? 'You proposed this: a supervisor other than you must confirm or overturn it.'
        : may
          ? 'As a supervisor, you confirm it (the decision is made) or overturn it.'
          : 'A supervisor confirms or overturns it; reviewers cannot.';
    },
  };
}
