import type { ApiClient } from '../api';
import { fill, h } from '../dom';
import { age, cryptoAmount, dateTime, timeOfDay } from '../format';
import { setPageBindings } from '../keyboard';
import type { Treasury, TreasuryBalance, WaitingPayout } from '../money-types';
import { poll } from '../poller';
import { hrefFor } from '../router';
import { liveLoader } from './live-list';
import { copyable } from './withdrawal';

/** Each refresh reads every chain (one balance call per asset): every 10 s, as the other lists, is plenty. */
const REFRESH_MS = 10_000;

/** "1,000,000.00 USDC on Base"; a chain that did not answer says so instead of showing a stale or made-up figure. */
function balanceCell(b: TreasuryBalance): HTMLElement {
  if (b.amount === undefined) return h('td', { class: 'balance unavailable' }, h('strong', {}, 'Unavailable: '), b.error ?? 'the chain did not answer');
  return h('td', { class: 'amount balance' }, cryptoAmount(b.amount, b.symbol, b.chainId));
}

function balanceRow(b: TreasuryBalance): HTMLTableRowElement {
  return h(
    'tr',
    { dataset: { chainId: String(b.chainId), symbol: b.symbol } },
    h('th', { scope: 'row' }, b.symbol),
    balanceCell(b),
    h('td', {}, b.tokenAddress ? h('code', { class: 'address' }, b.tokenAddress) : h('span', { class: 'muted' }, 'Native coin')),
  );
}

/** A deposit's payout links to the deposit (found by its reference); a refund has none to show. */
function payoutRow(p: WaitingPayout): HTMLTableRowElement {
  const what =
    p.kind === 'deposit' && p.reference
      ? ['Deposit ', h('a', { href: hrefFor({ name: 'deposit', reference: p.reference }) }, h('code', {}, p.reference))]
      : ['Refund ', h('code', { class: 'muted' }, p.transactionId)];
  return h(
    'tr',
    { dataset: { transactionId: p.transactionId } },
    h('td', {}, what),
    h('td', { class: 'amount' }, cryptoAmount(p.cryptoAmount, p.asset, p.chainId)),
    h('td', { class: 'reason wrap' }, p.payoutError),
    h('td', { class: 'amount' }, String(p.attempts)),
    h('td', {}, h('time', { datetime: p.since, title: dateTime(p.since) }, age(p.since))),
  );
}

/** Column headers; a number's header is right-aligned over its figures. */
const headRow = (...columns: (string | { label: string; amount: true })[]) =>
  h(
    'thead',
    {},
    h(
      'tr',
      {},
      columns.map((c) => (typeof c === 'string' ? h('th', { scope: 'col' }, c) : h('th', { scope: 'col', class: 'amount' }, c.label))),
    ),
  );

/**
 * The treasury deposits and refunds are paid out from: its address (to fund it), its balance of every chain's native
 * coin and listed token in the asset's units (never base units), and the payouts that wait for it, with why.
 * Refreshed every 10 s; only a change is redrawn.
 */
export function mountTreasury(main: HTMLElement, api: ApiClient): () => void {
  const updated = h('span', { class: 'muted updated' });
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const addressSlot = h('div');
  const balances = h('tbody');
  const waiting = h('tbody');
  const waitingSummary = h('p', { id: 'waiting-summary', class: 'muted' });
  const content = h(
    'div',
    { class: 'treasury' },
    h('section', { class: 'card', 'aria-labelledby': 'wallet-title' }, h('h2', { id: 'wallet-title' }, 'Wallet'), addressSlot),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'balances-title' },
      h('h2', { id: 'balances-title' }, 'Balances'),
      h('div', { class: 'table-wrap' }, h('table', { class: 'queue balances' }, h('caption', { class: 'visually-hidden' }, 'The treasury’s balance of each asset, by chain'), headRow('Asset', { label: 'Balance', amount: true }, 'Token contract'), balances)),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'waiting-title' },
      h('h2', { id: 'waiting-title' }, 'Waiting payouts'),
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'queue waiting-payouts', 'aria-describedby': 'waiting-summary' },
          h('caption', { class: 'visually-hidden' }, 'Payouts whose last attempt failed, oldest first, with why'),
          headRow('Payout', { label: 'Amount', amount: true }, 'Why it waits', { label: 'Attempts', amount: true }, 'Last attempt'),
          waiting,
        ),
      ),
      waitingSummary,
    ),
  );

  fill(
    main,
    h('div', { class: 'page-head' }, h('h1', { id: 'page-title', tabindex: '-1' }, 'Treasury'), updated),
    h('p', { class: 'muted intro' }, 'The wallet deposits and refunds are paid out from. A payout it cannot cover waits, unsigned, and is tried again until the wallet is funded.'),
    problem,
    content,
  );
  document.title = 'Treasury · Review console';

  function render(t: Treasury): void {
    fill(
      addressSlot,
      t.address
        ? h('dl', { class: 'details' }, h('dt', {}, 'Address'), h('dd', {}, copyable('Address', t.address, h('code', { id: 'treasury-address' }, t.address))))
        : h('p', { class: 'muted' }, 'No treasury is configured: deposits are unavailable.'),
    );
    if (t.balances.length === 0) fill(balances, h('tr', {}, h('td', { colspan: '3', class: 'empty' }, 'No chains are configured.')));
    else fill(balances, t.balances.map(balanceRow));
    if (t.waitingPayouts.length === 0) fill(waiting, h('tr', {}, h('td', { colspan: '5', class: 'empty' }, 'No payouts waiting: the treasury covers every payout due.')));
    else fill(waiting, t.waitingPayouts.map(payoutRow));
    const n = t.waitingPayouts.length;
    waitingSummary.textContent = n ? `${n} payout${n > 1 ? 's' : ''} waiting${n === 100 ? ' (the oldest 100)' : ''}. Oldest first.` : '';
    updated.textContent = `Updated ${timeOfDay()}`;
  }

  let current: Treasury | null = null;
  const loader = liveLoader({
    table: content,
    problem,
    updated,
    what: 'treasury',
    fetch: (signal) => api.treasury(signal),
    received: (result) => (current = result),
    show: () => current && render(current),
  });

  setPageBindings({});
  void loader.load(true).catch(() => {});
  const stopPolling = poll(() => loader.load(false), REFRESH_MS);
  return () => {
    stopPolling();
    loader.abort();
    setPageBindings({});
  };
}
