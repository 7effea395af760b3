import { announce } from '../announce';
import type { ApiClient } from '../api';
import { ApiProblem } from '../api';
import { h, fill, type Children } from '../dom';
import { chainName, cryptoAmount, dateTime, money, PAYOUT_STATUS_LABELS, railAndCurrency, TRANSACTION_STATUS_LABELS } from '../format';
import { setPageBindings } from '../keyboard';
import { hrefFor, navigate, type WithdrawalRoute } from '../router';
import type { Payout, PayoutStep, Transaction } from '../types';
import { integratorLabel } from './bank-accounts';
import { createPayoutForm } from './payout-form';
import { payoutBadge } from './status-badge';
import { followRecord, liveRecord } from './live-list';
import { lastWithdrawalsRoute } from './withdrawals';

const REFRESH_MS = 3_000;

const none = () => h('span', { class: 'muted' }, '—');

function detailList(rows: [string, Children][]): HTMLElement {
  return h('dl', { class: 'details' }, rows.map(([term, value]) => [h('dt', {}, term), h('dd', {}, value ?? none())]));
}

/**
 * A value with a Copy button beside it, for what the operator types into the bank's form. The button is left out
 * where the browser has no clipboard API (a page not served over HTTPS or from localhost).
 */
export function copyable(label: string, value: string, display: Children = h('code', {}, value)): HTMLElement {
  const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
  const button = clipboard
    ? h(
        'button',
        {
          type: 'button',
          class: 'link-button copy',
          'aria-label': `Copy ${label.toLowerCase()}`,
          onclick: () =>
            void clipboard.writeText(value).then(
              () => announce(`${label} copied.`),
              () => announce(`The ${label.toLowerCase()} could not be copied; select it instead.`, 'error'),
            ),
        },
        'Copy',
      )
    : null;
  return h('span', { class: 'copy-value' }, display, button);
}

/** What the bank transfer needs, in full: this is the operator making the payment. */
function transferDetails(p: Payout): HTMLElement {
  const b = p.beneficiary;
  const rows: [string, Children][] = [
    ['Amount', copyable('Amount', p.amount, h('strong', { class: 'payout-amount' }, money(p.amount, p.currency)))],
    ['Rail', railAndCurrency(p)],
    ['Account holder', copyable('Account holder', b.accountHolderName, h('span', { class: 'beneficiary-name' }, b.accountHolderName))],
  ];
  if (p.rail === 'ach') {
    rows.push(
      ['Routing number', b.routingNumber ? copyable('Routing number', b.routingNumber) : null],
      ['Account number', b.accountNumber ? copyable('Account number', b.accountNumber) : null],
      ['Account type', b.accountType ? b.accountType.charAt(0).toUpperCase() + b.accountType.slice(1) : null],
    );
  } else {
    rows.push(['IBAN', b.iban ? copyable('IBAN', b.iban) : null], ['BIC', b.bic ? copyable('BIC', b.bic) : null]);
  }
  rows.push(['Reference', copyable('Reference', p.reference)]);
  return h(
    'div',
    {},
    detailList(rows),
    h('p', { class: 'hint' }, 'Quote the reference on the transfer. These details are shown in full only to pay this payout: do not keep them anywhere else.'),
  );
}

function withdrawalDetails(t: Transaction): HTMLElement {
  const w = t.withdrawal;
  const rows: [string, Children][] = [
    ['Status', h('span', { id: 'transaction-status', dataset: { status: t.status } }, TRANSACTION_STATUS_LABELS[t.status] ?? t.status)],
    ['Transaction', h('code', {}, t.transactionId)],
    ['Chain', `${chainName(t.chainId)} (${t.chainId})`],
    ['Transaction hash', t.transactionHash ? copyable('Transaction hash', t.transactionHash, h('code', { class: 'tx-hash' }, t.transactionHash)) : null],
    ['Crypto received', w ? h('span', { id: 'crypto-received' }, cryptoAmount(w.cryptoAmount, w.asset, t.chainId)) : null],
    ['Fee', w ? money(w.fee, w.currency) : null],
    ['Account', h('code', {}, t.accountId)],
    ['Created', h('time', { datetime: t.createdAt }, dateTime(t.createdAt))],
  ];
  if (t.failureReason) rows.push(['Failure reason', h('code', {}, t.failureReason)]);
  return detailList(rows);
}

/** The payout's steps, newest first. */
function payoutTimeline(p: Payout): HTMLElement {
  const entries: { status: string; label: string; at: string; reason?: string | null }[] = [{ status: 'pending', label: 'Opened: the crypto reached the treasury', at: p.createdAt }];
  if (p.sentAt) entries.push({ status: 'sent', label: 'Marked sent', at: p.sentAt });
  if (p.settledAt) entries.push({ status: 'settled', label: 'Settled: the withdrawal completed', at: p.settledAt });
  if (p.returnedAt) entries.push({ status: 'returned', label: 'Returned: the withdrawal failed and is refunded', at: p.returnedAt, reason: p.returnReason });
  return h(
    'ol',
    { class: 'timeline', reversed: true },
    entries.reverse().map((e) =>
      h(
        'li',
        { dataset: { status: e.status } },
        h('div', { class: 'timeline-head' }, h('strong', {}, e.label), h('time', { datetime: e.at, class: 'muted' }, dateTime(e.at))),
        e.reason ? h('blockquote', { class: 'reason' }, e.reason) : null,
      ),
    ),
  );
}

