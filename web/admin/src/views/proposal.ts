import { announce } from '../announce';
import { ApiProblem, type ApiClient } from '../api';
import type { Hit, Proposal } from '../back-office-types';
import { DECISION_LABELS } from '../decisions';
import { fill, h } from '../dom';
import { dateTime, STATUS_LABELS } from '../format';
import type { CaseRoute } from '../router';
import type { Operator, VerificationStatus } from '../types';
import { reasonFeedback, showProblem } from './form-feedback';

/**
 * A decision proposed under the four-eyes rule, waiting. A supervisor other than the proposer confirms it (the
 * decision is made) or overturns it, each with a note the audit trail keeps; its proposer may withdraw it; everyone
 * else is told who may. An approval is not offered for confirmation to whoever marked one of the case's hits a false
 * positive. The server checks the same rules (403 supervisor_required, four_eyes_same_operator, not_the_proposer;
 * 409 open_hits_remain) and its answer is shown as it comes.
 */
export function createProposalPanel(
  api: ApiClient,
  route: CaseRoute,
  operator: Operator,
  refresh: () => Promise<void>,
  /** The status the confirmation led to: the page then does not announce it as a change made elsewhere. */
  decided: (status: VerificationStatus) => void,
): { element: HTMLElement; update(p: Proposal | null | undefined, hits: Hit[]): void } {
  const { subjectType, subjectId } = route;
  const what = h('div');
  const note = h('textarea', { id: 'proposal-note', name: 'note', rows: '2', 'aria-describedby': 'proposal-note-error' });
  const noteError = h('p', { id: 'proposal-note-error', class: 'field-error', role: 'alert' });
  const feedback = reasonFeedback(note, noteError);
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const confirm = h('button', { type: 'button', class: 'button primary', id: 'confirm-proposal', onclick: () => void decide('confirm') }, 'Confirm');
  const overturn = h('button', { type: 'button', class: 'button danger', id: 'overturn-proposal', onclick: () => void decide('overturn') }, 'Overturn');
  const withdraw = h('button', { type: 'button', class: 'button', id: 'withdraw-proposal', hidden: true, onclick: () => void decide('withdraw') }, 'Withdraw proposal');
  const actions = h(
    'div',
    { class: 'proposal-actions' },
    h('label', { for: 'proposal-note' }, 'Note (required: why you confirm or overturn it)'),
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
    h('div', { class: 'decision-buttons' }, withdraw),
    problem,
  );
  let busy = false;
  const all = [confirm, overturn, withdraw];

  async function decide(which: 'confirm' | 'overturn' | 'withdraw'): Promise<void> {
    if (busy) return;
    feedback.clear();
    problem.hidden = true;
    const text = note.value.trim();
    if (which !== 'withdraw' && !text) return feedback.show(`A note is required to ${which} the proposal.`);
    busy = true;
    all.forEach((b) => (b.disabled = true));
    try {
      let said = 'Proposal overturned: the decision was not made.';
      if (which === 'confirm') {
        const result = await api.confirmProposal(subjectType, subjectId, { note: text });
        decided(result.verificationStatus);
        said = `Proposal confirmed: the case is now ${STATUS_LABELS[result.verificationStatus].toLowerCase()}.`;
      } else if (which === 'overturn') {
        await api.overturnProposal(subjectType, subjectId, { note: text });
      } else {
        await api.withdrawProposal(subjectType, subjectId);
        said = 'Proposal withdrawn: the case can be decided or proposed again.';
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
      all.forEach((b) => (b.disabled = false));
    }
  }

  return {
    element,
    update(p, hits) {
      element.hidden = !p;
      if (!p) return;
      const label = DECISION_LABELS[p.decision];
      fill(
        what,
        h('p', {}, h('strong', {}, p.proposedBy.name), ` proposed: ${label}, `, h('time', { datetime: p.proposedAt }, dateTime(p.proposedAt)), '.'),
        p.reasons.map((r) => h('blockquote', { class: 'reason' }, r)),
      );
      confirm.textContent = `Confirm: ${label.toLowerCase()}`;
      const own = p.proposedBy.operatorId === operator.operatorId;
      // The rules as the server applies them; a console without roles (an older server) offers the buttons and lets it say.
      const supervisor = !own && operator.role !== 'reviewer';
      // Whoever found one of the case's hits false does not approve it, not even by confirming (docs/back-office.md#four-eyes).
      const lets = p.decision === 'approve' || p.decision === 'reactivate';
      const mine = lets ? hits.filter((hit) => hit.status === 'false_positive' && hit.disposition?.operator.operatorId === operator.operatorId) : [];
      actions.hidden = !supervisor;
      confirm.hidden = mine.length > 0;
      withdraw.hidden = !own;
      who.textContent = own
        ? 'You proposed this: a supervisor other than you confirms or overturns it, or you withdraw it.'
        : supervisor && mine.length
          ? `You marked ${mine.map((hit) => `${hit.list} entry ${hit.entryNumber}`).join(', ')} a false positive: another supervisor confirms it. You may overturn it.`
          : supervisor
            ? 'As a supervisor, you confirm it (the decision is made) or overturn it, with a note.'
            : `A supervisor confirms or overturns it, or ${p.proposedBy.name} withdraws it; reviewers cannot confirm.`;
    },
  };
}
