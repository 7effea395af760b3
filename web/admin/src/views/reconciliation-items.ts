import { h, type Children } from '../dom';
import { chainName } from '../format';
import { dateOnly, EXCEPTION_LABELS, EXPECTED_KIND_LABELS, ledgerAmount } from '../ledger-format';
import type { ExpectedMovement, ReconciliationBreak, ReconciliationException, StatementLine, StatementMatch } from '../reconciliation-types';
import { hrefFor } from '../router';
import type { Operator } from '../types';
import { detailList, headRow, when } from './ledger-parts';
import { breakForm, exceptionForms, type ItemContext } from './reconciliation-forms';

/** What the run page keeps across its redraws: each open item's form (what was typed stays) and problem box. */
export interface ItemCache extends ItemContext {
  operator: Operator;
  forms: Map<string, HTMLElement>;
  problems: Map<string, HTMLElement>;
}

const STATUS_LABELS: Record<string, string> = { open: 'Open', resolved: 'Resolved', matched: 'Matched' };
const statusBadge = (status: string) => h('span', { class: 'badge', dataset: { status } }, STATUS_LABELS[status] ?? status);

/** The operator by name when it is the one signed in; "Automatically" for the matcher's own; else the id. */
export function who(id: string | null, me: Operator): Children {
  if (!id) return null;
  if (id === 'auto') return 'Automatically';
  return id === me.operatorId ? `You (${me.name})` : h('code', {}, id);
}

function problemOf(cache: ItemCache, id: string): HTMLElement {
  let box = cache.problems.get(id);
  if (!box) {
    box = h('div', { class: 'problem', role: 'alert', hidden: true, id: `problem-${id}` });
    cache.problems.set(id, box);
  }
  return box;
}

function formOf(cache: ItemCache, id: string, make: () => HTMLElement): HTMLElement {
  let form = cache.forms.get(id);
  if (!form) {
    form = make();
    cache.forms.set(id, form);
  }
  return form;
}

/** How it was worked: the note, who, when (and the adjustment a break posted). */
function worked(item: { note: string | null; resolvedBy: string | null; resolvedAt: string | null }, me: Operator, more: [string, Children][] = []): HTMLElement {
  return h(
    'div',
    { class: 'worked' },
    item.note ? h('blockquote', { class: 'reason' }, item.note) : null,
    detailList([['By', who(item.resolvedBy, me)], ['When', item.resolvedAt ? when(item.resolvedAt) : null], ...more]),
  );
}

function itemHead(id: string, title: string, status: string): HTMLElement {
  return h('div', { class: 'item-head' }, h('h3', { id: `item-${id}`, class: 'item-title', tabindex: '-1' }, title), statusBadge(status));
}

/** "Treasury", "Customer wallet 1a2b3c4d…": whose holding a break is, from its ledger account's code. */
const holder = (b: ReconciliationBreak) => (b.ledgerAccountCode.startsWith('customer:') ? `Customer wallet ${b.accountId ? `${b.accountId.slice(0, 8)}…` : ''}`.trim() : 'Treasury');

/** A break: whose holding, the ledger's and the chain's figures at the block, the difference; its form while open. */
export function breakCard(b: ReconciliationBreak, cache: ItemCache): HTMLElement {
  const s = b.asset.symbol;
  const details = detailList([
    ['Ledger account', h('code', { class: 'ledger-code' }, b.ledgerAccountCode)],
    ['Address', h('code', { class: 'address' }, b.address)],
    ['Customer account', b.accountId ? h('code', {}, b.accountId) : null],
    ['Ledger', h('span', { class: 'figure ledger-figure' }, ledgerAmount(b.ledger.amount, s))],
    ['Chain', h('span', { class: 'figure chain-figure' }, ledgerAmount(b.chain.amount, s))],
    ['Difference (chain − ledger)', h('strong', { class: 'figure difference' }, ledgerAmount(b.difference.amount, s, { plus: true }))],
    ['Block', `${b.blockNumber} on ${chainName(b.chainId)}`],
  ]);
  const adjustment: [string, Children][] = [
    ['Ledger adjustment', b.adjustmentLedgerTransactionId ? h('a', { href: hrefFor({ name: 'ledger-transaction', ledgerTransactionId: b.adjustmentLedgerTransactionId }) }, 'The adjustment’s legs') : 'None: closed with the note alone'],
  ];
  return h(
    'article',
    { class: 'card recon-item', 'aria-labelledby': `item-${b.breakId}`, dataset: { breakId: b.breakId, status: b.status } },
    itemHead(b.breakId, `${holder(b)} · ${s} on ${chainName(b.chainId)}`, b.status),
    details,
    b.status === 'open' ? formOf(cache, b.breakId, () => breakForm(cache, b, problemOf(cache, b.breakId))) : worked(b, cache.operator, adjustment),
    problemOf(cache, b.breakId),
  );
}

