import { h } from '../dom';
import { assetName, chainOfAsset, counted } from '../ledger-format';
import type { TrialBalance, TrialBalanceAsset } from '../ledger-types';
import { amountCell, balancedBadge, headRow, kindLabel } from './ledger-parts';

/** One asset: its posted and pending balances per kind of account, and their sums, which are zero when it balances. */
function assetTable(a: TrialBalanceAsset): HTMLElement {
  const name = assetName({ symbol: a.symbol, chainId: chainOfAsset(a.asset) });
  const titleId = `trial-${a.asset.replace(/[^a-z0-9]+/gi, '-')}`;
  return h(
    'section',
    { class: 'trial-asset', 'aria-labelledby': titleId, dataset: { asset: a.asset, balanced: String(a.balanced) } },
    h('div', { class: 'trial-head' }, h('h3', { id: titleId }, name), balancedBadge(a.balanced)),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'queue trial-balance' },
        h('caption', { class: 'visually-hidden' }, `${name}: balances per kind of account`),
        headRow('Kind of account', { label: 'Accounts', amount: true }, { label: 'Posted', amount: true }, { label: 'Pending', amount: true }),
        h(
          'tbody',
          {},
          a.byKind.map((line) =>
            h(
              'tr',
              { dataset: { kind: line.kind } },
              h('th', { scope: 'row' }, kindLabel(line.kind)),
              h('td', { class: 'amount' }, String(line.accounts)),
              amountCell(line.posted, a.symbol),
              amountCell(line.pending, a.symbol),
            ),
          ),
        ),
        h(
          'tfoot',
          {},
          h('tr', { class: 'total' }, h('th', { scope: 'row' }, 'Sum'), h('td', {}), amountCell(a.posted, a.symbol, { className: 'sum-posted' }), amountCell(a.pending, a.symbol, { className: 'sum-pending' })),
        ),
      ),
    ),
  );
}

/** The trial balance's content: whether every asset sums to zero, then each asset's table. */
export function trialBalanceContent(t: TrialBalance): HTMLElement[] {
  const verdict = h(
    'p',
    { class: 'trial-verdict', id: 'trial-balance-verdict' },
    balancedBadge(t.balanced, 'trial-balance-status'),
    ' ',
    t.balanced
      ? `Every asset sums to zero (${counted(t.assets.length, 'asset')}).`
      : `${counted(t.assets.filter((a) => !a.balanced).length, 'asset does', 'assets do')} not sum to zero: the books do not balance.`,
  );
  if (t.assets.length === 0) return [verdict, h('p', { class: 'muted' }, 'Nothing has been posted yet.')];
  return [verdict, ...t.assets.map(assetTable)];
}
