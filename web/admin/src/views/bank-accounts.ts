import type { ApiClient } from '../api';
import { fill, h } from '../dom';
import { age, dateTime, maskedNumber, railAndCurrency, timeOfDay } from '../format';
import { integratorNames, rememberIntegrator } from '../integrators';
import { setPageBindings } from '../keyboard';
import { poll } from '../poller';
import { hrefFor, navigate } from '../router';
import type { BankAccountCase, BankAccountCasePage } from '../types';
import { listKeys, liveLoader, markSelected } from './live-list';

/** The API's most: the list has no cursor, so the oldest 100 are shown and the rest follow as these are decided. */
const PAGE_SIZE = 100;
const REFRESH_MS = 10_000;

/** The row last opened, so Esc or Back from a bank account returns to it. */
let selectedId: string | null = null;

/** Since when it has waited: its move into pending_review (its creation, so far), else its last change. */
export function waitingSince(b: BankAccountCase): string {
  return b.history.findLast((e) => e.toStatus === 'pending_review')?.at ?? b.updatedAt;
}

/** The integrator's name as the API gives it (remembered for the queue's filter), with its id on hover. */
export function integratorLabel(item: { integratorId: string; integratorName: string }): HTMLElement | string {
  if (item.integratorName) rememberIntegrator(item.integratorId, item.integratorName);
  const name = item.integratorName || integratorNames.get(item.integratorId);
  return name ? h('span', { title: item.integratorId }, name) : h('code', { title: item.integratorId }, `${item.integratorId.slice(0, 8)}…`);
}

/**
 * Bank accounts whose holder name did not match the KYC or company name, every integrator's, longest waiting
 * first. Refreshed every 10 s like the review queue; only a change is redrawn, so the selection stays put.
 */
export function mountBankAccounts(main: HTMLElement, api: ApiClient): () => void {
  let page: BankAccountCasePage | null = null;
  let selected = -1;

  const tbody = h('tbody');
  const table = h(
    'table',
    { class: 'queue bank-accounts', 'aria-describedby': 'bank-accounts-summary' },
    h('caption', { class: 'visually-hidden' }, 'Bank accounts waiting for review, longest waiting first'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Holder name'),
        h('th', { scope: 'col' }, 'Expected names'),
        h('th', { scope: 'col' }, 'Rail'),
        h('th', { scope: 'col' }, 'Account'),
        h('th', { scope: 'col' }, 'Integrator'),
        h('th', { scope: 'col' }, 'Waiting'),
      ),
    ),
    tbody,
  );
  const summary = h('p', { id: 'bank-accounts-summary', class: 'muted' });
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const updated = h('span', { class: 'muted updated' });

  fill(
    main,
    h('div', { class: 'page-head' }, h('h1', { id: 'page-title', tabindex: '-1' }, 'Bank accounts'), updated),
    h('p', { class: 'muted intro' }, 'Holder names that did not match the KYC or company name. Compare them, then approve or reject.'),
    problem,
    h('div', { class: 'table-wrap' }, table),
    summary,
  );
  document.title = 'Bank accounts · Review console';

  function select(index: number, focus: boolean): void {
    const marked = markSelected(tbody, 'tr[data-bank-account-id]', index, focus);
    if (!marked) return;
    selected = marked.index;
    selectedId = marked.row.dataset.bankAccountId ?? null;
  }

  function open(index = selected): void {
    const item = page?.data[index];
    if (item) navigate({ name: 'bank-account', bankAccountId: item.bankAccountId });
  }

  function row(item: BankAccountCase, index: number): HTMLTableRowElement {
    const since = waitingSince(item);
    const tr = h(
      'tr',
      { dataset: { bankAccountId: item.bankAccountId } },
      h('td', {}, h('a', { class: 'row-link', href: hrefFor({ name: 'bank-account', bankAccountId: item.bankAccountId }) }, item.accountHolderName)),
      h('td', { class: 'expected-names' }, item.expectedHolderNames.length ? item.expectedHolderNames.join(' · ') : h('span', { class: 'muted' }, 'none on record')),
      h('td', {}, railAndCurrency(item)),
      h('td', {}, maskedNumber(item.last4)),
      h('td', {}, integratorLabel(item)),
      h('td', {}, h('time', { datetime: since, title: dateTime(since) }, age(since))),
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
    if (page.data.length === 0) fill(tbody, h('tr', {}, h('td', { colspan: '6', class: 'empty' }, 'No bank accounts are waiting for review.')));
    else fill(tbody, page.data.map(row));
    const n = page.data.length;
    summary.textContent = n ? `${n} bank account${n > 1 ? 's' : ''} waiting${page.hasMore ? `; more after these ${n}, shown as these are decided` : ''}. Longest waiting first.` : '';
    updated.textContent = `Updated ${timeOfDay()}`;
    const index = page.data.findIndex((d) => d.bankAccountId === selectedId);
    select(index === -1 ? 0 : index, focus || hadFocus);
  }

  const loader = liveLoader({
    table,
    problem,
    updated,
    what: 'bank accounts',
    fetch: (signal) => api.bankAccountReviews(PAGE_SIZE, signal),
    received: (result) => (page = result),
    show: render,
  });

  setPageBindings(listKeys((by) => select(selected + by, true), () => open()));

  void loader.load(true).catch(() => {});
  const stopPolling = poll(() => loader.load(false), REFRESH_MS);
  return () => {
    stopPolling();
    loader.abort();
    setPageBindings({});
  };
}
