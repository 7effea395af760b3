import { ApiProblem } from '../api';
import { h } from '../dom';
import { reasonFeedback, showProblem } from './form-feedback';
import { DECISION_LABELS, decisionsFor, reasonRequired } from '../decisions';
import { STATUS_LABELS } from '../format';
import { DECISIONS, type Decision, type VerificationStatus } from '../types';

const SHORTCUTS: Partial<Record<Decision, string>> = { approve: 'a', request_resubmission: 'r', reject: 'x' };
const TONE: Record<Decision, string> = { approve: 'primary', request_resubmission: '', reject: 'danger', deactivate: 'danger', reactivate: '', reopen: '' };
/** The decisions on a case under review, and those on one already decided. */
const REVIEW: Decision[] = ['approve', 'request_resubmission', 'reject'];
const AFTER_REVIEW: Decision[] = ['deactivate', 'reactivate', 'reopen'];
const MAX_REASONS = 10;
const MAX_REASON_LENGTH = 500;

export interface DecisionForm {
  element: HTMLElement;
  /** Enables the decisions meaningful for this status; the reason typed so far is kept. */
  setStatus(status: VerificationStatus): void;
  /** Presses a decision's button, as a click would. */
  press(decision: Decision): void;
  /** Marks the decision Ctrl+Enter in the reason will send, and puts the cursor in the reason. */
  arm(decision: Decision): void;
  setSelectedCount(count: number): void;
}

/**
 * The decision buttons and the reason. Client-side checks mirror the server's (a reason for all but approve and
 * reactivate, at most 10 lines of 500 characters, one reason per line); the server decides, and its problem
 * (a 409 for a move the state machine refuses, a 400 with field errors) is shown as it comes.
 */
export function createDecisionForm(options: { decide: (decision: Decision, reasons: string[]) => Promise<void> }): DecisionForm {
  let status: VerificationStatus = 'under_review';
  let armed: Decision | null = null;
  let busy = false;

  const reason = h('textarea', { id: 'reason', name: 'reason', rows: '4', 'aria-describedby': 'reason-hint reason-error' });
  const reasonError = h('p', { id: 'reason-error', class: 'field-error', role: 'alert' });
  const selectedCount = h('p', { class: 'hint', id: 'selected-count' });
  const problemBox = h('div', { class: 'problem', role: 'alert', hidden: true, id: 'decision-problem' });
  const { show: showReasonError, clear: clearReasonError } = reasonFeedback(reason, reasonError);
  const available = h('p', { class: 'hint', id: 'decisions-available' });
  const buttons = new Map<Decision, HTMLButtonElement>(
    DECISIONS.map((d) => [
      d,
      h(
        'button',
        { type: 'button', class: `button ${TONE[d]}`, dataset: { decision: d }, 'aria-keyshortcuts': SHORTCUTS[d], onclick: () => void submit(d) },
        DECISION_LABELS[d],
        SHORTCUTS[d] ? h('kbd', { 'aria-hidden': 'true' }, SHORTCUTS[d]) : null,
      ),
    ]),
  );

  reason.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      if (armed) void submit(armed);
      else showReasonError('Choose a decision: press its button (or r, x after leaving the field).');
    }
  });
  reason.addEventListener('input', () => {
    if (reason.value.trim()) clearReasonError();
  });

  const element = h(
    'section',
    { class: 'card decision', 'aria-labelledby': 'decision-title' },
    h('h2', { id: 'decision-title' }, 'Decision'),
    h('label', { for: 'reason' }, 'Reason'),
    reason,
    h('p', { id: 'reason-hint', class: 'hint' }, 'Required for all but Approve and Reactivate; one reason per line. Recorded in the audit trail; on a resubmission request, shown to the integrator on each selected document.'),
    reasonError,
    selectedCount,
    h('div', { class: 'decision-buttons', role: 'group', 'aria-label': 'Review decisions' }, REVIEW.map((d) => buttons.get(d)!)),
    h('div', { class: 'decision-buttons secondary', role: 'group', 'aria-label': 'After review' }, AFTER_REVIEW.map((d) => buttons.get(d)!)),
    available,
    problemBox,
  );

  function refreshButtons(): void {
    const allowed = decisionsFor(status);
    for (const [d, button] of buttons) {
      button.disabled = busy || !allowed.includes(d);
      button.classList.toggle('armed', armed === d);
    }
    element.setAttribute('aria-busy', String(busy));
    available.textContent = allowed.length
      ? `While ${STATUS_LABELS[status].toLowerCase()}: ${allowed.map((d) => DECISION_LABELS[d]).join(', ')}.`
      : `No decision applies while the case is ${STATUS_LABELS[status].toLowerCase()}.`;
  }

  async function submit(decision: Decision): Promise<void> {
    if (busy) return;
    problemBox.hidden = true;
    clearReasonError();
    const reasons = reason.value
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    if (reasonRequired(decision) && reasons.length === 0) {
      armed = decision;
      refreshButtons();
      return showReasonError(`A reason is required to ${DECISION_LABELS[decision].toLowerCase()}.`);
    }
    if (reasons.length > MAX_REASONS) return showReasonError(`At most ${MAX_REASONS} reasons (one per line).`);
    if (reasons.some((r) => r.length > MAX_REASON_LENGTH)) return showReasonError(`Each reason is at most ${MAX_REASON_LENGTH} characters.`);
    busy = true;
    refreshButtons();
    try {
      await options.decide(decision, reasons);
      reason.value = '';
      armed = null;
    } catch (err) {
      showProblem(problemBox, err instanceof ApiProblem ? err.problem : { title: 'The decision failed', status: 0, detail: String(err) });
    } finally {
      busy = false;
      refreshButtons();
    }
  }

  refreshButtons();
  return {
    element,
    setStatus(next) {
      status = next;
      if (armed && !decisionsFor(status).includes(armed)) armed = null;
      refreshButtons();
    },
    press(decision) {
      const button = buttons.get(decision)!;
      if (button.disabled) return;
      button.focus();
      void submit(decision);
    },
    arm(decision) {
      if (!decisionsFor(status).includes(decision)) return;
      armed = decision;
      refreshButtons();
      reason.focus();
    },
    setSelectedCount(count) {
      selectedCount.textContent = count ? `${count} document${count > 1 ? 's' : ''} selected for resubmission.` : '';
    },
  };
}
