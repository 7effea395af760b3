import { h } from '../dom';
import { BANK_ACCOUNT_STATUS_LABELS, PAYOUT_STATUS_LABELS, STATUS_LABELS } from '../format';
import type { BankAccountStatus, PayoutStatus, VerificationStatus } from '../types';

export function statusBadge(status: VerificationStatus, id?: string): HTMLSpanElement {
  return h('span', { class: 'badge', id, dataset: { status } }, STATUS_LABELS[status] ?? status);
}

export function bankAccountBadge(status: BankAccountStatus, id?: string): HTMLSpanElement {
  return h('span', { class: 'badge', id, dataset: { status } }, BANK_ACCOUNT_STATUS_LABELS[status] ?? status);
}

export function payoutBadge(status: PayoutStatus, id?: string): HTMLSpanElement {
  return h('span', { class: 'badge', id, dataset: { status } }, PAYOUT_STATUS_LABELS[status] ?? status);
}
