import { and, asc, desc, eq, gt, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import { selectRows, type Executor } from '../database.js';
import { events } from '../schema/index.js';

export interface EventInsert {
  id: string;
  integratorId: string;
  type: string;
  objectType: string;
  objectId: string;
  apiVersion: string;
  data: unknown;
  createdAt: Date;
  /** Subscription patterns that select this type (see catalogue.patternsMatching). */
  subscriptionPatterns: string[];
  /** Deliver to this subscription only, whatever its event types (webhook.test); otherwise to every one selecting the type. */
  onlySubscriptionId?: string;
}

export type EventRow = typeof events.$inferSelect;

/** The NOTIFY channel webhook workers listen on; a commit that queued deliveries wakes them. */
export const DELIVERY_CHANNEL = 'webhook_deliveries';

/**
 * Appends an event with the object's next sequence number (from event_sequences, whose row lock orders
 * concurrent writers of one object) and, in the same statement, queues one webhook delivery per enabled
 * subscription of the integrator that selects its type (the outbox), notifying workers when there is one.
 */
export async function appendEvent(db: Executor, e: EventInsert): Promise<{ sequence: number; deliveries: number }> {
  const at = e.createdAt.toISOString();
  const patterns = sql.join(
    e.subscriptionPatterns.map((p) => sql`${p}`),
    sql`, `,
  );
  const rows = await selectRows<{ sequence: number; deliveries: number }>(db, sql`
    with seq as (
      insert into event_sequences (object_id, last) values (${e.objectId}, 1)
      on conflict (object_id) do update set last = event_sequences.last + 1
      returning last
    ), ev as (
      insert into events (id, integrator_id, type, object_type, object_id, sequence, api_version, data, created_at)
      select ${e.id}, ${e.integratorId}, ${e.type}, ${e.objectType}, ${e.objectId},
             seq.last, ${e.apiVersion}, ${JSON.stringify(e.data)}::jsonb, ${at}::timestamptz
      from seq
      returning id, sequence
    ), queued as (
      insert into webhook_deliveries (id, integrator_id, subscription_id, event_id, event_type, status, next_attempt_at, created_at, updated_at)
      select uuid_v7(${at}::timestamptz), ${e.integratorId}, s.id, ev.id, ${e.type}, 'pending', ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
      from webhook_subscriptions s cross join ev
      where s.integrator_id = ${e.integratorId} and s.enabled
        and ${e.onlySubscriptionId === undefined ? sql`s.event_types ?| array[${patterns}]::text[]` : sql`s.id = ${e.onlySubscriptionId}`}
      returning 1
    ), woke as (
      select pg_notify(${DELIVERY_CHANNEL}, '') from (select 1 from queued limit 1) q
    )
    select ev.sequence, (select count(*) from queued)::int as deliveries, (select count(*) from woke)::int as woke from ev`);
  return { sequence: Number(rows[0]!.sequence), deliveries: Number(rows[0]!.deliveries) };
}

export interface EventFilter {
  types?: string[];
  objectId?: string;
  createdGte?: Date;
  createdGt?: Date;
  createdLte?: Date;
  createdLt?: Date;
  /** true: delivered to every subscription it was queued for; false: some delivery has not succeeded (yet). */
  deliverySuccess?: boolean;
  order: 'asc' | 'desc';
  /** An event id: the page continues after it in the listing order. */
  startingAfter?: string;
  limit: number;
}

/** One page (limit + 1 rows, to tell whether more follow) of an integrator's events. */
export async function listEvents(db: Executor, integratorId: string, f: EventFilter): Promise<EventRow[]> {
  const where: (SQL | undefined)[] = [eq(events.integratorId, integratorId)];
  if (f.types) where.push(f.types.length === 1 ? eq(events.type, f.types[0]!) : inArray(events.type, f.types));
  if (f.objectId !== undefined) where.push(eq(events.objectId, f.objectId));
  if (f.createdGte) where.push(gte(events.createdAt, f.createdGte));
  if (f.createdGt) where.push(gt(events.createdAt, f.createdGt));
  if (f.createdLte) where.push(lte(events.createdAt, f.createdLte));
  if (f.createdLt) where.push(lt(events.createdAt, f.createdLt));
  if (f.startingAfter !== undefined) where.push(f.order === 'asc' ? gt(events.id, f.startingAfter) : lt(events.id, f.startingAfter));
  if (f.deliverySuccess === true) {
    where.push(sql`exists (select 1 from webhook_deliveries d where d.event_id = ${events.id})`);
    where.push(sql`not exists (select 1 from webhook_deliveries d where d.event_id = ${events.id} and d.status <> 'succeeded')`);
  } else if (f.deliverySuccess === false) {
    where.push(sql`exists (select 1 from webhook_deliveries d where d.event_id = ${events.id} and d.status <> 'succeeded')`);
  }
  return db
    .select()
    .from(events)
    .where(and(...where))
    .orderBy(f.order === 'asc' ? asc(events.id) : desc(events.id))
    .limit(f.limit + 1);
}

export async function findEvent(db: Executor, integratorId: string, id: string): Promise<EventRow | undefined> {
  const [row] = await db
    .select()
    .from(events)
    .where(and(eq(events.id, id), eq(events.integratorId, integratorId)));
  return row;
}

export async function findEventsByIds(db: Executor, ids: string[]): Promise<EventRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(events).where(inArray(events.id, ids));
}

/** Deletes up to `batch` events older than `before` (their deliveries and attempts cascade); returns how many. */
export async function purgeEventsBefore(db: Executor, before: Date, batch = 5000): Promise<number> {
  const old = db.select({ id: events.id }).from(events).where(lt(events.createdAt, before)).limit(batch);
  const rows = await db.delete(events).where(inArray(events.id, old)).returning({ id: events.id });
  return rows.length;
}
