import { h, type Children } from '../dom';
import { dateTime } from '../format';
import { assetName, LEDGER_KIND_LABELS, LEDGER_STATUS_LABELS, ledgerAmount } from '../ledger-format';
import type { LedgerAccount, LedgerAccountKind, LedgerStatus } from '../ledger-types';

// What the ledger's and reconciliation's pages share: column headers, figures, badges and detail lists.

/** A column header; a number's is right-aligned over its figures. */
export type Column = string | { label: string; amount: true };

export const headRow = (...columns: Column[]) =>
  h(
    'thead',
    {},
    h(
      'tr',
      {},
      columns.map((c) => (typeof c === 'string' ? h('th', { scope: 'col' }, c) : h('th', { scope: 'col', class: 'amount' }, c.label))),
    ),
  );

/** A right-aligned figure in the asset's units with its symbol ("-0.00002 ETH"), `plus` for a movement. */
export const amountCell = (amount: string, symbol: string, options: { plus?: boolean; className?: string } = {}) =>
  h('td', { class: `amount${options.className ? ` ${options.className}` : ''}`, dataset: { amount } }, ledgerAmount(amount, symbol, options));

/** "30 Nov 2026, 12:34 UTC" in a <time>. */
export const when = (iso: string) => h('time', { datetime: iso }, dateTime(iso));

export const none = () => h('span', { class: 'muted' }, '—');

export function detailList(rows: [string, Children][]): HTMLElement {
  return h('dl', { class: 'details' }, rows.map(([term, value]) => [h('dt', {}, term), h('dd', {}, value === null || value === undefined || value === '' ? none() : value)]));
}

export function ledgerStatusBadge(status: LedgerStatus, id?: string): HTMLSpanElement {
  return h('span', { class: 'badge', id, dataset: { status } }, LEDGER_STATUS_LABELS[status] ?? status);
}

/** "Balanced" in green or "Not balanced" in red: said in words, never by colour alone. */
export function balancedBadge(balanced: boolean, id?: string): HTMLSpanElement {
  return h('span', { class: 'badge', id, dataset: { status: balanced ? 'balanced' : 'not-balanced' } }, balanced ? 'Balanced' : 'Not balanced');
}

export const kindLabel = (kind: LedgerAccountKind) => LEDGER_KIND_LABELS[kind] ?? kind;

/**
 * An account as an operator reads it: "Treasury · ETH on Base", "Customer wallet 1a2b3c4d… · ETH on Base" (the
 * customer account's id shortened, in full on hover).
 */
export function accountName(a: Pick<LedgerAccount, 'kind' | 'accountId' | 'asset'>): string {
  const holder = a.kind === 'customer' && a.accountId ? `${kindLabel(a.kind)} ${a.accountId.slice(0, 8)}…` : kindLabel(a.kind);
  return `${holder} · ${assetName(a.asset)}`;
}
