import { announce } from '../announce';
import { ApiProblem } from '../api';
import { h } from '../dom';
import { createConfirmStep } from './confirm-step';
import { reasonFeedback, showProblem } from './form-feedback';
import type { ApprovalPath } from '../back-office-types';
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
/** What each decision's confirmation asks. */
const QUESTION: Record<Decision, string> = {
  approve: 'Approve this case?',
  request_resubmission: 'Request a resubmission?',
  reject: 'Reject this case?',
  deactivate: 'Deactivate this customer?',
  reactivate: 'Reactivate this customer?',
  reopen: 'Reopen this case?',
};
/** Each decision as a noun, for its confirmation's button ("Confirm rejection"). */
const NOUN: Record<Decision, string> = { approve: 'approval', request_resubmission: 'resubmission request', reject: 'rejection', deactivate: 'deactivation', reactivate: 'reactivation', reopen: 'reopening' };

export interface DecisionForm {
  element: HTMLElement;
  /** Enables the decisions meaningful for this status; the reason typed so far is kept. */
  setStatus(status: VerificationStatus): void;
  /**
   * Marks the decision Ctrl+Enter in the reason will send. One that needs a reason puts the cursor in it; approve
   * and reactivate show their confirmation at once, with focus on its button: no single key press decides a case.
   */
  arm(decision: Decision): void;
  setSelectedCount(count: number): void;
  /**
   * How this operator may approve the case, as the server says (docs/back-office.md#four-eyes): directly, by a
   * proposal (the button says so before it is pressed), or not before every hit has its disposition.
   */
  setApproval(approval: ApprovalPath | undefined): void;
  /** A proposal waits for its confirmation: approve and reactivate are not offered meanwhile. */
  setProposalPending(pending: boolean): void;
}

/**
 * The decision buttons and the reason. One rule for every decision that changes the customer's status: it takes a
 * second step, the confirmation (what will happen, and one button that does it, focused), whichever way it was
 * asked for (its button, its key, Ctrl+Enter in the reason); a decision that needs a reason asks for it first. A
 * proposal changes no status (a supervisor decides), so it is sent at once. Client-side checks mirror the server's (a reason for all but approve and
 * reactivate, at most 10 lines of 500 characters, one reason per line); the server decides, and its problem
 * (a 409 for a move the state machine refuses, a 400 with field errors) is shown as it comes. An approval the
 * four-eyes rule holds back is labelled a proposal before the click ("Propose approval: needs a supervisor"); one the
 * server holds back that the page did not know of (409 four_eyes_required, 403 four_eyes_same_operator) is offered
 * as a proposal with a note then.
 */
