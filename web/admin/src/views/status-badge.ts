import { h } from '../dom';
import { STATUS_LABELS } from '../format';
import type { VerificationStatus } from '../types';

export function statusBadge(status: VerificationStatus, id?: string): HTMLSpanElement {
  return h('span', { class: 'badge', id, dataset: { status } }, STATUS_LABELS[status] ?? status);
}
