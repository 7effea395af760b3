import type { ApiClient } from '../api';
import { fill, h } from '../dom';
import { age, cryptoAmount, dateTime, money, timeOfDay, TRANSACTION_STATUS_LABELS } from '../format';
import { setPageBindings } from '../keyboard';
import { DEPOSIT_STATUSES, type DepositListItem, type DepositPage, type DepositStatus } from '../money-types';
import { poll } from '../poller';
import { DEPOSIT_REFERENCE, hrefFor, navigate, type DepositsRoute } from '../router';
import { integratorLabel } from './bank-accounts';
import { listKeys, liveLoader, markSelected, pageTurner } from './live-list';
import { transactionBadge } from './status-badge';

const PAGE_SIZE = 50;
const REFRESH_MS = 10_000;

/**
 * Where the operator was, kept across visits so Esc or Back from a deposit returns to the same page and row. Pages are
 * the API's keyset cursors, as in the review queue: `cursors` is the stack of the `startingAfter` of the pages before
 * this one, the last being this page's.
 */
const memory = { key: '', cursors: [null] as (string | null)[], selectedReference: null as string | null };
let lastRoute: DepositsRoute = { name: 'deposits' };

/** The list as the operator left it (its filter): the header link's and the deposit page's way back. */
export function lastDepositsRoute(): DepositsRoute {
  return lastRoute;
}

/**
 * The form that finds one deposit by the reference its sender quoted (bank statements are often typed in lower case,
 * with spaces): checked here first, then #/deposit/<reference>. On the list and on a deposit's page.
 */
export function depositLookupForm(initial = ''): { element: HTMLFormElement; input: HTMLInputElement } {
  const input = h('input', {
    id: 'deposit-reference',
    name: 'reference',
    type: 'text',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'DEP-…',
    value: initial,
    'aria-describedby': 'deposit-reference-hint deposit-reference-error',
  });
  const fieldError = h('p', { id: 'deposit-reference-error', class: 'field-error', role: 'alert' });
  const element = h(
    'form',
    { class: 'filters deposit-lookup', role: 'search', 'aria-label': 'Find a deposit', novalidate: true },
    h(
      'div',
      { class: 'field grow' },
      h('label', { for: 'deposit-reference' }, 'Deposit reference'),
      input,
      h('p', { id: 'deposit-reference-hint', class: 'hint' }, 'As quoted on the bank transfer: DEP- and 12 letters and digits.'),
      fieldError,
    ),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button primary' }, 'Look up')),
  );
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    const reference = input.value.replace(/\s+/g, '').toUpperCase();
    if (!DEPOSIT_REFERENCE.test(reference)) {
      fieldError.textContent = 'A deposit reference is DEP- followed by 12 letters and digits.';
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
    fieldError.textContent = '';
    input.removeAttribute('aria-invalid');
    navigate({ name: 'deposit', reference });
  });
  return { element, input };
}

const FILTERS: { value: DepositStatus | ''; label: string }[] = [{ value: '', label: 'Every status' }, ...DEPOSIT_STATUSES.map((value) => ({ value, label: TRANSACTION_STATUS_LABELS[value] }))];

/** "1,500.00 USD", and what arrived beside it when that differs from what was asked. */
function fiatCell(d: DepositListItem['deposit']): HTMLTableCellElement {
  const received = d.receivedAmount !== null && d.receivedAmount !== d.amount ? h('span', { class: 'muted received' }, h('br'), `received ${money(d.receivedAmount, d.currency)}`) : null;
  return h('td', { class: 'amount' }, money(d.amount, d.currency), received);
}

/**
 * Every integrator's deposits, newest first, 50 a page with the API's cursor, in one status or all (in the address:
 * #/deposits?status=funds_in_transfer), with the lookup by reference above them. Each row links to the deposit's page.
 * Refreshed every 10 s like the other lists; only a change is redrawn, so the selection stays put.
 */
