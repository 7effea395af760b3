import type { ApiClient } from '../api';
import { fill, h } from '../dom';
import { age, dateTime, STATUS_LABELS, SUBJECT_LABELS, timeOfDay } from '../format';
import { rememberIntegrator } from '../integrators';
import { setPageBindings } from '../keyboard';
import { poll } from '../poller';
import { hrefFor, navigate, type QueueRoute } from '../router';
import type { Operator, ReviewItem, ReviewPage } from '../types';
import { assigneeCell, flagsCell } from './queue-flags';
import { listKeys, liveLoader, markSelected, pageTurner } from './live-list';
import { createQueueFilters, FLAG_LABELS } from './queue-filters';
import { statusBadge } from './status-badge';

const DEFAULT_PAGE_SIZE = 50;
const REFRESH_MS = 10_000;

/**
 * Where the officer was, kept across visits so Esc or Back from a case returns to the same page and row. Pages
 * are keyset cursors (never offsets, never the whole queue): `cursors` is the stack of `startingAfter` values
 * of the pages before this one, the last being this page's.
 */
const memory = { key: '', cursors: [null] as (string | null)[], selectedId: null as string | null };
let lastRoute: QueueRoute = { name: 'queue' };

/** The queue as the officer last left it (the case page's way back). */
export function lastQueueRoute(): QueueRoute {
  return lastRoute;
}

/** What an empty first page says: the records the filters look at, as the server picks them (docs/back-office.md). */
function emptyMessage(route: QueueRoute): string {
  const narrowed = [route.flag ? `flagged “${FLAG_LABELS[route.flag]}”` : '', route.assignee === 'me' ? 'claimed by you' : route.assignee === 'unassigned' ? 'unassigned' : '', route.q ? `matching “${route.q}”` : '', route.integratorId ? 'for this integrator' : ''];
  const rest = narrowed.filter(Boolean).join(', ');
  // Without a status the queue holds the open cases, but a search looks at every record, approved or closed too.
  const among = route.status ? `cases with status “${STATUS_LABELS[route.status]}”` : route.q ? 'records of any status' : 'open cases';
  return `No ${among}${rest ? ` ${rest}` : ''}.`;
}

export function mountQueue(main: HTMLElement, api: ApiClient, route: QueueRoute, operator: Operator): () => void {
  const pageSize = route.limit ?? DEFAULT_PAGE_SIZE;
  const key = hrefFor({ ...route, limit: pageSize });
  if (memory.key !== key) Object.assign(memory, { key, cursors: [null], selectedId: null });
  lastRoute = route;

  let page: ReviewPage | null = null;
  let selected = -1;

  const filters = createQueueFilters(route);

  // Table and pager -------------------------------------------------------------------------------------------
  const tbody = h('tbody');
  const table = h(
    'table',
    { class: 'queue', 'aria-describedby': 'queue-summary' },
    h('caption', { class: 'visually-hidden' }, 'Cases, longest waiting first'),
    h(
      'thead',
      {},
      h('tr', {}, h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col' }, 'Type'), h('th', { scope: 'col' }, 'Integrator'), h('th', { scope: 'col' }, 'Status'), h('th', { scope: 'col' }, 'Flags'), h('th', { scope: 'col' }, 'Assignee'), h('th', { scope: 'col' }, 'Waiting')),
    ),
    tbody,
  );
  const summary = h('p', { id: 'queue-summary', class: 'muted' });
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const previous = h('button', { type: 'button', class: 'button', 'aria-keyshortcuts': 'p', onclick: () => goPage(-1) }, '← Previous');
  const next = h('button', { type: 'button', class: 'button', 'aria-keyshortcuts': 'n', onclick: () => goPage(1) }, 'Next →');
  const pageLabel = h('span', { class: 'page-label' });
  const updated = h('span', { class: 'muted updated' });

  fill(
    main,
    h('div', { class: 'page-head' }, h('h1', { id: 'page-title', tabindex: '-1' }, 'Review queue'), updated),
    filters.element,
    problem,
    h('div', { class: 'table-wrap' }, table),
    h('nav', { class: 'pager', 'aria-label': 'Pages' }, previous, pageLabel, next),
    summary,
  );
  document.title = 'Review queue · Review console';

  function select(index: number, focus: boolean): void {
    const marked = markSelected(tbody, 'tr[data-subject-id]', index, focus);
    if (!marked) return;
    selected = marked.index;
    memory.selectedId = marked.row.dataset.subjectId ?? null;
  }

  function open(index = selected): void {
    const item = page?.data[index];
    if (item) navigate({ name: 'case', subjectType: item.subjectType, subjectId: item.subjectId });
  }

  function row(item: ReviewItem, index: number): HTMLTableRowElement {
    const href = hrefFor({ name: 'case', subjectType: item.subjectType, subjectId: item.subjectId });
    const tr = h(
      'tr',
      { dataset: { subjectId: item.subjectId } },
      h('td', {}, h('a', { class: 'row-link', href }, item.name || '(no name)')),
      h('td', {}, SUBJECT_LABELS[item.subjectType]),
      h(
        'td',
        {},
        h(
          'button',
          { type: 'button', class: 'link-button', title: `Only ${item.integratorName}`, onclick: () => navigate({ ...route, integratorId: item.integratorId }) },
          item.integratorName,
        ),
      ),
      h('td', {}, statusBadge(item.verificationStatus)),
      flagsCell(item),
      assigneeCell(item.assignee, operator.operatorId),
      h('td', {}, h('time', { datetime: item.since, title: dateTime(item.since) }, age(item.since))),
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
      fill(tbody, h('tr', {}, h('td', { colspan: '7', class: 'empty' }, pageNumber > 1 ? 'No more cases on this page.' : emptyMessage(route))));
    } else {
      fill(tbody, page.data.map(row));
    }
    previous.disabled = pageNumber <= 1;
    next.disabled = !page.hasMore;
    pageLabel.textContent = `Page ${pageNumber}`;
    const first = (pageNumber - 1) * pageSize + 1;
    summary.textContent = page.data.length ? `Cases ${first}–${first + page.data.length - 1}${page.hasMore ? ', more on the next pages' : ''}. Longest waiting first.` : '';
    updated.textContent = `Updated ${timeOfDay()}`;
    const index = page.data.findIndex((d) => d.subjectId === memory.selectedId);
    select(index === -1 ? 0 : index, focus || hadFocus);
  }

  const loader = liveLoader({
    table,
    problem,
    updated,
    what: 'queue',
    fetch: (signal) => {
      const startingAfter = memory.cursors.at(-1);
      const { status, flag, assignee, q, integratorId } = route;
      return api.reviews({ status, flag, assignee, q, integratorId, limit: pageSize, ...(startingAfter ? { startingAfter } : {}) }, signal);
    },
    received(result) {
      page = result;
      for (const item of result.data) rememberIntegrator(item.integratorId, item.integratorName);
      filters.integratorsSeen();
    },
    show: render,
  });

  const goPage = pageTurner({ cursors: () => memory.cursors, page: () => page, clearSelection: () => (memory.selectedId = null), load: () => loader.load(true), noun: 'cases' });

  setPageBindings({
    ...listKeys((by) => select(selected + by, true), () => open()),
    n: () => goPage(1),
    p: () => goPage(-1),
    '/': () => filters.focus(),
  });

  // Focus the selected row when arriving by keyboard (Esc or Back from a case) or on first load.
  void loader.load(true).catch(() => {});
  const stopPolling = poll(() => loader.load(false), REFRESH_MS);
  return () => {
    stopPolling();
    loader.abort();
    setPageBindings({});
  };
}
