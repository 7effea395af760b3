import type { TimelineItem } from '../back-office-types';
import { h } from '../dom';
import { dateTime, humanize } from '../format';

const ACTORS: Record<TimelineItem['actor']['type'], string> = { operator: 'Compliance officer', integrator: 'Integrator', system: 'System', sandbox: 'Sandbox simulation' };

/** What each kind of entry is called; a kind the server adds later reads as its words. */
const KINDS: Record<string, string> = {
  status_changed: 'Status changed',
  hit_cleared: 'Screening hit cleared (the data no longer matches)',
  note: 'Note',
  claimed: 'Claimed',
  released: 'Released',
  proposed: 'Proposed',
  confirmed: 'Proposal confirmed',
  overturned: 'Proposal overturned',
  withdrawn: 'Proposal withdrawn',
  hit_raised: 'Screening hit raised',
  hit_dispositioned: 'Screening hit dispositioned',
  opened: 'Case opened',
  closed: 'Case closed',
};

/**
 * The case's whole story, newest first: status changes, notes, claims, proposals, hits and their dispositions. Times
 * are shown in UTC and say so, the zone of the audit trail, so two officers in two countries read the same time.
 */
export function caseTimeline(items: TimelineItem[]): HTMLElement {
  if (items.length === 0) return h('p', { class: 'muted' }, 'Nothing has happened on this case yet.');
  return h(
    'ol',
    { class: 'timeline', reversed: true },
    [...items].reverse().map((item) => {
      const who = item.actor.name ? `${ACTORS[item.actor.type] ?? humanize(item.actor.type)} ${item.actor.name}` : (ACTORS[item.actor.type] ?? humanize(item.actor.type));
      return h(
        'li',
        { dataset: { kind: item.kind } },
        h('div', { class: 'timeline-head' }, h('strong', {}, KINDS[item.kind] ?? humanize(item.kind)), h('time', { datetime: item.at, class: 'muted' }, dateTime(item.at))),
        h('div', { class: 'muted', title: item.actor.id ?? undefined }, `by ${who}`),
        item.summary ? h(item.kind === 'note' ? 'blockquote' : 'p', { class: item.kind === 'note' ? 'reason' : 'timeline-summary' }, item.summary) : null,
      );
    }),
  );
}
