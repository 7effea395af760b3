import type { EventRow } from '../../db/repositories/events.js';
import type { EventType } from './catalogue.js';

/** An event as the API returns it and as webhooks deliver it (the body of a delivery is exactly this). */
export interface EventView {
  id: string;
  type: EventType;
  objectType: string;
  objectId: string;
  /** Per object, strictly increasing: order a receiver's events of one object by it. */
  sequence: number;
  apiVersion: string;
  createdAt: string;
  data: { object: unknown; previousAttributes?: Record<string, unknown>; [extra: string]: unknown };
}

export function toEventView(row: EventRow): EventView {
  return {
    id: row.id,
    // recordEvent writes catalogued types only.
    type: row.type as EventType,
    objectType: row.objectType,
    objectId: row.objectId,
    sequence: row.sequence,
    apiVersion: row.apiVersion,
    createdAt: row.createdAt.toISOString(),
    data: row.data as EventView['data'],
  };
}
