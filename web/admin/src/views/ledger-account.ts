import type { ApiClient } from '../api';
import { fill, h } from '../dom';
import { dateTime, timeOfDay } from '../format';
import { setPageBindings } from '../keyboard';
import { assetName, CAUSE_LABELS, LEDGER_STATUS_LABELS, ledgerAmount } from '../ledger-format';
import { LEDGER_STATUSES, type LedgerAccountAsOf, type LedgerEntry, type LedgerEntryPage, type LedgerStatus } from '../ledger-types';
import { poll } from '../poller';
import { hrefFor, navigate, type LedgerAccountRoute } from '../router';
import { asOfForm } from './as-of-form';
import { accountName, amountCell, detailList, headRow, kindLabel, ledgerStatusBadge, when } from './ledger-parts';
import { lastLedgerRoute } from './ledger';
import { listKeys, liveLoader, markSelected, pageTurner } from './live-list';

const PAGE_SIZE = 25;
const REFRESH_MS = 10_000;

/** The entries' pages (the last entry id of each page before the one shown), kept per account and status filter. */
const memory = { key: '', cursors: [null] as (string | null)[] };

/** What caused an entry: a payout by its reference (its page), a transaction by its id, an opening or an adjustment. */
function causeCell(e: LedgerEntry): HTMLTableCellElement {
  const c = e.cause;
  if (c.payoutReference) return h('td', { class: 'cause' }, 'Payout ', h('a', { href: hrefFor({ name: 'withdrawal', reference: c.payoutReference }) }, h('code', {}, c.payoutReference)));
  if (c.transactionId) return h('td', { class: 'cause' }, `${CAUSE_LABELS[c.type] ?? c.type} `, h('code', { title: c.transactionId }, `${c.transactionId.slice(0, 8)}…`));
  return h('td', { class: 'cause' }, CAUSE_LABELS[c.type] ?? c.type);
}

function balances(a: LedgerAccountAsOf): HTMLElement {
  const s = a.asset.symbol;
  return detailList([
    ['Posted', h('strong', { id: 'balance-posted', class: 'figure' }, ledgerAmount(a.balances.posted, s))],
    ['Pending', h('span', { id: 'balance-pending', class: 'figure' }, ledgerAmount(a.balances.pending, s))],
    ['Available', h('span', { id: 'balance-available', class: 'figure' }, ledgerAmount(a.balances.available, s))],
    ['Version', String(a.version)],
  ]);
}

function record(a: LedgerAccountAsOf): HTMLElement {
  return detailList([
    ['Code', h('code', { class: 'ledger-code' }, a.code)],
    ['Kind', kindLabel(a.kind)],
    ['Asset', [assetName(a.asset), a.asset.tokenAddress ? [' · ', h('code', { class: 'address' }, a.asset.tokenAddress)] : null]],
    ['Customer account', a.accountId ? h('code', {}, a.accountId) : null],
    ['Integrator', a.integratorId ? h('code', {}, a.integratorId) : null],
    ['Last change', when(a.updatedAt)],
  ]);
}

/**
 * One ledger account (#/ledger-account/<id>): its balances now, or as of a past time (?asOf=, the form above them),
 * and its entries newest first, 25 a page, in one status or all. Each entry opens its ledger transaction. Refreshed
 * every 10 s. Esc goes back to the ledger as it was left.
 */
