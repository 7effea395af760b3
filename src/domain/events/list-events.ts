import type { Executor } from '../../db/database.js';
import { findEvent, listEvents as listEventRows, type EventFilter } from '../../db/repositories/events.js';
import { invalidFields, notFound, type FieldError } from '../errors.js';
import { EVENT_TYPES } from './catalogue.js';
import { toEventView, type EventView } from './event-view.js';

export interface EventPage {
  data: EventView[];
  hasMore: boolean;
}

/** The integrator's events, newest first unless `order` is asc, Stripe-style cursor. */
export async function listEvents(db: Executor, integratorId: string, filter: EventFilter): Promise<EventPage> {
  if (filter.startingAfter && !(await findEvent(db, integratorId, filter.startingAfter))) throw notFound('Event startingAfter');
  const rows = await listEventRows(db, integratorId, filter);
  return { data: rows.slice(0, filter.limit).map(toEventView), hasMore: rows.length > filter.limit };
}

/** How often a long poll looks again: a listener costs one indexed query per interval. */
export const LONG_POLL_INTERVAL_MS = 250;

/**
 * list-events as a long poll (`waitSeconds`): when the page is empty, look again every LONG_POLL_INTERVAL_MS until an
 * event matches or the wait is over (or `aborted()`, the client went away); then answer as list-events does. This is
 * what `integrator listen` and `events tail` follow, with order=asc and startingAfter the last event seen.
 */
export async function listEventsWaiting(
  db: Executor,
  integratorId: string,
  filter: EventFilter,
  wait: { ms: number; pause: (ms: number) => Promise<void>; aborted: () => boolean },
): Promise<EventPage> {
  const deadline = Date.now() + wait.ms;
  for (;;) {
    const page = await listEvents(db, integratorId, filter);
    const left = deadline - Date.now();
    if (page.data.length > 0 || left <= 0 || wait.aborted()) return page;
    await wait.pause(Math.min(LONG_POLL_INTERVAL_MS, left));
  }
}

export async function getEvent(db: Executor, integratorId: string, id: string): Promise<EventView> {
  const row = await findEvent(db, integratorId, id);
  if (!row) throw notFound('Event');
  return toEventView(row);
}

/** `type` and `types` name catalogue types only: a typo is a 400, not an empty page. */
export function eventTypeFilter(type: string | undefined, types: string | undefined): string[] | undefined {
  const errors: FieldError[] = [];
  const check = (t: string, pointer: string) => {
    if (!(t in EVENT_TYPES)) errors.push({ pointer, code: 'unknown_event_type', detail: `${t} is not an event type (docs/event-types.md)`, in: 'query' });
  };
  const list: string[] = [];
  if (type !== undefined) {
    check(type, '/type');
    list.push(type);
  }
  if (types !== undefined) {
    const parts = types.split(',').map((t) => t.trim());
    if (parts.length > 20) errors.push({ pointer: '/types', code: 'too_many_items', detail: 'at most 20 types', in: 'query' });
    parts.forEach((t) => check(t, '/types'));
    list.push(...parts);
  }
  if (errors.length > 0) throw invalidFields(errors);
  return list.length > 0 ? [...new Set(list)] : undefined;
}
