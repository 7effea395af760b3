import { announce } from '../announce';
import type { ApiClient } from '../api';
import { ApiProblem } from '../api';
import { h, fill, type Children } from '../dom';
import { BANK_ACCOUNT_STATUS_LABELS, dateTime, maskedNumber, railAndCurrency } from '../format';
import { setPageBindings } from '../keyboard';
import { hrefFor, navigate, type BankAccountRoute } from '../router';
import type { Address, BankAccountCase, Operator } from '../types';
import { createBankAccountForm } from './bank-account-form';
import { integratorLabel } from './bank-accounts';
import { bankAccountTimeline } from './history';
import { bankAccountBadge } from './status-badge';
import { followRecord, liveRecord } from './live-list';

const REFRESH_MS = 3_000;
const OUTCOME_LABELS = { approve: 'Approved', reject: 'Rejected' } as const;

const none = () => h('span', { class: 'muted' }, '—');

function address(a: Address | null): Children {
  if (!a) return none();
  const lines = [a.streetLine1, a.streetLine2, [[a.city, a.state].filter(Boolean).join(', '), a.postalCode].filter(Boolean).join(' '), a.country].filter((l): l is string => typeof l === 'string' && l !== '');
  return h('address', {}, lines.map((l, i) => [i > 0 ? h('br') : null, l]));
}

function detailList(rows: [string, Children][]): HTMLElement {
  return h('dl', { class: 'details' }, rows.map(([term, value]) => [h('dt', {}, term), h('dd', {}, value ?? none())]));
}

/** The holder name beside the names it was compared with: what the operator decides on. */
function nameComparison(b: BankAccountCase): HTMLElement {
  return h(
    'div',
    { class: 'name-compare' },
    h('div', { class: 'name-side' }, h('h3', { id: 'holder-name-label' }, 'Holder name on the bank account'), h('p', { class: 'holder-name', 'aria-labelledby': 'holder-name-label' }, b.accountHolderName)),
    h(
      'div',
      { class: 'name-side' },
      h('h3', { id: 'expected-names-label' }, 'Expected (KYC or company names)'),
      b.expectedHolderNames.length
        ? h('ul', { class: 'expected-names', 'aria-labelledby': 'expected-names-label' }, b.expectedHolderNames.map((n) => h('li', {}, n)))
        : h('p', { class: 'muted' }, 'No name on record for this account.'),
    ),
  );
}

function bankDetails(b: BankAccountCase): HTMLElement {
  const rows: [string, Children][] = [
    ['Rail and currency', railAndCurrency(b)],
    ['Bank', b.bankName],
    [b.rail === 'sepa' ? 'IBAN' : 'Account number', h('span', { class: 'masked', title: 'Only the last four characters are ever shown' }, maskedNumber(b.last4))],
  ];
  if (b.rail === 'ach') rows.push(['Routing number', b.routingNumber ? h('code', {}, b.routingNumber) : null], ['Account type', b.accountType ? b.accountType.charAt(0).toUpperCase() + b.accountType.slice(1) : null]);
  else rows.push(['IBAN country', b.ibanCountry], ['BIC', b.bic ? h('code', {}, b.bic) : null]);
  rows.push(
    ['Address', address(b.address)],
    ['Account', h('code', {}, b.accountId)],
    ['Added', h('time', { datetime: b.createdAt }, dateTime(b.createdAt))],
    ['Last change', h('time', { datetime: b.updatedAt }, dateTime(b.updatedAt))],
  );
  if (b.rejectionReason) rows.push(['Rejection reason', h('span', { class: 'rejection-reason' }, b.rejectionReason)]);
  if (b.removedAt) rows.push(['Removed', h('time', { datetime: b.removedAt }, dateTime(b.removedAt))]);
  return detailList(rows);
}

/**
 * One bank account under review: the holder name beside the expected names, the bank details (never more than
 * the last four characters of the number: the API does not send more), the history, and Approve / Reject. Polled,
 * so another operator's decision shows up; what the operator typed is never reset by a refresh.
 */
