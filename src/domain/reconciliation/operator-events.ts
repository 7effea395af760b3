import type { Executor } from '../../db/database.js';
import { insertOperatorEvent } from '../../db/repositories/reconciliation.js';
import { newId } from '../ids.js';

/** The operators' event types (never an integrator's): GET /admin/api/events lists them. */
export const OPERATOR_EVENT_TYPES = ['reconciliation.completed'] as const;
export type OperatorEventType = (typeof OPERATOR_EVENT_TYPES)[number];

/** Records an operators' event in the caller's database transaction (with the change it tells of). */
export async function recordOperatorEvent(tx: Executor, type: OperatorEventType, data: Record<string, unknown>, at: Date): Promise<string> {
  const id = newId();
  await insertOperatorEvent(tx, { id, type, data, createdAt: at });
  return id;
}
