import type { OperatorRef, ReviewItemBackOffice } from '../back-office-types';
import { h } from '../dom';

/**
 * What a queue row flags beside the status, in words (a screen reader reads the cell as it is): open screening
 * hits, error findings, duplicates, a proposal awaiting confirmation, and why a decided case is open again.
 */
export function flagsCell(item: ReviewItemBackOffice): HTMLElement {
  const f = item.flags;
  const tags = [
    f?.openHits ? h('span', { class: 'flag flag-hit', dataset: { flag: 'open_hits' } }, `${f.openHits} open hit${f.openHits > 1 ? 's' : ''}`) : null,
    f?.errorFindings ? h('span', { class: 'flag flag-error', dataset: { flag: 'error_findings' } }, `${f.errorFindings} error${f.errorFindings > 1 ? 's' : ''}`) : null,
    f?.duplicates ? h('span', { class: 'flag', dataset: { flag: 'duplicates' } }, 'Duplicate') : null,
    f?.proposal ? h('span', { class: 'flag flag-proposal', dataset: { flag: 'proposal_pending' }, title: `Proposed by ${f.proposal.proposedBy.name}` }, 'Awaiting confirmation') : null,
    item.openReason ? h('span', { class: 'flag', dataset: { flag: 'reopened' } }, item.openReason === 'screening_hit' ? 'Reopened: hit' : 'Reopened: listed address') : null,
  ].filter((t) => t !== null);
  return h('td', { class: 'flags' }, tags.length ? tags : h('span', { class: 'muted' }, '—'));
}

export function assigneeCell(assignee: OperatorRef | null | undefined, me: string): HTMLElement {
  if (!assignee) return h('td', { class: 'muted' }, assignee === null ? 'Unassigned' : '—');
  return h('td', {}, assignee.operatorId === me ? h('strong', {}, 'You') : assignee.name);
}