/** "Credit 33.00 USD". */
const lineAmount = (l: StatementLine) => `${l.direction === 'credit' ? 'Credit' : 'Debit'} ${ledgerAmount(l.amount, l.currency)}`;

/** A movement by its reference, linked to its page (a deposit's, a payout's). */
function movement(kind: ExpectedMovement['kind'], reference: string | null): Children {
  if (!reference) return EXPECTED_KIND_LABELS[kind];
  const href = kind === 'deposit' ? (/^DEP-[0-9A-Z]{12}$/.test(reference) ? hrefFor({ name: 'deposit', reference }) : null) : /^WDR-[0-9A-Z]{12}$/.test(reference) ? hrefFor({ name: 'withdrawal', reference }) : null;
  return [`${EXPECTED_KIND_LABELS[kind]} `, href ? h('a', { href }, h('code', {}, reference)) : h('code', {}, reference)];
}

function lineDetails(l: StatementLine | null): [string, Children][] {
  if (!l) return [['Statement line', 'None: no line paid it']];
  return [
    ['Line', h('strong', { class: 'figure line-amount' }, lineAmount(l))],
    ['Booked', l.bookingDate ? dateOnly(l.bookingDate) : null],
    ['Value date', l.valueDate ? dateOnly(l.valueDate) : null],
    ['References', l.references.length ? h('ul', { class: 'references' }, l.references.map((r) => h('li', {}, h('code', {}, r)))) : null],
    ['Counterparty', l.counterpartyName],
    ...(l.isReturn ? ([['Return', l.returnReason ?? 'Yes']] as [string, Children][]) : []),
  ];
}

/** An exception: its type in words, the statement line, the movement it concerns; its forms while open. */
export function exceptionCard(e: ReconciliationException, cache: ItemCache): HTMLElement {
  const expected: [string, Children][] = e.expected ? [['Expected', [movement(e.expected.kind, e.expected.reference), e.expected.amount ? ` · ${e.line ? ledgerAmount(e.expected.amount, e.line.currency) : e.expected.amount}` : null]]] : [];
  return h(
    'article',
    { class: 'card recon-item', 'aria-labelledby': `item-${e.exceptionId}`, dataset: { exceptionId: e.exceptionId, type: e.type, status: e.status } },
    itemHead(e.exceptionId, EXCEPTION_LABELS[e.type] ?? e.type, e.status),
    h('p', { class: 'item-detail' }, e.detail),
    detailList([...lineDetails(e.line), ...expected]),
    e.status === 'open' ? formOf(cache, e.exceptionId, () => exceptionForms(cache, e, problemOf(cache, e.exceptionId))) : worked(e, cache.operator),
    problemOf(cache, e.exceptionId),
  );
}

/** The lines matched to a movement: automatically by the run, or by hand. */
export function matchedTable(matched: StatementMatch[], me: Operator): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'queue matched-lines' },
      h('caption', { class: 'visually-hidden' }, 'Statement lines matched to a movement'),
      headRow({ label: 'Line', amount: true }, 'Booked', 'Movement', 'Matched'),
      h(
        'tbody',
        {},
        matched.length
          ? matched.map((m) =>
              h(
                'tr',
                { dataset: { lineId: m.lineId, reference: m.reference } },
                h('td', { class: 'amount' }, lineAmount(m.line)),
                h('td', {}, m.line.bookingDate ? dateOnly(m.line.bookingDate) : '—'),
                h('td', {}, movement(m.kind, m.reference)),
                h('td', {}, who(m.matchedBy, me)),
              ),
            )
          : h('tr', {}, h('td', { colspan: '4', class: 'empty' }, 'No line matched.')),
      ),
    ),
  );
}
