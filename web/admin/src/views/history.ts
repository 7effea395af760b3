import { h } from '../dom';
import { BANK_ACCOUNT_STATUS_LABELS, dateTime, humanize, STATUS_LABELS } from '../format';
import type { BankAccountHistoryEntry, HistoryEntry } from '../types';

const ACTORS: Record<string, string> = { operator: 'Compliance officer', integrator: 'Integrator', system: 'System', sandbox: 'Sandbox simulation' };

/** Every status change, newest first: what happened, who did it, why, when. */
export function historyTimeline(history: HistoryEntry[], operatorNames: ReadonlyMap<string, string>): HTMLElement {
  if (history.length === 0) return h('p', { class: 'muted' }, 'No status changes yet.');
  return h(
    'ol',
    { class: 'timeline', reversed: true },
    [...history].reverse().map((entry) => {
      const actor = ACTORS[entry.actorType] ?? humanize(entry.actorType);
      const who = entry.actorType === 'operator' && entry.actorId && operatorNames.has(entry.actorId) ? `${actor} ${operatorNames.get(entry.actorId)}` : actor;
      return h(
        'li',
        { dataset: { status: entry.toStatus } },
        h(
          'div',
          { class: 'timeline-head' },
          h('strong', {}, humanize(entry.action)),
          ' → ',
          STATUS_LABELS[entry.toStatus] ?? entry.toStatus,
          h('time', { datetime: entry.at, class: 'muted' }, dateTime(entry.at)),
        ),
        h('div', { class: 'muted', title: entry.actorId ?? undefined }, `by ${who}`, entry.fromStatus ? ` · from ${STATUS_LABELS[entry.fromStatus] ?? entry.fromStatus}` : ''),
        entry.reason && entry.reason !== entry.action ? h('blockquote', { class: 'reason' }, entry.reason) : null,
      );
    }),
  );
}

/** A bank account's status changes, newest first: the new status, who, from what, why, when. */
export function bankAccountTimeline(history: BankAccountHistoryEntry[], operatorNames: ReadonlyMap<string, string>): HTMLElement {
  if (history.length === 0) return h('p', { class: 'muted' }, 'No status changes yet.');
  const label = (s: string) => BANK_ACCOUNT_STATUS_LABELS[s as keyof typeof BANK_ACCOUNT_STATUS_LABELS] ?? s;
  return h(
    'ol',
    { class: 'timeline', reversed: true },
    [...history].reverse().map((entry) => {
      const actor = ACTORS[entry.actorType] ?? humanize(entry.actorType);
      const who = entry.actorType === 'operator' && entry.actorId && operatorNames.has(entry.actorId) ? `${actor} ${operatorNames.get(entry.actorId)}` : actor;
      return h(
        'li',
        { dataset: { status: entry.toStatus } },
        h('div', { class: 'timeline-head' }, h('strong', {}, entry.fromStatus ? label(entry.toStatus) : `Added · ${label(entry.toStatus)}`), h('time', { datetime: entry.at, class: 'muted' }, dateTime(entry.at))),
        h('div', { class: 'muted', title: entry.actorId ?? undefined }, `by ${who}`, entry.fromStatus ? ` · from ${label(entry.fromStatus)}` : ''),
        entry.reason ? h('blockquote', { class: 'reason' }, entry.reason) : null,
      );
    }),
  );
}