export function mountDeposits(main: HTMLElement, api: ApiClient, route: DepositsRoute): () => void {
  const key = route.status ?? '';
  if (memory.key !== key) Object.assign(memory, { key, cursors: [null], selectedReference: null });
  lastRoute = route;
  let page: DepositPage | null = null;
  let selected = -1;

  const lookup = depositLookupForm();
  const statusSelect = h(
    'select',
    { id: 'deposit-status-filter', name: 'status' },
    FILTERS.map((f) => h('option', { value: f.value, selected: f.value === key }, f.label)),
  );
  statusSelect.addEventListener('change', () => {
    const value = statusSelect.value as DepositStatus | '';
    navigate({ name: 'deposits', ...(value ? { status: value } : {}) });
  });
  const filters = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': 'Filter the deposits', novalidate: true, onsubmit: (event: Event) => event.preventDefault() },
    h('div', { class: 'field' }, h('label', { for: 'deposit-status-filter' }, 'Status'), statusSelect),
  );

  const tbody = h('tbody');
  const table = h(
    'table',
    { class: 'queue deposits', 'aria-describedby': 'deposits-summary' },
    h('caption', { class: 'visually-hidden' }, 'Deposits, newest first'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Reference'),
        h('th', { scope: 'col' }, 'Integrator'),
        h('th', { scope: 'col', class: 'amount' }, 'Amount'),
        h('th', { scope: 'col', class: 'amount' }, 'Pays out'),
        h('th', { scope: 'col' }, 'Status'),
        h('th', { scope: 'col' }, 'Created'),
      ),
    ),
    tbody,
  );
  const summary = h('p', { id: 'deposits-summary', class: 'muted' });
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const previous = h('button', { type: 'button', class: 'button', 'aria-keyshortcuts': 'p', onclick: () => goPage(-1) }, '← Previous');
  const next = h('button', { type: 'button', class: 'button', 'aria-keyshortcuts': 'n', onclick: () => goPage(1) }, 'Next →');
  const pageLabel = h('span', { class: 'page-label' });
  const updated = h('span', { class: 'muted updated' });

  fill(
    main,
    h('div', { class: 'page-head' }, h('h1', { id: 'page-title', tabindex: '-1' }, 'Deposits'), updated),
    h('p', { class: 'muted intro' }, 'A deposit pays crypto from the treasury once its bank transfer has arrived. Find one by the reference its sender quoted, or open it from the list.'),
    lookup.element,
    filters,
    problem,
    h('div', { class: 'table-wrap' }, table),
    h('nav', { class: 'pager', 'aria-label': 'Pages' }, previous, pageLabel, next),
    summary,
  );
  document.title = 'Deposits · Review console';

  function select(index: number, focus: boolean): void {
    const marked = markSelected(tbody, 'tr[data-reference]', index, focus);
    if (!marked) return;
    selected = marked.index;
    memory.selectedReference = marked.row.dataset.reference ?? null;
  }

  function open(index = selected): void {
    const item = page?.data[index];
    if (item) navigate({ name: 'deposit', reference: item.deposit.reference });
  }

  function row(item: DepositListItem, index: number): HTMLTableRowElement {
    const d = item.deposit;
    const tr = h(
      'tr',
      { dataset: { reference: d.reference, status: item.status } },
      h('td', {}, h('a', { class: 'row-link', href: hrefFor({ name: 'deposit', reference: d.reference }) }, h('code', {}, d.reference))),
      h('td', {}, integratorLabel(item)),
      fiatCell(d),
      h('td', { class: 'amount crypto' }, cryptoAmount(d.cryptoAmount, d.asset, item.chainId)),
      h('td', {}, transactionBadge(item.status)),
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
    const pageNumber = memory.cursors.length;
    if (page.data.length === 0) {
      const empty = pageNumber > 1 ? 'No more deposits on this page.' : key ? `No deposits with status “${TRANSACTION_STATUS_LABELS[key]}”.` : 'No deposits yet.';
      fill(tbody, h('tr', {}, h('td', { colspan: '6', class: 'empty' }, empty)));
    } else {
      fill(tbody, page.data.map(row));
    }
    previous.disabled = pageNumber <= 1;
    next.disabled = !page.hasMore;
    pageLabel.textContent = `Page ${pageNumber}`;
    const first = (pageNumber - 1) * PAGE_SIZE + 1;
    summary.textContent = page.data.length ? `Deposits ${first}–${first + page.data.length - 1}${page.hasMore ? ', more on the next pages' : ''}. Newest first.` : '';
    updated.textContent = `Updated ${timeOfDay()}`;
    const index = page.data.findIndex((d) => d.deposit.reference === memory.selectedReference);
    select(index === -1 ? 0 : index, focus || hadFocus);
  }

  const loader = liveLoader({
    table,
    problem,
    updated,
    what: 'deposits',
    fetch: (signal) => {
      const startingAfter = memory.cursors.at(-1);
      return api.deposits({ limit: PAGE_SIZE, ...(route.status ? { status: route.status } : {}), ...(startingAfter ? { startingAfter } : {}) }, signal);
    },
    received: (result) => (page = result),
    show: render,
  });

  const goPage = pageTurner({ cursors: () => memory.cursors, page: () => page, clearSelection: () => (memory.selectedReference = null), load: () => loader.load(true), noun: 'deposits' });

  setPageBindings({
    ...listKeys((by) => select(selected + by, true), () => open()),
    n: () => goPage(1),
    p: () => goPage(-1),
    '/': () => lookup.input.focus(),
  });

  void loader.load(true).catch(() => {});
  const stopPolling = poll(() => loader.load(false), REFRESH_MS);
  return () => {
    stopPolling();
    loader.abort();
    setPageBindings({});
  };
}
