import { ApiProblem } from '../api';
import { h } from '../dom';
import { createConfirmStep } from './confirm-step';
import { reasonFeedback, showProblem } from './form-feedback';
import { BANK_ACCOUNT_STATUS_LABELS } from '../format';
import type { BankAccountOutcome, BankAccountStatus } from '../types';

const LABELS: Record<BankAccountOutcome, string> = { approve: 'Approve', reject: 'Reject' };
const SHORTCUTS: Record<BankAccountOutcome, string> = { approve: 'a', reject: 'x' };
const TONE: Record<BankAccountOutcome, string> = { approve: 'primary', reject: 'danger' };
/** As the server's schema: one reason of at most 500 characters. */
const MAX_REASON_LENGTH = 500;

export interface BankAccountForm {
  element: HTMLElement;
  /** Enables the buttons only while the bank account is pending_review; the reason typed so far is kept. */
  setStatus(status: BankAccountStatus): void;
  /**
   * Marks the outcome Ctrl+Enter in the reason will send. Reject puts the cursor in the reason; approve shows its
   * confirmation, focused: no single key press approves.
   */
  arm(outcome: BankAccountOutcome): void;
}

/**
 * Approve or Reject a bank account in pending_review. A rejection needs a reason (checked here, then again by the
 * server, which also shows it to the integrator as rejectionReason); the server decides, and its problem (409
 * bank_account_not_pending when another operator decided first, 400 naming /reason) is shown as it comes.
 */
export function createBankAccountForm(options: { decide: (outcome: BankAccountOutcome, reason: string) => Promise<void> }): BankAccountForm {
  let status: BankAccountStatus = 'pending_review';
  let armed: BankAccountOutcome | null = null;
  let busy = false;

  const reason = h('textarea', { id: 'bank-reason', name: 'reason', rows: '3', maxlength: String(MAX_REASON_LENGTH), 'aria-describedby': 'bank-reason-hint bank-reason-error' });
  const reasonError = h('p', { id: 'bank-reason-error', class: 'field-error', role: 'alert' });
  const problemBox = h('div', { class: 'problem', role: 'alert', hidden: true, id: 'bank-decision-problem' });
  const { show: showReasonError, clear: clearReasonError } = reasonFeedback(reason, reasonError);
  const available = h('p', { class: 'hint', id: 'bank-decisions-available' });
  const outcomes: BankAccountOutcome[] = ['approve', 'reject'];
  const confirmStep = createConfirmStep('confirm-bank-decision', {
    confirm: () => void submit('approve', true),
    cancel: () => {
      armed = null;
      refreshButtons();
      buttons.get('approve')?.focus();
    },
  });
  const buttons = new Map<BankAccountOutcome, HTMLButtonElement>(
    outcomes.map((o) => [
      o,
      h(
        'button',
        { type: 'button', class: `button ${TONE[o]}`, dataset: { outcome: o }, 'aria-keyshortcuts': SHORTCUTS[o], onclick: () => void submit(o, false) },
        LABELS[o],
        h('kbd', { 'aria-hidden': 'true' }, SHORTCUTS[o]),
      ),
    ]),
  );

  reason.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit(armed ?? 'reject', true);
    }
  });
  reason.addEventListener('input', () => {
    if (reason.value.trim()) clearReasonError();
  });

  const element = h(
    'section',
    { class: 'card decision', 'aria-labelledby': 'bank-decision-title' },
    h('h2', { id: 'bank-decision-title' }, 'Decision'),
    h('label', { for: 'bank-reason' }, 'Reason'),
    reason,
    h('p', { id: 'bank-reason-hint', class: 'hint' }, 'Required to reject, and shown to the integrator as the rejection reason. Recorded in the audit trail either way.'),
    reasonError,
    h('div', { class: 'decision-buttons', role: 'group', 'aria-label': 'Bank account decisions' }, outcomes.map((o) => buttons.get(o)!)),
    confirmStep.element,
    available,
    problemBox,
  );

  function refreshButtons(focusConfirm = false): void {
    const open = status === 'pending_review';
    if (open && armed === 'approve') confirmStep.show('Approve this bank account? It becomes verified, and withdrawals may be paid to it.', 'Confirm approval', focusConfirm);
    else confirmStep.hide();
    confirmStep.setBusy(busy);
    for (const [o, button] of buttons) {
      button.disabled = busy || !open;
      button.classList.toggle('armed', armed === o);
    }
    reason.disabled = !open;
    element.setAttribute('aria-busy', String(busy));
    available.textContent = open ? 'Approve makes it verified (withdrawals may be paid to it); Reject makes it rejected.' : `No decision applies: the bank account is ${BANK_ACCOUNT_STATUS_LABELS[status].toLowerCase()}.`;
  }

  /** `confirmed`: the second step (its button, or Ctrl+Enter in the form), never the first key press. */
  async function submit(outcome: BankAccountOutcome, confirmed: boolean): Promise<void> {
    if (busy) return;
    if (outcome === 'approve' && !confirmed) return arm(outcome);
    problemBox.hidden = true;
    clearReasonError();
    const text = reason.value.trim();
    if (outcome === 'reject' && !text) {
      armed = outcome;
      refreshButtons();
      return showReasonError('A reason is required to reject.');
    }
    if (text.length > MAX_REASON_LENGTH) return showReasonError(`The reason is at most ${MAX_REASON_LENGTH} characters.`);
    busy = true;
    refreshButtons();
    try {
      await options.decide(outcome, text);
      reason.value = '';
      armed = null;
    } catch (err) {
      showProblem(problemBox, err instanceof ApiProblem ? err.problem : { title: 'The decision failed', status: 0, detail: String(err) });
    } finally {
      busy = false;
      refreshButtons();
    }
  }

  function arm(outcome: BankAccountOutcome): void {
    if (status !== 'pending_review') return;
    armed = outcome;
    refreshButtons(outcome === 'approve');
    if (outcome === 'reject') reason.focus();
  }

  refreshButtons();
  return {
    element,
    setStatus(next) {
      status = next;
      if (status !== 'pending_review') armed = null;
      refreshButtons();
    },
    arm,
  };
}
