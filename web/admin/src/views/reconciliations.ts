import type { ApiClient } from '../api';
import { fill, h } from '../dom';
import { timeOfDay } from '../format';
import { setPageBindings } from '../keyboard';
import { RUN_KIND_LABELS, runCounts, TRIGGER_LABELS } from '../ledger-format';
import type { RunKind, RunPage, RunSummary } from '../reconciliation-types';
import { poll } from '../poller';
import { hrefFor, navigate, type ReconciliationsRoute } from '../router';
import { headRow, when } from './ledger-parts';
import { listKeys, liveLoader, markSelected, pageTurner } from './live-list';
import { runActions } from './run-actions';

const PAGE_SIZE = 25;
const REFRESH_MS = 10_000;

const memory = { key: '', cursors: [null] as (string | null)[], selectedId: null as string | null };
let lastRoute: ReconciliationsRoute = { name: 'reconciliations' };

/** The runs as the operator left them (their filter): the header link's and the run page's way back. */
export function lastReconciliationsRoute(): ReconciliationsRoute {
  return lastRoute;
}

const FILTERS: { value: RunKind | ''; label: string }[] = [
  { value: '', label: 'Chain and bank' },
  { value: 'chain', label: RUN_KIND_LABELS.chain },
  { value: 'bank', label: RUN_KIND_LABELS.bank },
];

/** A bank run's statement by its message id (and statement ids); nothing for a chain run. */
function statementCell(r: RunSummary): HTMLTableCellElement {
  const s = r.statement;
  if (!s) return h('td', { class: 'muted' }, '—');
  const ids = (s.statements ?? []).map((x) => x.statementId).filter(Boolean);
  return h('td', {}, h('code', {}, s.messageId ?? '—'), ids.length ? h('span', { class: 'muted' }, ` · ${ids.join(', ')}`) : null);
}

/**
 * Reconciliation (#/reconciliations): the buttons that run one (against the chain; a bank statement uploaded), then the
 * runs newest first, 25 a page, of one kind or both (?kind=bank): when, what, who started it and what it found. A row
 * opens the run. Refreshed every 10 s (the schedule runs too).
 */
export function mountReconciliations(main: HTMLElement, api: ApiClient, route: ReconciliationsRoute): () => void {
  const key = route.kind ?? '';
  if (memory.key !== key) Object.assign(memory, { key, cursors: [null], selectedId: null });
  lastRoute = route;
  let page: RunPage | null = null;
  let selected = -1;

  const kindSelect = h('select', { id: 'run-kind-filter', name: 'kind' }, FILTERS.map((f) => h('option', { value: f.value, selected: f.value === key }, f.label)));
  kindSelect.addEventListener('change', () => navigate({ name: 'reconciliations', ...(kindSelect.value ? { kind: kindSelect.value as RunKind } : {}) }));
  const tbody = h('tbody');
  const table = h(
    'table',
    { class: 'queue runs', 'aria-describedby': 'runs-summary' },
    h('caption', { class: 'visually-hidden' }, 'Reconciliation runs, newest first'),
    headRow('Completed', 'Kind', 'Started by', 'Found', 'Statement'),
    tbody,
  );
  const summary = h('p', { id: 'runs-summary', class: 'muted' });
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const previous = h('button', { type: 'button', class: 'button', 'aria-keyshortcuts': 'p', onclick: () => goPage(-1) }, '← Newer');
  const next = h('button', { type: 'button', class: 'button', 'aria-keyshortcuts': 'n', onclick: () => goPage(1) }, 'Older →');
  const pageLabel = h('span', { class: 'page-label' });
  const updated = h('span', { class: 'muted updated' });

  fill(
    main,
    h('div', { class: 'page-head' }, h('h1', { id: 'page-title', tabindex: '-1' }, 'Reconciliation'), updated),
    h('p', { class: 'muted intro' }, 'The ledger checked against the chain and the bank. What does not agree is a break (chain) or an exception (bank), worked on the run’s page.'),
    runActions(api),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'runs-title' },
      h('h2', { id: 'runs-title' }, 'Runs'),
      h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter the runs', novalidate: true, onsubmit: (event: Event) => event.preventDefault() }, h('div', { class: 'field' }, h('label', { for: 'run-kind-filter' }, 'Kind'), kindSelect)),
      problem,
      h('div', { class: 'table-wrap' }, table),
      h('nav', { class: 'pager', 'aria-label': 'Pages' }, previous, pageLabel, next),
      summary,
    ),
  );
  document.title = 'Reconciliation · Review console';

  function select(index: number, focus: boolean): void {
    const marked = markSelected(tbody, 'tr[data-run-id]', index, focus);
    if (!marked) return;
    selected = marked.index;
    memory.selectedId = marked.row.dataset.runId ?? null;
  }
  function open(index = selected): void {
    const item = page?.data[index];
    if (item) navigate({ name: 'reconciliation', runId: item.runId });
  }

  function row(r: RunSummary, index: number): HTMLTableRowElement {
    const tr = h(
      'tr',
      { dataset: { runId: r.runId, kind: r.kind } },
      h('td', {}, h('a', { class: 'row-link', href: hrefFor({ name: 'reconciliation', runId: r.runId }) }, when(r.completedAt))),
      h('td', {}, RUN_KIND_LABELS[r.kind] ?? r.kind),
      h('td', {}, TRIGGER_LABELS[r.trigger] ?? r.trigger),
      h('td', { class: 'counts' }, runCounts(r.kind, r.summary)),
      statementCell(r),
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
    if (page.data.length === 0) fill(tbody, h('tr', {}, h('td', { colspan: '5', class: 'empty' }, pageNumber > 1 ? 'No older runs.' : 'No reconciliation has run yet.')));
    else fill(tbody, page.data.map(row));
    previous.disabled = pageNumber <= 1;
    next.disabled = !page.hasMore;
    pageLabel.textContent = `Page ${pageNumber}`;
    const first = (pageNumber - 1) * PAGE_SIZE + 1;
    summary.textContent = page.data.length ? `Runs ${first}–${first + page.data.length - 1}${page.hasMore ? ', older ones on the next pages' : ''}. Newest first.` : '';
    updated.textContent = `Updated ${timeOfDay()}`;
    const index = page.data.findIndex((r) => r.runId === memory.selectedId);
    select(index === -1 ? 0 : index, focus || hadFocus);
  }

  const loader = liveLoader({
    table,
    problem,
    updated,
    what: 'runs',
    fetch: (signal) => {
      const startingAfter = memory.cursors.at(-1);
      return api.reconciliations({ limit: PAGE_SIZE, ...(route.kind ? { kind: route.kind } : {}), ...(startingAfter ? { startingAfter } : {}) }, signal);
    },
    received: (result) => (page = result),
    show: render,
  });
  const goPage = pageTurner({ cursors: () => memory.cursors, page: () => page, clearSelection: () => (memory.selectedId = null), load: () => loader.load(true), noun: 'runs' });

  setPageBindings({ ...listKeys((by) => select(selected + by, true), () => open()), n: () => goPage(1), p: () => goPage(-1), '/': () => kindSelect.focus() });
  void loader.load(true).catch(() => {});
  const stopPolling = poll(() => loader.load(false), REFRESH_MS);
  return () => {
    stopPolling();
    loader.abort();
    setPageBindings({});
  };
}
