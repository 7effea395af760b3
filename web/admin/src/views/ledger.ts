import type { ApiClient } from '../api';
import { fill, h } from '../dom';
import { timeOfDay } from '../format';
import { setPageBindings } from '../keyboard';
import { assetName } from '../ledger-format';
import { LEDGER_ACCOUNT_KINDS, type LedgerAccount, type LedgerAccountKind, type LedgerAccountPage, type TrialBalance } from '../ledger-types';
import { poll } from '../poller';
import { hrefFor, navigate, type LedgerRoute } from '../router';
import { amountCell, accountName, headRow, kindLabel, when } from './ledger-parts';
import { listKeys, liveLoader, markSelected, pageTurner } from './live-list';
import { trialBalanceContent } from './trial-balance';

const PAGE_SIZE = 50;
const REFRESH_MS = 10_000;

/** Where the operator was (filter, pages, row), kept across visits so Esc or Back from an account returns there. */
const memory = { key: '', cursors: [null] as (string | null)[], selectedId: null as string | null };
let lastRoute: LedgerRoute = { name: 'ledger' };

/** The ledger page as the operator left it (its filter): the header link's and the account pages' way back. */
export function lastLedgerRoute(): LedgerRoute {
  return lastRoute;
}

const FILTERS: { value: LedgerAccountKind | ''; label: string }[] = [{ value: '', label: 'Every kind' }, ...LEDGER_ACCOUNT_KINDS.map((value) => ({ value, label: kindLabel(value) }))];

/**
 * The ledger (#/ledger): the trial balance (every asset's posted and pending balances per kind of account, and
 * whether each sums to zero), then the ledger accounts with their balances, 50 a page, of one kind or all
 * (#/ledger?kind=customer). A row opens the account's page. Refreshed every 10 s; only a change is redrawn.
 */
