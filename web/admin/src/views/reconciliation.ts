import type { ApiClient } from '../api';
import { fill, h, type Children } from '../dom';
import { chainName } from '../format';
import { setPageBindings } from '../keyboard';
import { counted, dateOnly, RUN_KIND_LABELS, runCounts, TRIGGER_LABELS } from '../ledger-format';
import type { Run, StatementDescription } from '../reconciliation-types';
import { hrefFor, navigate, type ReconciliationRoute } from '../router';
import type { Operator } from '../types';
import { detailList, when } from './ledger-parts';
import { followRecord, liveRecord } from './live-list';
import { breakCard, exceptionCard, matchedTable, who, type ItemCache } from './reconciliation-items';
import { lastReconciliationsRoute } from './reconciliations';

/** Another operator may work the same run: its items are read again every 10 s (what was typed stays). */
const REFRESH_MS = 10_000;

/** "Base (8453): block 1234", from a chain run's summary.blocks (an open record: only numbers are read). */
function blocks(summary: Record<string, unknown>): Children {
  const b = summary.blocks;
  if (!b || typeof b !== 'object') return null;
  const read = Object.entries(b as Record<string, unknown>).filter(([, n]) => typeof n === 'number');
  return read.length ? h('ul', { class: 'references' }, read.map(([chainId, n]) => h('li', {}, `${chainName(Number(chainId))} (${chainId}): block ${String(n)}`))) : null;
}

/** A bank run's statement: its version and message id, and each statement's account, currency, period and lines. */
function statement(s: StatementDescription): [string, Children][] {
  const period = (from?: string | null, to?: string | null) => (from || to ? `${from ? dateOnly(from) : '…'} – ${to ? dateOnly(to) : '…'}` : 'no period given');
  return [
    ['Statement', [s.messageId ? h('code', {}, s.messageId) : null, s.version ? ` · camt.053.${s.version}` : null]],
    [
      'Statements',
      h(
        'ul',
        { class: 'references' },
        (s.statements ?? []).map((x) => h('li', {}, h('code', {}, x.statementId ?? '—'), ` · ${x.iban ?? 'no IBAN'} · ${x.currency ?? '—'} · ${period(x.fromDate, x.toDate)} · ${counted(x.lines ?? 0, 'line')}`)),
      ),
    ],
  ];
}

function section(id: string, title: string, ...children: Children[]): HTMLElement {
  return h('section', { class: 'recon-section', 'aria-labelledby': id }, h('h2', { id }, title), ...children);
}

/**
 * One reconciliation run (#/reconciliation/<runId>): what it read and found; a chain run's breaks, a bank run's
 * exceptions and matched lines, each open one with its forms. After an action, or a 409 (worked elsewhere), the run
 * is read again. Esc goes back to the runs.
 */
export function mountReconciliation(main: HTMLElement, api: ApiClient, route: ReconciliationRoute, operator: Operator): () => void {
  const listRoute = lastReconciliationsRoute();
  const back = h('a', { href: hrefFor(listRoute), class: 'back', 'aria-keyshortcuts': 'Escape' }, '← Reconciliation');
  const title = h('h1', { id: 'page-title', tabindex: '-1' }, 'Reconciliation run');
  const meta = h('p', { class: 'muted case-meta', id: 'run-counts' });
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const summarySlot = h('div');
  const itemsSlot = h('div', { class: 'recon-items' });
  const layout = h('div', { class: 'recon', hidden: true }, h('section', { class: 'card', 'aria-labelledby': 'run-title' }, h('h2', { id: 'run-title' }, 'Run'), summarySlot), itemsSlot);
  fill(main, h('nav', { class: 'breadcrumb', 'aria-label': 'Breadcrumb' }, back), h('div', { class: 'page-head' }, title), meta, problem, layout);
  document.title = 'Reconciliation run · Review console';

  const cache: ItemCache = {
    api,
    runId: route.runId,
    operator,
    forms: new Map(),
    problems: new Map(),
    async reload(focusOn) {
      await record.refresh();
      if (focusOn) document.getElementById(`item-${focusOn}`)?.focus();
    },
  };

  function show(run: Run): void {
    const kind = run.kind === 'chain' ? 'Chain' : 'Bank';
    title.textContent = `${kind} reconciliation`;
    document.title = `${kind} reconciliation · Review console`;
    meta.textContent = runCounts(run.kind, run.summary);
    fill(
      summarySlot,
      detailList([
        ['Kind', RUN_KIND_LABELS[run.kind] ?? run.kind],
        ['Started by', [TRIGGER_LABELS[run.trigger] ?? run.trigger, run.operatorId ? [' · ', who(run.operatorId, operator)] : null]],
        ['Started', when(run.startedAt)],
        ['Completed', when(run.completedAt)],
        ['Found', runCounts(run.kind, run.summary)],
        ...(run.kind === 'chain' ? ([['Blocks read', blocks(run.summary)]] as [string, Children][]) : []),
        ...(run.statement ? statement(run.statement) : []),
      ]),
    );
    // Forms of items no longer open are dropped; the problem boxes stay (a 409 is read beside the item it concerns).
    const open = new Set([...run.breaks.filter((b) => b.status === 'open').map((b) => b.breakId), ...run.exceptions.filter((e) => e.status === 'open').map((e) => e.exceptionId)]);
    for (const id of cache.forms.keys()) if (!open.has(id)) cache.forms.delete(id);
    const openCount = (items: { status: string }[]) => items.filter((i) => i.status === 'open').length;
    if (run.kind === 'chain') {
      fill(
        itemsSlot,
        section(
          'breaks-title',
          `Breaks (${openCount(run.breaks)} open of ${run.breaks.length})`,
          run.breaks.length ? run.breaks.map((b) => breakCard(b, cache)) : h('p', { class: 'empty-note', id: 'no-breaks' }, 'No breaks: every holding equals the ledger at the block read.'),
        ),
      );
    } else {
      fill(
        itemsSlot,
        section(
          'exceptions-title',
          `Exceptions (${openCount(run.exceptions)} open of ${run.exceptions.length})`,
          run.exceptions.length ? run.exceptions.map((e) => exceptionCard(e, cache)) : h('p', { class: 'empty-note' }, 'No exceptions: every booked line matched a movement.'),
        ),
        section('matched-title', `Matched lines (${run.matched.length})`, matchedTable(run.matched, operator)),
      );
    }
    layout.hidden = false;
  }

  const record = liveRecord({ problem, layout, noun: 'reconciliation run', fetch: (signal) => api.getReconciliation(route.runId, signal), show });
  setPageBindings({ Escape: () => navigate(listRoute) });
  return followRecord(record, title, REFRESH_MS);
}
