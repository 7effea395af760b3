import type { ApiClient } from '../api';
import { fill, h } from '../dom';
import { age, dateTime, money, railAndCurrency, timeOfDay } from '../format';
import { setPageBindings } from '../keyboard';
import { poll } from '../poller';
import { hrefFor, navigate, type WithdrawalsRoute } from '../router';
import type { OpenPayoutStatus, Payout, PayoutPage } from '../types';
import { integratorLabel } from './bank-accounts';
import { listKeys, liveLoader, markSelected } from './live-list';
import { payoutBadge } from './status-badge';

/** The API's most: the list has no cursor, so the oldest 100 are shown and the rest follow as these are settled. */
const PAGE_SIZE = 100;
const REFRESH_MS = 10_000;

const FILTERS: { value: OpenPayoutStatus | ''; label: string }[] = [
  { value: '', label: 'Pending and sent' },
  { value: 'pending', label: 'Pending (to pay)' },
  { value: 'sent', label: 'Sent (to confirm)' },
];
const EMPTY: Record<OpenPayoutStatus | '', string> = {
  '': 'No payouts to make or to confirm.',
  pending: 'No payouts to make.',
  sent: 'No payouts waiting for confirmation.',
};

/** "12 min ago", "just now". */
export const ago = (iso: string) => {
  const a = age(iso);
  return a === 'just now' ? a : `${a} ago`;
};

/** The row last opened, so Esc or Back from a payout returns to it. */
let selectedReference: string | null = null;
/** The list as the operator left it (its filter): the header link's and the payout page's way back. */
let lastRoute: WithdrawalsRoute = { name: 'withdrawals' };

export function lastWithdrawalsRoute(): WithdrawalsRoute {
  return lastRoute;
}

/**
 * Withdrawals' fiat payouts still open, every integrator's, oldest first: pending ones to pay, sent ones to
 * confirm (settled or returned). Refreshed every 10 s like the other lists; only a change is redrawn, so the
 * selection stays put. The filter is in the address (#/withdrawals?status=pending).
 */
export function mountWithdrawals(main: HTMLElement, api: ApiClient, route: WithdrawalsRoute): () => void {
  lastRoute = route;
  const filter = route.status ?? '';
  let page: PayoutPage | null = null;
  let selected = -1;

  const statusSelect = h(
    'select',
    { id: 'payout-status-filter', name: 'status' },
    FILTERS.map((f) => h('option', { value: f.value, selected: f.value === filter }, f.label)),
  );
  statusSelect.addEventListener('change', () => {
    const value = statusSelect.value as OpenPayoutStatus | '';
    navigate({ name: 'withdrawals', ...(value ? { status: value } : {}) });
  });
  const filters = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': 'Filter the payouts', novalidate: true, onsubmit: (event: Event) => event.preventDefault() },
    h('div', { class: 'field' }, h('label', { for: 'payout-status-filter' }, 'Status'), statusSelect),
  );

  const tbody = h('tbody');
  const table = h(
    'table',
    { class: 'queue withdrawals', 'aria-describedby': 'withdrawals-summary' },
    h('caption', { class: 'visually-hidden' }, 'Withdrawal payouts to make or to confirm, oldest first'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Reference'),
        h('th', { scope: 'col', class: 'amount' }, 'Amount'),
        h('th', { scope: 'col' }, 'Rail'),
        h('th', { scope: 'col' }, 'Holder name'),
        h('th', { scope: 'col' }, 'Integrator'),
        h('th', { scope: 'col' }, 'Status'),
        h('th', { scope: 'col' }, 'Waiting'),
      ),
    ),
    tbody,
  );
  const summary = h('p', { id: 'withdrawals-summary', class: 'muted' });
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const updated = h('span', { class: 'muted updated' });

  fill(
    main,
    h('div', { class: 'page-head' }, h('h1', { id: 'page-title', tabindex: '-1' }, 'Withdrawals'), updated),
    h('p', { class: 'muted intro' }, 'Fiat payouts of withdrawals whose crypto has reached the treasury. Pay the pending ones by bank transfer, then confirm each as settled or returned.'),
    filters,
    problem,
    h('div', { class: 'table-wrap' }, table),
    summary,
  );
  document.title = 'Withdrawals · Review console';

  function select(index: number, focus: boolean): void {
    const marked = markSelected(tbody, 'tr[data-reference]', index, focus);
    if (!marked) return;
    selected = marked.index;
    selectedReference = marked.row.dataset.reference ?? null;
  }

  function open(index = selected): void {
    const item = page?.data[index];
    if (item) navigate({ name: 'withdrawal', reference: item.reference });
  }

  function row(item: Payout, index: number): HTMLTableRowElement {
    const tr = h(
      'tr',
      { dataset: { reference: item.reference } },
      h('td', {}, h('a', { class: 'row-link', href: hrefFor({ name: 'withdrawal', reference: item.reference }) }, h('code', {}, item.reference))),
      h('td', { class: 'amount' }, money(item.amount, item.currency)),
      h('td', {}, railAndCurrency(item)),
      h('td', {}, item.beneficiary.accountHolderName),
      h('td', {}, integratorLabel(item)),
      h('td', {}, payoutBadge(item.status), item.sentAt ? h('span', { class: 'muted sent-at' }, ' ', h('time', { datetime: item.sentAt, title: dateTime(item.sentAt) }, ago(item.sentAt))) : null),
      h('td', {}, h('time', { datetime: item.createdAt, title: dateTime(item.createdAt) }, age(item.createdAt))),
    );
    tr.addEventListener('click', (event) => {
      if ((event.target as Element).closest('a, button')) return;
      select(index, false);
      open(index);
    });
    return tr;
  }

  function render(focus: boolean): void {
    if (!page) return;
    const hadFocus = tbody.contains(document.activeElement);
    if (page.data.length === 0) fill(tbody, h('tr', {}, h('td', { colspan: '7', class: 'empty' }, EMPTY[filter])));
    else fill(tbody, page.data.map(row));
    const n = page.data.length;
    summary.textContent = n ? `${n} payout${n > 1 ? 's' : ''}${page.hasMore ? `; more after these ${n}, shown as these are settled` : ''}. Oldest first.` : '';
    updated.textContent = `Updated ${timeOfDay()}`;
    const index = page.data.findIndex((d) => d.reference === selectedReference);
    select(index === -1 ? 0 : index, focus || hadFocus);
  }

  const loader = liveLoader({
    table,
    problem,
    updated,
    what: 'payouts',
    fetch: (signal) => api.payouts({ ...(route.status ? { status: route.status } : {}), limit: PAGE_SIZE }, signal),
    received: (result) => (page = result),
    show: render,
  });

  setPageBindings({ ...listKeys((by) => select(selected + by, true), () => open()), '/': () => statusSelect.focus() });

  void loader.load(true).catch(() => {});
  const stopPolling = poll(() => loader.load(false), REFRESH_MS);
  return () => {
    stopPolling();
    loader.abort();
    setPageBindings({});
  };
}