/** What a step did, as the server answered it (the withdrawal's transaction). */
function announcement(step: PayoutStep, reference: string, t: Transaction): string {
  const withdrawal = TRANSACTION_STATUS_LABELS[t.status]?.toLowerCase() ?? t.status;
  if (step === 'payout-sent') return `Marked sent: payout ${reference} is now sent; the withdrawal completes when it is settled.`;
  if (step === 'settled') return `Settled: payout ${reference} is settled; the withdrawal is ${withdrawal}.`;
  return `Returned: payout ${reference} is returned; the withdrawal ${t.status === 'failed' ? `failed (${t.failureReason ?? 'failed'})` : `is ${withdrawal}`} and its crypto is refunded to the wallet.`;
}

/**
 * One withdrawal's payout: what the bank transfer needs (the beneficiary's full details), the on-chain side, the
 * payout's steps, and Mark sent / Settled / Returned. Polled, so a step taken elsewhere (another operator, a
 * bank-rail integration) shows up; what the operator typed is never reset by a refresh.
 */
export function mountWithdrawal(main: HTMLElement, api: ApiClient, route: WithdrawalRoute): () => void {
  let current: Payout | null = null;
  /** The status this operator's own step led to: already announced, not a change made elsewhere. */
  let moved: string | null = null;
  const listRoute = lastWithdrawalsRoute();

  const back = h('a', { href: hrefFor(listRoute), class: 'back', 'aria-keyshortcuts': 'Escape' }, '← Withdrawals');
  const title = h('h1', { id: 'page-title', tabindex: '-1' }, route.reference);
  const badgeSlot = h('span', { class: 'badge-slot' });
  const meta = h('p', { class: 'muted case-meta' });
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const transferSlot = h('div');
  const withdrawalSlot = h('div');
  const historySlot = h('div');
  const STATUS_AFTER: Record<PayoutStep, string> = { 'payout-sent': 'sent', settled: 'settled', returned: 'returned' };
  const form = createPayoutForm({
    async move(step, reason) {
      let result;
      try {
        result = await api.movePayout(route.reference, step, step === 'returned' ? { reason } : {});
      } catch (err) {
        // Moved elsewhere meanwhile: show where it is now, beside the problem.
        if (err instanceof ApiProblem && err.status === 409) void record.refresh().catch(() => {});
        throw err;
      }
      moved = STATUS_AFTER[step];
      announce(announcement(step, route.reference, result));
      await record.refresh().catch(() => {});
    },
  });

  const layout = h(
    'div',
    { class: 'case', hidden: true },
    h(
      'div',
      { class: 'case-main' },
      h('section', { class: 'card transfer', 'aria-labelledby': 'transfer-title' }, h('h2', { id: 'transfer-title' }, 'Bank transfer'), transferSlot),
      h('section', { class: 'card', 'aria-labelledby': 'withdrawal-title' }, h('h2', { id: 'withdrawal-title' }, 'Withdrawal'), withdrawalSlot),
    ),
    h('aside', { class: 'case-side' }, form.element, h('section', { class: 'card', 'aria-labelledby': 'history-title' }, h('h2', { id: 'history-title' }, 'History'), historySlot)),
  );

  fill(main, h('nav', { class: 'breadcrumb', 'aria-label': 'Breadcrumb' }, back), h('div', { class: 'page-head' }, title, badgeSlot), meta, problem, layout);
  document.title = `${route.reference} · Withdrawals · Review console`;

  function render(p: Payout): void {
    const statusChanged = current !== null && current.status !== p.status;
    current = p;
    fill(badgeSlot, payoutBadge(p.status, 'payout-status'));
    fill(meta, `${money(p.amount, p.currency)} by ${p.rail.toUpperCase()} to ${p.beneficiary.accountHolderName}`, ' · Integrator ', integratorLabel(p));
    fill(transferSlot, transferDetails(p));
    fill(withdrawalSlot, withdrawalDetails(p.transaction));
    fill(historySlot, payoutTimeline(p));
    form.setStatus(p.status);
    layout.hidden = false;
    if (statusChanged && p.status !== moved) announce(`Status changed: ${PAYOUT_STATUS_LABELS[p.status]}.`);
    moved = null;
  }

  const record = liveRecord({ problem, layout, noun: 'payout', fetch: (signal) => api.getPayout(route.reference, signal), show: render });


  setPageBindings({ Escape: () => navigate(listRoute) });

  return followRecord(record, title, REFRESH_MS);
}
