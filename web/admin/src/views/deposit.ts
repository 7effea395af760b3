import { announce } from '../announce';
import type { ApiClient } from '../api';
import { fill, h, type Children } from '../dom';
import { chainName, cryptoAmount, dateTime, depositPayoutState, humanize, money, TRANSACTION_STATUS_LABELS } from '../format';
import { setPageBindings } from '../keyboard';
import type { DepositAudit, DepositHistoryEntry } from '../money-types';
import { hrefFor, navigate, type DepositRoute } from '../router';
import { depositLookupForm, lastDepositsRoute } from './deposits';
import { followRecord, liveRecord } from './live-list';
import { transactionBadge } from './status-badge';
import { copyable } from './withdrawal';

/** As a payout page: a deposit moves on its own (the bank feed, the watcher paying it out). */
const REFRESH_MS = 3_000;

const ACTORS: Record<DepositHistoryEntry['actorType'], string> = { operator: 'Operator', integrator: 'Integrator', system: 'System (payout watcher)', sandbox: 'Sandbox simulation' };

const none = () => h('span', { class: 'muted' }, '—');

function detailList(rows: [string, Children][]): HTMLElement {
  return h('dl', { class: 'details' }, rows.map(([term, value]) => [h('dt', {}, term), h('dd', {}, value ?? none())]));
}

/** The fiat side, what it pays in crypto (in the asset's units with the chain's name, never base units), and the payout. */
function depositDetails(t: DepositAudit): HTMLElement {
  const d = t.deposit;
  return detailList([
    ['Status', transactionBadge(t.status, 'deposit-status')],
    ['Amount asked', money(d.amount, d.currency)],
    ['Amount received', d.receivedAmount ? money(d.receivedAmount, d.currency) : h('span', { class: 'muted' }, 'Not yet')],
    ['Pays out', h('strong', { id: 'deposit-crypto', class: 'deposit-crypto' }, cryptoAmount(d.cryptoAmount, d.asset, t.chainId))],
    ['Rate', d.rate ? `${d.rate} ${d.asset} per ${d.currency}` : null],
    ['Payout', h('span', { id: 'deposit-payout' }, depositPayoutState(t.status, d.payoutError, t.failureReason))],
    ['Chain', `${chainName(t.chainId)} (${t.chainId})`],
    ['Transaction hash', t.transactionHash ? copyable('Transaction hash', t.transactionHash, h('code', { class: 'tx-hash' }, t.transactionHash)) : null],
    ['Expires', d.expiresAt ? h('time', { datetime: d.expiresAt }, dateTime(d.expiresAt)) : null],
  ]);
}

function recordDetails(t: DepositAudit): HTMLElement {
  return detailList([
    ['Transaction', h('code', {}, t.transactionId)],
    ['Account', h('code', {}, t.accountId)],
    ['Integrator', h('code', {}, t.integratorId)],
    ['Created', h('time', { datetime: t.createdAt }, dateTime(t.createdAt))],
  ]);
}

/** Every status change, newest first: the new status, who moved it, from what, the detail, when. */
function depositTimeline(history: DepositHistoryEntry[]): HTMLElement {
  if (history.length === 0) return h('p', { class: 'muted' }, 'No status changes yet.');
  const label = (s: DepositHistoryEntry['toStatus']) => TRANSACTION_STATUS_LABELS[s] ?? humanize(s);
  return h(
    'ol',
    { class: 'timeline', reversed: true },
    [...history].reverse().map((e) =>
      h(
        'li',
        { dataset: { status: e.toStatus } },
        h('div', { class: 'timeline-head' }, h('strong', {}, e.fromStatus ? label(e.toStatus) : `Created · ${label(e.toStatus)}`), h('time', { datetime: e.at, class: 'muted' }, dateTime(e.at))),
        h('div', { class: 'muted', title: e.actorId ?? undefined }, `by ${ACTORS[e.actorType] ?? humanize(e.actorType)}`, e.fromStatus ? ` · from ${label(e.fromStatus)}` : ''),
        e.detail ? h('blockquote', { class: 'reason' }, e.detail) : null,
      ),
    ),
  );
}

/**
 * One deposit (#/deposit/DEP-…), found from the list or by the reference on its bank instructions (the form stays
 * above it, to look up the next), polled so the payout's progress shows. Esc goes back to the list as it was left.
 */
export function mountDeposit(main: HTMLElement, api: ApiClient, route: DepositRoute): () => void {
  const { reference } = route;
  const listRoute = lastDepositsRoute();
  const lookup = depositLookupForm(reference);

  const back = h('a', { href: hrefFor(listRoute), class: 'back', 'aria-keyshortcuts': 'Escape' }, '← Deposits');
  const title = h('h1', { id: 'page-title', tabindex: '-1' }, `Deposit ${reference}`);
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const depositSlot = h('div');
  const recordSlot = h('div');
  const historySlot = h('div');
  const layout = h(
    'div',
    { class: 'case', hidden: true },
    h(
      'div',
      { class: 'case-main' },
      h('section', { class: 'card', 'aria-labelledby': 'deposit-title' }, h('h2', { id: 'deposit-title' }, 'Deposit'), depositSlot),
      h('section', { class: 'card', 'aria-labelledby': 'record-title' }, h('h2', { id: 'record-title' }, 'Record'), recordSlot),
    ),
    h('aside', { class: 'case-side' }, h('section', { class: 'card', 'aria-labelledby': 'history-title' }, h('h2', { id: 'history-title' }, 'History'), historySlot)),
  );

  fill(main, h('nav', { class: 'breadcrumb', 'aria-label': 'Breadcrumb' }, back), h('div', { class: 'page-head' }, title), lookup.element, problem, layout);
  document.title = `${reference} · Deposits · Review console`;
  setPageBindings({ '/': () => lookup.input.focus(), Escape: () => navigate(listRoute) });

  let shown: DepositAudit | null = null;
  const record = liveRecord({
    problem,
    layout,
    noun: 'deposit',
    fetch: (signal) => api.getDeposit(reference, signal),
    show(t) {
      if (shown && shown.status !== t.status) announce(`Status changed: ${TRANSACTION_STATUS_LABELS[t.status] ?? t.status}.`);
      shown = t;
      fill(depositSlot, depositDetails(t));
      fill(recordSlot, recordDetails(t));
      fill(historySlot, depositTimeline(t.history));
      layout.hidden = false;
    },
  });
  return followRecord(record, title, REFRESH_MS);
}
