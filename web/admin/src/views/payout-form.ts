import { ApiProblem } from '../api';
import { h } from '../dom';
import { reasonFeedback, showProblem } from './form-feedback';
import { PAYOUT_STATUS_LABELS } from '../format';
import type { PayoutStatus, PayoutStep } from '../types';

const LABELS: Record<PayoutStep, string> = { 'payout-sent': 'Mark sent', settled: 'Settled', returned: 'Returned' };
const TONE: Record<PayoutStep, string> = { 'payout-sent': 'primary', settled: '', returned: 'danger' };
/** The statuses each step moves a payout from, as the server's state machine. */
const FROM: Record<PayoutStep, readonly PayoutStatus[]> = { 'payout-sent': ['pending'], settled: ['pending', 'sent'], returned: ['pending', 'sent'] };
/** As the server's schema: one reason of 1 to 500 characters. */
const MAX_REASON_LENGTH = 500;

export interface PayoutForm {
  element: HTMLElement;
  /** Enables the steps the payout's status allows; the reason typed so far is kept. */
  setStatus(status: PayoutStatus): void;
}

/**
 * Mark sent (pending only), Settled and Returned (pending or sent). A return needs the reason the bank gave
 * (checked here, then again by the server); the server decides, and its problem (409 invalid_transaction_state
 * when the payout moved meanwhile, 400 naming /reason) is shown as it comes. No single-key shortcuts: these move
 * money, so each is a deliberate click.
 */
export function createPayoutForm(options: { move: (step: PayoutStep, reason: string) => Promise<void> }): PayoutForm {
  let status: PayoutStatus = 'pending';
  let busy = false;

  const reason = h('textarea', { id: 'payout-reason', name: 'reason', rows: '3', maxlength: String(MAX_REASON_LENGTH), 'aria-describedby': 'payout-reason-hint payout-reason-error' });
  const reasonError = h('p', { id: 'payout-reason-error', class: 'field-error', role: 'alert' });
  const problemBox = h('div', { class: 'problem', role: 'alert', hidden: true, id: 'payout-problem' });
  const { show: showReasonError, clear: clearReasonError } = reasonFeedback(reason, reasonError);
  const available = h('p', { class: 'hint', id: 'payout-steps-available' });
  const steps: PayoutStep[] = ['payout-sent', 'settled', 'returned'];
  const buttons = new Map<PayoutStep, HTMLButtonElement>(
    steps.map((step) => [step, h('button', { type: 'button', class: `button ${TONE[step]}`.trim(), dataset: { step }, onclick: () => void submit(step) }, LABELS[step])]),
  );

  reason.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit('returned');
    }
  });
  reason.addEventListener('input', () => {
    if (reason.value.trim()) clearReasonError();
  });

  const element = h(
    'section',
    { class: 'card decision', 'aria-labelledby': 'payout-actions-title' },
    h('h2', { id: 'payout-actions-title' }, 'Payout'),
    h('div', { class: 'decision-buttons', role: 'group', 'aria-label': 'Payout steps' }, steps.map((s) => buttons.get(s)!)),
    available,
    h('label', { for: 'payout-reason' }, 'Return reason'),
    reason,
    h('p', { id: 'payout-reason-hint', class: 'hint' }, 'Required for Returned: why the bank sent the transfer back. The withdrawal then fails and its crypto is refunded to the wallet. Ctrl+Enter sends it as Returned.'),
    reasonError,
    problemBox,
  );

  function refreshButtons(): void {
    for (const [step, button] of buttons) button.disabled = busy || !FROM[step].includes(status);
    const open = status === 'pending' || status === 'sent';
    reason.disabled = !open;
    element.setAttribute('aria-busy', String(busy));
    available.textContent =
      status === 'pending'
        ? 'Mark sent once the bank transfer has left; Settled when it has arrived (the withdrawal completes); Returned if the bank sent it back.'
        : status === 'sent'
          ? 'Settled when the transfer has arrived (the withdrawal completes); Returned if the bank sent it back.'
          : `Nothing left to do: the payout is ${PAYOUT_STATUS_LABELS[status].toLowerCase()}.`;
  }

  async function submit(step: PayoutStep): Promise<void> {
    if (busy) return;
    problemBox.hidden = true;
    clearReasonError();
    const text = reason.value.trim();
    if (step === 'returned' && !text) return showReasonError('A reason is required to mark the payout returned.');
    if (text.length > MAX_REASON_LENGTH) return showReasonError(`The reason is at most ${MAX_REASON_LENGTH} characters.`);
    busy = true;
    refreshButtons();
    try {
      await options.move(step, step === 'returned' ? text : '');
      if (step === 'returned') reason.value = '';
    } catch (err) {
      showProblem(problemBox, err instanceof ApiProblem ? err.problem : { title: 'The payout could not be updated', status: 0, detail: String(err) });
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
      refreshButtons();
    },
  };
}