export function mountLedger(main: HTMLElement, api: ApiClient, route: LedgerRoute): () => void {
  const key = route.kind ?? '';
  if (memory.key !== key) Object.assign(memory, { key, cursors: [null], selectedId: null });
  lastRoute = route;
  let trial: TrialBalance | null = null;
  let page: LedgerAccountPage | null = null;
  let selected = -1;

  const kindSelect = h('select', { id: 'ledger-kind-filter', name: 'kind' }, FILTERS.map((f) => h('option', { value: f.value, selected: f.value === key }, f.label)));
  kindSelect.addEventListener('change', () => {
    const value = kindSelect.value as LedgerAccountKind | '';
    navigate({ name: 'ledger', ...(value ? { kind: value } : {}) });
  });
  const filters = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': 'Filter the ledger accounts', novalidate: true, onsubmit: (event: Event) => event.preventDefault() },
    h('div', { class: 'field' }, h('label', { for: 'ledger-kind-filter' }, 'Kind of account'), kindSelect),
  );

  const trialSlot = h('div', { class: 'trial' });
  const tbody = h('tbody');
  const table = h(
    'table',
    { class: 'queue ledger-accounts', 'aria-describedby': 'ledger-accounts-summary' },
    h('caption', { class: 'visually-hidden' }, 'Ledger accounts with their balances'),
    headRow('Account', 'Asset', { label: 'Posted', amount: true }, { label: 'Pending', amount: true }, { label: 'Available', amount: true }, 'Last change'),
    tbody,
  );
  const summary = h('p', { id: 'ledger-accounts-summary', class: 'muted' });
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const previous = h('button', { type: 'button', class: 'button', 'aria-keyshortcuts': 'p', onclick: () => goPage(-1) }, '← Previous');
  const next = h('button', { type: 'button', class: 'button', 'aria-keyshortcuts': 'n', onclick: () => goPage(1) }, 'Next →');
  const pageLabel = h('span', { class: 'page-label' });
  const updated = h('span', { class: 'muted updated' });
  const content = h(
    'div',
    { class: 'ledger' },
    h('section', { class: 'card', 'aria-labelledby': 'trial-title' }, h('h2', { id: 'trial-title' }, 'Trial balance'), trialSlot),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'accounts-title' },
      h('h2', { id: 'accounts-title' }, 'Accounts'),
      filters,
      h('div', { class: 'table-wrap' }, table),
      h('nav', { class: 'pager', 'aria-label': 'Pages' }, previous, pageLabel, next),
      summary,
    ),
  );

  fill(
    main,
    h('div', { class: 'page-head' }, h('h1', { id: 'page-title', tabindex: '-1' }, 'Ledger'), updated),
    h('p', { class: 'muted intro' }, 'Every movement of money as double-entry transactions. Each asset’s balances sum to zero across its accounts when the books balance.'),
    problem,
    content,
  );
  document.title = 'Ledger · Review console';

  function select(index: number, focus: boolean): void {
    const marked = markSelected(tbody, 'tr[data-ledger-account-id]', index, focus);
    if (!marked) return;
    selected = marked.index;
    memory.selectedId = marked.row.dataset.ledgerAccountId ?? null;
  }

  function open(index = selected): void {
    const item = page?.data[index];
    if (item) navigate({ name: 'ledger-account', ledgerAccountId: item.ledgerAccountId });
  }

  function row(a: LedgerAccount, index: number): HTMLTableRowElement {
    const tr = h(
      'tr',
      { dataset: { ledgerAccountId: a.ledgerAccountId, kind: a.kind, code: a.code, ...(a.accountId ? { accountId: a.accountId } : {}) } },
      h('td', {}, h('a', { class: 'row-link', href: hrefFor({ name: 'ledger-account', ledgerAccountId: a.ledgerAccountId }), title: a.code }, accountName(a))),
      h('td', {}, assetName(a.asset)),
      amountCell(a.balances.posted, a.asset.symbol, { className: 'posted' }),
      amountCell(a.balances.pending, a.asset.symbol, { className: 'pending' }),
      amountCell(a.balances.available, a.asset.symbol, { className: 'available' }),
      h('td', {}, when(a.updatedAt)),
    );
    tr.addEventListener('click', (event) => {
      if ((event.target as Element).closest('a, button')) return;
      select(index, false);
      open(index);
    });
    return tr;
  }

  function render(focus: boolean): void {
    if (trial) fill(trialSlot, trialBalanceContent(trial));
    if (!page) return;
    const hadFocus = tbody.contains(document.activeElement);
    const pageNumber = memory.cursors.length;
    if (page.data.length === 0) {
      const empty = pageNumber > 1 ? 'No more accounts on this page.' : key ? `No ledger accounts of the kind “${kindLabel(key)}”.` : 'No ledger accounts yet.';
      fill(tbody, h('tr', {}, h('td', { colspan: '6', class: 'empty' }, empty)));
    } else {
      fill(tbody, page.data.map(row));
    }
    previous.disabled = pageNumber <= 1;
    next.disabled = !page.hasMore;
    pageLabel.textContent = `Page ${pageNumber}`;
    const first = (pageNumber - 1) * PAGE_SIZE + 1;
    summary.textContent = page.data.length ? `Accounts ${first}–${first + page.data.length - 1}${page.hasMore ? ', more on the next pages' : ''}.` : '';
    updated.textContent = `Updated ${timeOfDay()}`;
    const index = page.data.findIndex((a) => a.ledgerAccountId === memory.selectedId);
    select(index === -1 ? 0 : index, focus || hadFocus);
  }

  const loader = liveLoader({
    table: content,
    problem,
    updated,
    what: 'ledger',
    fetch: (signal) => {
      const startingAfter = memory.cursors.at(-1);
      return Promise.all([api.trialBalance(signal), api.ledgerAccounts({ limit: PAGE_SIZE, ...(route.kind ? { kind: route.kind } : {}), ...(startingAfter ? { startingAfter } : {}) }, signal)]);
    },
    received: ([t, p]) => {
      trial = t;
      page = p;
    },
    show: render,
  });

  const goPage = pageTurner({ cursors: () => memory.cursors, page: () => page, clearSelection: () => (memory.selectedId = null), load: () => loader.load(true), noun: 'accounts' });

  setPageBindings({ ...listKeys((by) => select(selected + by, true), () => open()), n: () => goPage(1), p: () => goPage(-1), '/': () => kindSelect.focus() });

  void loader.load(true).catch(() => {});
  const stopPolling = poll(() => loader.load(false), REFRESH_MS);
  return () => {
    stopPolling();
    loader.abort();
    setPageBindings({});
  };
}