export function mountBankAccount(main: HTMLElement, api: ApiClient, route: BankAccountRoute, operator: Operator): () => void {
  let current: BankAccountCase | null = null;
  /** The status this operator's own decision led to: already announced, not a change made elsewhere. */
  let decided: string | null = null;
  const operatorNames = new Map([[operator.operatorId, operator.name]]);
  const listRoute = { name: 'bank-accounts' } as const;

  const back = h('a', { href: hrefFor(listRoute), class: 'back', 'aria-keyshortcuts': 'Escape' }, '← Bank accounts');
  const title = h('h1', { id: 'page-title', tabindex: '-1' }, 'Bank account');
  const badgeSlot = h('span', { class: 'badge-slot' });
  const meta = h('p', { class: 'muted case-meta' });
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const compareSlot = h('div');
  const detailsSlot = h('div');
  const historySlot = h('div');
  const form = createBankAccountForm({
    async decide(outcome, reason) {
      let result;
      try {
        result = await api.decideBankAccount(route.bankAccountId, { outcome, ...(reason ? { reason } : {}) });
      } catch (err) {
        // Decided elsewhere meanwhile: show where it is now, beside the problem.
        if (err instanceof ApiProblem && err.status === 409) void record.refresh().catch(() => {});
        throw err;
      }
      decided = result.status;
      announce(`${OUTCOME_LABELS[outcome]}: the bank account is now ${BANK_ACCOUNT_STATUS_LABELS[result.status].toLowerCase()}.`);
      await record.refresh().catch(() => {});
    },
  });

  const layout = h(
    'div',
    { class: 'case', hidden: true },
    h(
      'div',
      { class: 'case-main' },
      h('section', { class: 'card', 'aria-labelledby': 'compare-title' }, h('h2', { id: 'compare-title' }, 'Holder name check'), compareSlot),
      h('section', { class: 'card', 'aria-labelledby': 'bank-details-title' }, h('h2', { id: 'bank-details-title' }, 'Bank details'), detailsSlot),
    ),
    h('aside', { class: 'case-side' }, form.element, h('section', { class: 'card', 'aria-labelledby': 'history-title' }, h('h2', { id: 'history-title' }, 'History'), historySlot)),
  );

  fill(main, h('nav', { class: 'breadcrumb', 'aria-label': 'Breadcrumb' }, back), h('div', { class: 'page-head' }, title, badgeSlot), meta, problem, layout);
  document.title = 'Bank account · Review console';

  function render(b: BankAccountCase): void {
    const statusChanged = current !== null && current.status !== b.status;
    current = b;
    title.textContent = b.accountHolderName;
    document.title = `${b.accountHolderName} · Bank account · Review console`;
    fill(badgeSlot, bankAccountBadge(b.status, 'bank-account-status'));
    fill(meta, `${railAndCurrency(b)} ${maskedNumber(b.last4)}`, ' · Integrator ', integratorLabel(b), ' · Bank account ', h('code', {}, b.bankAccountId));
    fill(compareSlot, nameComparison(b));
    fill(detailsSlot, bankDetails(b));
    fill(historySlot, bankAccountTimeline(b.history, operatorNames));
    form.setStatus(b.status);
    layout.hidden = false;
    if (statusChanged && b.status !== decided) announce(`Status changed: ${BANK_ACCOUNT_STATUS_LABELS[b.status]}.`);
    decided = null;
  }

  const record = liveRecord({ problem, layout, noun: 'bank account', fetch: (signal) => api.getBankAccountCase(route.bankAccountId, signal), show: render });


  setPageBindings({
    // Never a decision on one key press: a shows the approval's confirmation, focused.
    a: () => form.arm('approve'),
    x: () => form.arm('reject'),
    Escape: () => navigate(listRoute),
  });

  return followRecord(record, title, REFRESH_MS);
}
