import type { Executor } from '../../db/database.js';
import { requiredCounts, requiringCounts, type CheckedWrite } from '../checked-writes.js';
import { appendEvents } from '../../db/repositories/events.js';
import { API_VERSION } from '../../version.js';
import { newId } from '../ids.js';
import { patternsMatching, type EventType } from './catalogue.js';

export interface DomainEvent {
  integratorId: string;
  /** Dotted, `<object>.<what happened>`, one of the catalogue's. */
  type: EventType;
  objectType: string;
  objectId: string;
  /** The resource as the API returns it, after the change. */
  object: unknown;
  /** For updates: the changed fields' values before the change. */
  previousAttributes?: Record<string, unknown>;
  /** Extra members of `data` for types that document them (e.g. `reason` of webhook_subscription.disabled). */
  extra?: Record<string, unknown>;
  at: Date;
  /** Deliver to this subscription only (webhook.test). */
  onlySubscriptionId?: string;
}

/**
 * Writes the event row and queues its webhook deliveries; call it with the transaction that makes the
 * change, so the change, its event and their deliveries commit together or not at all.
 */
export async function recordEvent(tx: Executor, e: DomainEvent): Promise<{ id: string; sequence: number }> {
  const [recorded] = await recordEvents(tx, [e]);
  return recorded!;
}

/**
 * recordEvent for several events in one statement, in the order given (one object's events take consecutive
 * sequence numbers). `alongside`: the change's own writes (its audit row, the approval it used), sent in the same
 * statement, which fails as a whole when one of them did not take effect; that write's problem is thrown.
 */
export async function recordEvents(tx: Executor, list: DomainEvent[], alongside: CheckedWrite[] = []): Promise<{ id: string; sequence: number }[]> {
  const rows = list.map((e) => ({
    id: newId(),
    integratorId: e.integratorId,
    type: e.type,
    objectType: e.objectType,
    objectId: e.objectId,
    apiVersion: API_VERSION,
    data: { ...e.extra, object: e.object, ...(e.previousAttributes ? { previousAttributes: e.previousAttributes } : {}) },
    createdAt: e.at,
    subscriptionPatterns: patternsMatching(e.type),
    ...(e.onlySubscriptionId ? { onlySubscriptionId: e.onlySubscriptionId } : {}),
  }));
  const appended = await requiringCounts(alongside, () =>
    appendEvents(
      tx,
      rows,
      alongside.map((w) => w.write),
      requiredCounts(alongside),
    ),
  );
  return rows.map((row, i) => ({ id: row.id, sequence: appended.events[i]!.sequence }));
}
