import type { ApiClient } from '../api';
import { fill, h } from '../dom';
import { fromBaseUnits } from '../format';
import { setPageBindings } from '../keyboard';
import { assetName, CAUSE_LABELS, ledgerAmount } from '../ledger-format';
import type { LedgerCause, LedgerLeg, LedgerTransaction } from '../ledger-types';
import { hrefFor, navigate, type LedgerTransactionRoute } from '../router';
import { amountCell, balancedBadge, detailList, headRow, kindLabel, ledgerStatusBadge, when } from './ledger-parts';
import { lastLedgerRoute } from './ledger';
import { followRecord, liveRecord } from './live-list';

const REFRESH_MS = 10_000;

/** A cause in words: a payout by its reference (its page), a transaction by its id, an opening or an adjustment. */
export function causeText(c: LedgerCause): HTMLElement {
  const label = CAUSE_LABELS[c.type] ?? c.type;
  if (c.payoutReference) return h('span', {}, `${label} `, h('a', { href: hrefFor({ name: 'withdrawal', reference: c.payoutReference }) }, h('code', {}, c.payoutReference)), c.transactionId ? [' of withdrawal ', h('code', {}, c.transactionId)] : null);
  return h('span', {}, label, c.transactionId ? [' ', h('code', {}, c.transactionId)] : null);
}

/**
 * Each asset's legs summed, exactly: the base units added as BigInts (never floats) and shown in the asset's units.
 * Zero for every asset in a well-formed transaction.
 */
function sums(legs: LedgerLeg[]): { name: string; symbol: string; sum: string; zero: boolean; code: string }[] {
  const byAsset = new Map<string, { leg: LedgerLeg; total: bigint }>();
  for (const leg of legs) {
    const seen = byAsset.get(leg.asset.code) ?? { leg, total: 0n };
    seen.total += BigInt(leg.amountRaw);
    byAsset.set(leg.asset.code, seen);
  }
  return [...byAsset.entries()].map(([code, { leg, total }]) => {
    const units = fromBaseUnits((total < 0n ? -total : total).toString(), leg.asset.decimals);
    return { code, name: assetName(leg.asset), symbol: leg.asset.symbol, sum: `${total < 0n ? '-' : ''}${units}`, zero: total === 0n };
  });
}

function legRow(leg: LedgerLeg): HTMLTableRowElement {
  return h(
    'tr',
    { dataset: { ledgerAccountId: leg.ledgerAccountId, kind: leg.accountKind, asset: leg.asset.code } },
    h('td', {}, h('a', { class: 'row-link ledger-code', href: hrefFor({ name: 'ledger-account', ledgerAccountId: leg.ledgerAccountId }) }, leg.accountCode)),
    h('td', {}, kindLabel(leg.accountKind)),
    h('td', {}, assetName(leg.asset)),
    amountCell(leg.amount, leg.asset.symbol, { plus: true, className: 'movement' }),
  );
}

/**
 * One ledger transaction (#/ledger-transaction/<id>): what caused it, its status, and every leg (account code, kind,
 * signed amount), with each asset's legs summed to show they come to zero. Refreshed every 10 s (a pending one is
 * posted once its block is final). Esc goes back to the ledger.
 */
export function mountLedgerTransaction(main: HTMLElement, api: ApiClient, route: LedgerTransactionRoute): () => void {
  const listRoute = lastLedgerRoute();
  const back = h('a', { href: hrefFor(listRoute), class: 'back', 'aria-keyshortcuts': 'Escape' }, '← Ledger');
  const title = h('h1', { id: 'page-title', tabindex: '-1' }, 'Ledger transaction');
  const badge = h('span', { class: 'badge-slot' });
  const meta = h('p', { class: 'muted case-meta' });
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const detailsSlot = h('div');
  const tbody = h('tbody');
  const tfoot = h('tfoot');
  const layout = h(
    'div',
    { class: 'ledger', hidden: true },
    h('section', { class: 'card', 'aria-labelledby': 'transaction-title' }, h('h2', { id: 'transaction-title' }, 'Transaction'), detailsSlot),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'legs-title' },
      h('h2', { id: 'legs-title' }, 'Legs'),
      h(
        'div',
        { class: 'table-wrap' },
        h('table', { class: 'queue ledger-legs' }, h('caption', { class: 'visually-hidden' }, 'Every leg of the transaction, and each asset’s sum'), headRow('Account', 'Kind', 'Asset', { label: 'Amount', amount: true }), tbody, tfoot),
      ),
    ),
  );
  fill(main, h('nav', { class: 'breadcrumb', 'aria-label': 'Breadcrumb' }, back), h('div', { class: 'page-head' }, title, badge), meta, problem, layout);
  document.title = 'Ledger transaction · Review console';

  function show(t: LedgerTransaction): void {
    fill(badge, ledgerStatusBadge(t.status, 'ledger-transaction-status'));
    meta.textContent = t.description;
    fill(
      detailsSlot,
      detailList([
        ['Description', t.description],
        ['Cause', causeText(t.cause)],
        ['Created', when(t.createdAt)],
        ['Posted', t.postedAt ? when(t.postedAt) : null],
        ['Archived', t.archivedAt ? when(t.archivedAt) : null],
        ['ID', h('code', {}, t.ledgerTransactionId)],
      ]),
    );
    fill(tbody, t.entries.map(legRow));
    fill(
      tfoot,
      sums(t.entries).map((s) =>
        h(
          'tr',
          { class: 'total', dataset: { asset: s.code } },
          h('th', { scope: 'row', colspan: '3' }, `Sum in ${s.name} `, balancedBadge(s.zero)),
          h('td', { class: 'amount sum' }, ledgerAmount(s.sum, s.symbol)),
        ),
      ),
    );
    layout.hidden = false;
  }

  const record = liveRecord({ problem, layout, noun: 'ledger transaction', fetch: (signal) => api.getLedgerTransaction(route.ledgerTransactionId, signal), show });
  setPageBindings({ Escape: () => navigate(listRoute) });
  return followRecord(record, title, REFRESH_MS);
}