export function createDecisionForm(options: {
  decide: (decision: Decision, reasons: string[]) => Promise<void>;
  propose: (decision: Decision, reasons: string[]) => Promise<void>;
  /** Reloads the case (after a refusal that says the page was behind). */
  refresh: () => Promise<void>;
}): DecisionForm {
  let status: VerificationStatus = 'under_review';
  let armed: Decision | null = null;
  let busy = false;
  /** How the server says this operator may approve, and why a proposal, as a refusal last said it (kept). */
  let approval: ApprovalPath = { path: 'direct', detail: null };
  let told: string | null = null;
  const fourEyes = () => (approval.path === 'proposal' ? approval.detail : null) ?? told;
  /** Every hit needs its disposition before any approval: approve and reactivate wait (the server says the same). */
  const hitsFirst = () => approval.path === 'dispositions_first';
  let pending = false;

  const reason = h('textarea', { id: 'reason', name: 'reason', rows: '4', 'aria-describedby': 'reason-hint reason-error' });
  const reasonError = h('p', { id: 'reason-error', class: 'field-error', role: 'alert' });
  const selectedCount = h('p', { class: 'hint', id: 'selected-count' });
  const problemBox = h('div', { class: 'problem', role: 'alert', hidden: true, id: 'decision-problem' });
  const { show: showReasonError, clear: clearReasonError } = reasonFeedback(reason, reasonError);
  const available = h('p', { class: 'hint', id: 'decisions-available' });
  const labels = new Map<Decision, HTMLElement>(DECISIONS.map((d) => [d, h('span', { class: 'decision-label' }, DECISION_LABELS[d])]));
  const buttons = new Map<Decision, HTMLButtonElement>(
    DECISIONS.map((d) => [
      d,
      h(
        'button',
        { type: 'button', class: `button ${TONE[d]}`, dataset: { decision: d }, 'aria-keyshortcuts': SHORTCUTS[d], onclick: () => void submit(d, false) },
        labels.get(d)!,
        SHORTCUTS[d] ? h('kbd', { 'aria-hidden': 'true' }, SHORTCUTS[d]) : null,
      ),
    ]),
  );

  const confirmStep = createConfirmStep('confirm-decision', { confirm: () => armed && void submit(armed, true), cancel: () => disarm(true) });

  reason.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      if (armed) void submit(armed, false);
      else showReasonError('Choose a decision: press its button (or a, r, x after leaving the field).');
    }
  });
  reason.addEventListener('input', () => {
    if (reason.value.trim()) clearReasonError();
  });

  const element = h(
    'section',
    { class: 'card decision', 'aria-labelledby': 'decision-title' },
    h('h2', { id: 'decision-title', tabindex: '-1' }, 'Decision'),
    h('label', { for: 'reason' }, 'Reason or note'),
    reason,
    h('p', { id: 'reason-hint', class: 'hint' }, 'Required for all but Approve and Reactivate (and for a proposal); one reason per line. Recorded in the audit trail; on a resubmission request, shown to the integrator on each selected document.'),
    reasonError,
    selectedCount,
    h('div', { class: 'decision-buttons', role: 'group', 'aria-label': 'Review decisions' }, REVIEW.map((d) => buttons.get(d)!)),
    h('div', { class: 'decision-buttons secondary', role: 'group', 'aria-label': 'After review' }, AFTER_REVIEW.map((d) => buttons.get(d)!)),
    confirmStep.element,
    available,
    problemBox,
  );

  /** Approve and reactivate: no reason, the four-eyes rule, not offered while a proposal or a hit waits. */
  const approvalLike = (d: Decision) => !reasonRequired(d);
  const proposing = (d: Decision) => approvalLike(d) && fourEyes() !== null;
  /** Whether the armed decision's confirmation is shown: at once for approve and reactivate, after the reason for the rest. */
  let confirming = false;

  /** "Propose approval: needs a supervisor" on the button itself, before anyone presses it. */
  const labelOf = (d: Decision) => (proposing(d) ? `Propose ${NOUN[d]}: needs a supervisor` : DECISION_LABELS[d]);

  function refreshButtons(focusConfirm = false): void {
    const allowed = decisionsFor(status).filter((d) => !((pending || hitsFirst()) && approvalLike(d)));
    for (const [d, button] of buttons) {
      button.disabled = busy || !allowed.includes(d);
      button.classList.toggle('armed', armed === d);
      button.dataset.path = approvalLike(d) ? (hitsFirst() ? 'dispositions_first' : proposing(d) ? 'proposal' : 'direct') : 'direct';
      labels.get(d)!.textContent = labelOf(d);
    }
    element.setAttribute('aria-busy', String(busy));
    if (armed !== null && (confirming || proposing(armed)) && allowed.includes(armed)) {
      const noun = NOUN[armed];
      confirmStep.show(
        proposing(armed)
          ? `A second operator must confirm this ${noun}: ${fourEyes()}. Write a note (why it is safe), then propose it; a supervisor confirms or overturns it.`
          : `${QUESTION[armed]} The integrator is told at once.`,
        proposing(armed) ? `Propose ${noun}` : `Confirm ${noun}`,
        focusConfirm,
      );
    } else {
      confirmStep.hide();
    }
    confirmStep.setBusy(busy);
    const waiting = decisionsFor(status).filter(approvalLike);
    available.textContent = pending
      ? 'A proposal waits for a supervisor’s confirmation: approval is not offered meanwhile.'
      : hitsFirst() && waiting.length
        ? `${waiting.map((d) => DECISION_LABELS[d]).join(', ')} waits for every screening hit’s disposition: ${approval.detail}. Mark each a true match or a false positive first.`
        : allowed.length
        ? `While ${STATUS_LABELS[status].toLowerCase()}: ${allowed.map((d) => DECISION_LABELS[d]).join(', ')}.`
        : `No decision applies while the case is ${STATUS_LABELS[status].toLowerCase()}.`;
  }

  function disarm(focusBack: boolean): void {
    const was = armed;
    armed = null;
    confirming = false;
    refreshButtons();
    if (focusBack && was) buttons.get(was)?.focus();
  }

  /** `confirmed`: the confirmation's button, the second step; a decision's button or Ctrl+Enter is the first. */
  async function submit(decision: Decision, confirmed: boolean): Promise<void> {
    if (busy) return;
    problemBox.hidden = true;
    clearReasonError();
    // Approve and reactivate: the first press shows the confirmation (or, under the four-eyes rule, the proposal's note).
    if (approvalLike(decision) && !confirmed && armed !== decision) return arm(decision);
    const reasons = reason.value
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    if ((reasonRequired(decision) || proposing(decision)) && reasons.length === 0) {
      armed = decision;
      refreshButtons();
      return showReasonError(proposing(decision) ? `A note is required to propose ${NOUN[decision]}.` : `A reason is required to ${DECISION_LABELS[decision].toLowerCase()}.`);
    }
    if (reasons.length > MAX_REASONS) return showReasonError(`At most ${MAX_REASONS} reasons (one per line).`);
    if (reasons.some((r) => r.length > MAX_REASON_LENGTH)) return showReasonError(`Each reason is at most ${MAX_REASON_LENGTH} characters.`);
    if (!confirmed && !proposing(decision)) {
      armed = decision;
      confirming = true;
      return refreshButtons(true);
    }
    busy = true;
    refreshButtons();
    try {
      await (proposing(decision) ? options.propose : options.decide)(decision, reasons);
      reason.value = '';
      armed = null;
      confirming = false;
      told = null;
    } catch (err) {
      if (err instanceof ApiProblem && (err.problem.code === 'four_eyes_required' || err.problem.code === 'four_eyes_same_operator') && !proposing(decision)) {
        // The server knows of an error, a true match or a disposition of this operator's that the page had not
        // shown yet: the same decision, as a proposal, with the server's reason.
        told = (err.problem.detail ?? 'the case takes a second operator').replace(/: propose the decision.*$|, so another operator.*$/, '').replace(/^This case/, 'the case');
        void options.refresh();
        armed = decision;
        confirming = false;
        announce(`A second operator must confirm this ${NOUN[decision]}: propose it with a note.`, 'error');
        busy = false;
        refreshButtons();
        return showReasonError(`A second operator must confirm: write a note, then press Propose ${NOUN[decision]}.`);
      }
      showProblem(problemBox, err instanceof ApiProblem ? err.problem : { title: 'The decision failed', status: 0, detail: String(err) });
    } finally {
      busy = false;
      refreshButtons();
    }
  }

  function arm(decision: Decision): void {
    if (pending && approvalLike(decision)) return announce('A proposal waits for a supervisor’s confirmation: approval is not offered meanwhile.');
    if (hitsFirst() && approvalLike(decision)) return announce(`Every screening hit needs its disposition first: ${approval.detail}.`);
    if (!decisionsFor(status).includes(decision)) return;
    armed = decision;
    confirming = approvalLike(decision) && !proposing(decision);
    refreshButtons(confirming);
    // A proposal needs its note, and the other decisions their reason: the cursor goes there.
    if (!confirming) reason.focus();
  }

  refreshButtons();
  return {
    element,
    setStatus(next) {
      status = next;
      if (armed && !decisionsFor(status).includes(armed)) disarm(false);
      refreshButtons();
    },
    arm,
    setSelectedCount(count) {
      selectedCount.textContent = count ? `${count} document${count > 1 ? 's' : ''} selected for resubmission.` : '';
    },
    setApproval(next) {
      approval = next ?? { path: 'direct', detail: null };
      if (approval.path !== 'direct') told = null;
      if (armed && hitsFirst() && approvalLike(armed)) disarm(false);
      refreshButtons();
    },
    setProposalPending(next) {
      pending = next;
      if (pending && armed && approvalLike(armed)) disarm(false);
      refreshButtons();
    },
  };
}
