import type { Executor } from '../../db/database.js';
import { findEvent, listEvents as listEventRows, type EventFilter } from '../../db/repositories/events.js';
import { notFound } from '../errors.js';
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

export async function getEvent(db: Executor, integratorId: string, id: string): Promise<EventView> {
  const row = await findEvent(db, integratorId, id);
  if (!row) throw notFound('Event');
  return toEventView(row);
}
