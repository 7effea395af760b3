import { sql } from 'drizzle-orm';
import type { Executor } from '../database.js';

export interface EventInsert {
  id: string;
  integratorId: string;
  type: string;
  objectType: string;
  objectId: string;
  apiVersion: string;
  data: unknown;
  createdAt: Date;
}

/**
 * Appends an event with the next per-object sequence number. Writers of one object normally hold its row
 * lock; if two race anyway the unique (object_id, sequence) index fails one transaction rather than
 * producing a gap or a duplicate.
 */
export async function appendEvent(db: Executor, e: EventInsert): Promise<{ sequence: number }> {
  const result = await db.execute<{ sequence: number }>(sql`
    insert into events (id, integrator_id, type, object_type, object_id, sequence, api_version, data, created_at)
    select ${e.id}, ${e.integratorId}, ${e.type}, ${e.objectType}, ${e.objectId},
           coalesce(max(sequence), 0) + 1, ${e.apiVersion}, ${JSON.stringify(e.data)}::jsonb, ${e.createdAt.toISOString()}::timestamptz
    from events where object_id = ${e.objectId}
    returning sequence`);
  const rows = (result as unknown as { rows: { sequence: number }[] }).rows;
  return { sequence: Number(rows[0]!.sequence) };
}