export function mountLedgerAccount(main: HTMLElement, api: ApiClient, route: LedgerAccountRoute): () => void {
  const key = `${route.ledgerAccountId}|${route.status ?? ''}`;
  if (memory.key !== key) Object.assign(memory, { key, cursors: [null] });
  const listRoute = lastLedgerRoute();
  let account: LedgerAccountAsOf | null = null;
  let page: LedgerEntryPage | null = null;
  let selected = -1;
  let first = true;

  const back = h('a', { href: hrefFor(listRoute), class: 'back', 'aria-keyshortcuts': 'Escape' }, '← Ledger');
  const title = h('h1', { id: 'page-title', tabindex: '-1' }, 'Ledger account');
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const updated = h('span', { class: 'muted updated' });
  const balancesTitle = h('h2', { id: 'balances-title' }, 'Balances');
  const balancesSlot = h('div');
  const recordSlot = h('div');
  const asOf = asOfForm(route.asOf, (at) => navigate({ ...route, ...(at ? { asOf: at } : { asOf: undefined }) }));

  const statusSelect = h(
    'select',
    { id: 'entry-status-filter', name: 'status' },
    [{ value: '', label: 'Every status' }, ...LEDGER_STATUSES.map((value) => ({ value, label: LEDGER_STATUS_LABELS[value] }))].map((f) => h('option', { value: f.value, selected: f.value === (route.status ?? '') }, f.label)),
  );
  statusSelect.addEventListener('change', () => navigate({ ...route, status: (statusSelect.value || undefined) as LedgerStatus | undefined }));
  const tbody = h('tbody');
  const table = h(
    'table',
    { class: 'queue ledger-entries', 'aria-describedby': 'entries-summary' },
    h('caption', { class: 'visually-hidden' }, 'The account’s entries, newest first'),
    headRow('When', 'Movement', { label: 'Amount', amount: true }, 'Status', { label: 'Balance after', amount: true }, 'Cause'),
    tbody,
  );
  const summary = h('p', { id: 'entries-summary', class: 'muted' });
  const previous = h('button', { type: 'button', class: 'button', 'aria-keyshortcuts': 'p', onclick: () => goPage(-1) }, '← Newer');
  const next = h('button', { type: 'button', class: 'button', 'aria-keyshortcuts': 'n', onclick: () => goPage(1) }, 'Older →');
  const pageLabel = h('span', { class: 'page-label' });

  const layout = h(
    'div',
    { class: 'ledger' },
    h(
      'div',
      { class: 'account-cards' },
      h('section', { class: 'card', 'aria-labelledby': 'balances-title' }, balancesTitle, balancesSlot, asOf.element),
      h('section', { class: 'card', 'aria-labelledby': 'record-title' }, h('h2', { id: 'record-title' }, 'Account'), recordSlot),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'entries-title' },
      h('h2', { id: 'entries-title' }, 'Entries'),
      h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter the entries', novalidate: true, onsubmit: (event: Event) => event.preventDefault() }, h('div', { class: 'field' }, h('label', { for: 'entry-status-filter' }, 'Status'), statusSelect)),
      h('div', { class: 'table-wrap' }, table),
      h('nav', { class: 'pager', 'aria-label': 'Pages' }, previous, pageLabel, next),
      summary,
    ),
  );
  fill(main, h('nav', { class: 'breadcrumb', 'aria-label': 'Breadcrumb' }, back), h('div', { class: 'page-head' }, title, updated), problem, layout);
  document.title = 'Ledger account · Review console';

  function select(index: number, focus: boolean): void {
    const marked = markSelected(tbody, 'tr[data-ledger-entry-id]', index, focus);
    if (marked) selected = marked.index;
  }
  function open(index = selected): void {
    const entry = page?.data[index];
    if (entry) navigate({ name: 'ledger-transaction', ledgerTransactionId: entry.ledgerTransactionId });
  }

  function row(e: LedgerEntry, index: number): HTMLTableRowElement {
    const b = e.balanceAfter;
    const s = e.asset.symbol;
    const tr = h(
      'tr',
      { dataset: { ledgerEntryId: e.ledgerEntryId, ledgerTransactionId: e.ledgerTransactionId, status: e.status } },
      h('td', {}, when(e.createdAt)),
      h('td', { class: 'wrap' }, h('a', { class: 'row-link', href: hrefFor({ name: 'ledger-transaction', ledgerTransactionId: e.ledgerTransactionId }) }, e.description)),
      amountCell(e.amount, s, { plus: true, className: 'movement' }),
      h('td', {}, ledgerStatusBadge(e.status)),
      b
        ? h('td', { class: 'amount', title: `Posted ${ledgerAmount(b.posted, s)} · available ${ledgerAmount(b.available, s)}` }, ledgerAmount(b.pending, s))
        : h('td', { class: 'amount', title: 'A service account’s balances are a sum of balance slots: no figure right after one entry' }, '—'),
      causeCell(e),
    );
    tr.addEventListener('click', (event) => {
      if ((event.target as Element).closest('a, button')) return;
      select(index, false);
      open(index);
    });
    return tr;
  }

  function render(focus: boolean): void {
    if (!account || !page) return;
    const a = account;
    fill(title, accountName(a));
    title.title = a.code;
    document.title = `${accountName(a)} · Ledger · Review console`;
    balancesTitle.textContent = a.asOf ? `Balances as of ${dateTime(a.asOf)}` : 'Balances now';
    fill(balancesSlot, balances(a));
    fill(recordSlot, record(a));
    const pageNumber = memory.cursors.length;
    if (page.data.length === 0) fill(tbody, h('tr', {}, h('td', { colspan: '6', class: 'empty' }, pageNumber > 1 ? 'No older entries.' : route.status ? `No ${LEDGER_STATUS_LABELS[route.status].toLowerCase()} entries.` : 'No entries yet.')));
    else fill(tbody, page.data.map(row));
    previous.disabled = pageNumber <= 1;
    next.disabled = !page.hasMore;
    pageLabel.textContent = `Page ${pageNumber}`;
    const from = (pageNumber - 1) * PAGE_SIZE + 1;
    summary.textContent = page.data.length ? `Entries ${from}–${from + page.data.length - 1}${page.hasMore ? ', older ones on the next pages' : ''}. Newest first; every entry, whatever the time the balances are read as of.` : '';
    updated.textContent = `Updated ${timeOfDay()}`;
    select(Math.max(0, selected), focus && !first);
    if (first) title.focus();
    first = false;
  }

  const loader = liveLoader({
    table: layout,
    problem,
    updated,
    what: 'ledger account',
    fetch: (signal) => {
      const startingAfter = memory.cursors.at(-1);
      return Promise.all([
        api.getLedgerAccount(route.ledgerAccountId, route.asOf, signal),
        api.ledgerEntries(route.ledgerAccountId, { limit: PAGE_SIZE, ...(route.status ? { status: route.status } : {}), ...(startingAfter ? { startingAfter } : {}) }, signal),
      ]);
    },
    received: ([a, p]) => {
      account = a;
      page = p;
    },
    show: render,
  });
  // The API gives no cursor for entries: the next page starts after this page's last entry.
  const cursorPage = () => (page ? { ...page, nextCursor: page.data.at(-1)?.ledgerEntryId ?? null } : null);
  const goPage = pageTurner({ cursors: () => memory.cursors, page: cursorPage, clearSelection: () => (selected = 0), load: () => loader.load(true), noun: 'entries' });

  setPageBindings({ ...listKeys((by) => select(selected + by, true), () => open()), n: () => goPage(1), p: () => goPage(-1), Escape: () => navigate(listRoute) });
  void loader.load(true).catch(() => {});
  const stopPolling = poll(() => loader.load(false), REFRESH_MS);
  return () => {
    stopPolling();
    loader.abort();
    setPageBindings({});
  };
}
