import { h } from '../dom';
import { BANK_ACCOUNT_STATUS_LABELS, PAYOUT_STATUS_LABELS, STATUS_LABELS, TRANSACTION_STATUS_LABELS } from '../format';
import type { BankAccountStatus, PayoutStatus, TransactionStatus, VerificationStatus } from '../types';

export function statusBadge(status: VerificationStatus, id?: string): HTMLSpanElement {
  return h('span', { class: 'badge', id, dataset: { status } }, STATUS_LABELS[status] ?? status);
}

export function bankAccountBadge(status: BankAccountStatus, id?: string): HTMLSpanElement {
  return h('span', { class: 'badge', id, dataset: { status } }, BANK_ACCOUNT_STATUS_LABELS[status] ?? status);
}

export function payoutBadge(status: PayoutStatus, id?: string): HTMLSpanElement {
  return h('span', { class: 'badge', id, dataset: { status } }, PAYOUT_STATUS_LABELS[status] ?? status);
}

/** A transaction's status (a deposit's, in the deposits list and on its page). */
export function transactionBadge(status: TransactionStatus, id?: string): HTMLSpanElement {
  return h('span', { class: 'badge', id, dataset: { status } }, TRANSACTION_STATUS_LABELS[status] ?? status);
}
