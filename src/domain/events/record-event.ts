import type { Executor } from '../../db/database.js';
import { appendEvent } from '../../db/repositories/events.js';
import { API_VERSION } from '../../version.js';
import { newId } from '../ids.js';

export interface DomainEvent {
  integratorId: string;
  /** Dotted, `<object>.<what happened>`, e.g. credential.created. */
  type: string;
  objectType: string;
  objectId: string;
  /** The resource as the API returns it, after the change. */
  object: unknown;
  /** For updates: the changed fields' values before the change. */
  previousAttributes?: Record<string, unknown>;
  at: Date;
}

/** Writes the event row; call it with the transaction that makes the change. */
export async function recordEvent(tx: Executor, e: DomainEvent): Promise<{ id: string; sequence: number }> {
  const id = newId();
  const data = e.previousAttributes ? { object: e.object, previousAttributes: e.previousAttributes } : { object: e.object };
  const { sequence } = await appendEvent(tx, {
    id,
    integratorId: e.integratorId,
    type: e.type,
    objectType: e.objectType,
    objectId: e.objectId,
    apiVersion: API_VERSION,
    data,
    createdAt: e.at,
  });
  return { id, sequence };
}
