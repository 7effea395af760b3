import { and, asc, desc, eq, gt, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import { selectRows, type Executor } from '../database.js';
import { textArrayLiteral } from '../array-literal.js';
import { runShaped } from '../prepared.js';
import { runWrites, writesAsCtes, type PendingWrite } from '../pending-writes.js';
import { events } from '../schema/index.js';
import { DELETE_BATCH, deleteBounded } from './bounded-delete.js';

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
  const { events: appended } = await appendEvents(db, [e]);
  return appended[0]!;
}

/**
 * Appends several events in one statement (one round trip, however many): each takes its object's next sequence
 * number in the order given (one object's events get consecutive numbers), and their deliveries are queued as
 * appendEvent queues them. `alongside`: further writes of the same change (its audit row, the approval it used),
 * run by the same statement (pending-writes.ts), which fails when one's count differs from `required`;
 * `alongsideCounts` are the rows each affected. Events answer in the order of `list`.
 */
export async function appendEvents(
  db: Executor,
  list: EventInsert[],
  alongside: PendingWrite[] = [],
  required?: (number | null)[],
): Promise<{ events: { sequence: number; deliveries: number }[]; alongsideCounts: number[] }> {
  if (list.length === 0) return { events: [], alongsideCounts: await runWrites(db, alongside, required) };
  if (list.length === 1) return appendOne(db, list[0]!, alongside, required);
  const input = JSON.stringify(
    list.map((e, ord) => ({
      ord,
      id: e.id,
      integrator_id: e.integratorId,
      type: e.type,
      object_type: e.objectType,
      object_id: e.objectId,
      api_version: e.apiVersion,
      data: e.data,
      created_at: e.createdAt.toISOString(),
      patterns: e.subscriptionPatterns,
      only_subscription: e.onlySubscriptionId ?? null,
    })),
  );
  const writes = writesAsCtes(db, alongside, 'alongside', required);
  const rows = await runShaped<{ ord: number; sequence: number; deliveries: number; alongside: number[] }>(
    db,
    `append events ${writes.shape}`,
    () => sql`
    with ${writes.head}input as (
      select * from jsonb_to_recordset(${sql.placeholder('input')}::jsonb) as x(ord int, id uuid, integrator_id uuid, type text, object_type text,
        object_id text, api_version text, data jsonb, created_at timestamptz, patterns text[], only_subscription uuid)
    ), seq as (
      insert into event_sequences (object_id, last) select object_id, count(*) from input group by object_id
      on conflict (object_id) do update set last = event_sequences.last + excluded.last
      returning object_id, last
    ), ev as (
      insert into events (id, integrator_id, type, object_type, object_id, sequence, api_version, data, created_at)
      select i.id, i.integrator_id, i.type, i.object_type, i.object_id,
             seq.last - count(*) over (partition by i.object_id) + row_number() over (partition by i.object_id order by i.ord),
             i.api_version, i.data, i.created_at
      from input i join seq on seq.object_id = i.object_id
      returning id, sequence
    ), queued as (
      insert into webhook_deliveries (id, integrator_id, subscription_id, event_id, event_type, status, next_attempt_at, created_at, updated_at)
      select uuid_v7(i.created_at), i.integrator_id, s.id, ev.id, i.type, 'pending', i.created_at, i.created_at, i.created_at
      from input i join ev on ev.id = i.id
      join webhook_subscriptions s on s.integrator_id = i.integrator_id and s.enabled
        and case when i.only_subscription is null then s.event_types ?| i.patterns else s.id = i.only_subscription end
      returning event_id
    ), woke as (
      select pg_notify(${NOTIFY_CHANNEL}, '') from (select 1 from queued limit 1) q
    )
    select i.ord, ev.sequence, (select count(*) from queued q where q.event_id = ev.id)::int as deliveries, (select count(*) from woke)::int as woke,
      ${writes.counts} as alongside
    from input i join ev on ev.id = i.id
    order by i.ord`,
    { ...writes.values, input },
  );
  return {
    events: rows.map((r) => ({ sequence: Number(r.sequence), deliveries: Number(r.deliveries) })),
    alongsideCounts: (rows[0]?.alongside ?? []).map(Number),
  };
}

/** DELIVERY_CHANNEL as an SQL literal: a constant of the statements' text, not one of their values. */
const NOTIFY_CHANNEL = sql.raw(`'${DELIVERY_CHANNEL}'`);

/**
 * appendEvents for one event, the common case (most API writes; the steady webhook load): the plain statement, values
 * as parameters, without the recordset, grouping and window. With the recordset form the steady 500 events/s load
 * ran PostgreSQL at 95–97 % of a core against 85–88 % (docs/benchmarks.md#webhooks). Prepared once per shape (the
 * writes alongside, a subscription named or not).
 */
async function appendOne(db: Executor, e: EventInsert, alongside: PendingWrite[], required: (number | null)[] | undefined): Promise<{ events: { sequence: number; deliveries: number }[]; alongsideCounts: number[] }> {
  const writes = writesAsCtes(db, alongside, 'alongside', required);
  const only = e.onlySubscriptionId !== undefined;
  const p = (name: string) => sql.placeholder(name);
  const rows = await runShaped<{ sequence: number; deliveries: number; alongside: number[] }>(
    db,
    `append event${only ? ' to one subscription' : ''} ${writes.shape}`,
    () => sql`
    with ${writes.head}seq as (
      insert into event_sequences (object_id, last) values (${p('objectId')}, 1)
      on conflict (object_id) do update set last = event_sequences.last + 1
      returning last
    ), ev as (
      insert into events (id, integrator_id, type, object_type, object_id, sequence, api_version, data, created_at)
      select ${p('id')}::uuid, ${p('integratorId')}::uuid, ${p('type')}, ${p('objectType')}, ${p('objectId')},
             seq.last, ${p('apiVersion')}, ${p('data')}::jsonb, ${p('at')}::timestamptz
      from seq
      returning id, sequence
    ), queued as (
      insert into webhook_deliveries (id, integrator_id, subscription_id, event_id, event_type, status, next_attempt_at, created_at, updated_at)
      select uuid_v7(${p('at')}::timestamptz), ${p('integratorId')}::uuid, s.id, ev.id, ${p('type')}, 'pending', ${p('at')}::timestamptz, ${p('at')}::timestamptz, ${p('at')}::timestamptz
      from webhook_subscriptions s cross join ev
      where s.integrator_id = ${p('integratorId')}::uuid and s.enabled
        and ${only ? sql`s.id = ${p('only')}::uuid` : sql`s.event_types ?| ${p('patterns')}::text[]`}
      returning 1
    ), woke as (
      select pg_notify(${NOTIFY_CHANNEL}, '') from (select 1 from queued limit 1) q
    )
    select ev.sequence, (select count(*) from queued)::int as deliveries, (select count(*) from woke)::int as woke,
      ${writes.counts} as alongside
    from ev`,
    {
      ...writes.values,
      id: e.id,
      integratorId: e.integratorId,
      type: e.type,
      objectType: e.objectType,
      objectId: e.objectId,
      apiVersion: e.apiVersion,
      data: JSON.stringify(e.data),
      at: e.createdAt.toISOString(),
      ...(only ? { only: e.onlySubscriptionId } : { patterns: textArrayLiteral(e.subscriptionPatterns) }),
    },
  );
  return { events: [{ sequence: Number(rows[0]!.sequence), deliveries: Number(rows[0]!.deliveries) }], alongsideCounts: (rows[0]?.alongside ?? []).map(Number) };
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

/**
 * A created-at window of at most this many events is listed from the window itself (smallWindowPage): counting and
 * sorting the ids of 10,000, index only, takes about 3 ms on PostgreSQL (docs/scale.md).
 */
export const SMALL_WINDOW = 10_000;

/**
 * One page (limit + 1 rows, to tell whether more follow) of an integrator's events. `smallWindow`: see
 * SMALL_WINDOW (tests lower it to take the wide window's path on a small table).
 */
export async function listEvents(db: Executor, integratorId: string, f: EventFilter, smallWindow = SMALL_WINDOW): Promise<EventRow[]> {
  const created = createdWindow(integratorId, f);
  const onlyTheWindow = f.types === undefined && f.objectId === undefined && f.deliverySuccess === undefined;
  if (created.bounded && onlyTheWindow) return (await smallWindowPage(db, created.where, f, smallWindow)) ?? wideWindowPage(db, created.where, f);
  const where: (SQL | undefined)[] = [created.where];
  if (f.types) where.push(f.types.length === 1 ? eq(events.type, f.types[0]!) : inArray(events.type, f.types));
  if (f.objectId !== undefined) where.push(eq(events.objectId, f.objectId));
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
    .orderBy(listingOrder(f))
    .limit(f.limit + 1);
}

const listingOrder = (f: EventFilter) => (f.order === 'asc' ? asc(events.id) : desc(events.id));

/** The integrator, the created-at bounds and the cursor: the rows a page is taken from before any other filter. */
function createdWindow(integratorId: string, f: EventFilter): { where: SQL; bounded: boolean } {
  const bounds = [
    f.createdGte && gte(events.createdAt, f.createdGte),
    f.createdGt && gt(events.createdAt, f.createdGt),
    f.createdLte && lte(events.createdAt, f.createdLte),
    f.createdLt && lt(events.createdAt, f.createdLt),
  ].filter((c): c is SQL => c !== undefined);
  const cursor = f.startingAfter === undefined ? undefined : f.order === 'asc' ? gt(events.id, f.startingAfter) : lt(events.id, f.startingAfter);
  return { where: and(eq(events.integratorId, integratorId), ...bounds, cursor)!, bounded: bounds.length > 0 };
}

/**
 * The page of a created-at window, taken from the window itself, or undefined when it holds more than `smallWindow`
 * events. The planner would scan ids in listing order and filter on created_at, taking the matches to be spread
 * evenly over the ids; they are bunched (ids are time-ordered), so at a million events a one-day window 15 days back
 * meant skipping 600,000 rows, reading each (docs/scale.md). Here the window's ids come from an index-only range of
 * events_integrator_created_idx, in created_at order so that no plan reads the table to find them (a sequential
 * scan taking the first matches it meets would pass every older row first), counted, the page's ids are the first
 * in listing order, and only those rows are read.
 */
async function smallWindowPage(db: Executor, window: SQL, f: EventFilter, smallWindow: number): Promise<EventRow[] | undefined> {
  const page = await selectRows<{ id: string; n: number }>(db, sql`
    select w.id::text as id, count(*) over ()::int as n
    from (select ${events.id} as id from ${events} where ${window} order by ${events.createdAt} limit ${smallWindow + 1}) w
    order by w.id ${sql.raw(f.order === 'asc' ? 'asc' : 'desc')}
    limit ${f.limit + 1}`);
  if (page.length === 0) return [];
  if (Number(page[0]!.n) > smallWindow) return undefined;
  return db.select().from(events).where(inArray(events.id, page.map((r) => r.id))).orderBy(listingOrder(f));
}

/**
 * The page of a wider window: its ids in listing order first, from events_integrator_idx alone (it carries
 * created_at), then only the page's rows. The scan may still pass every newer (or older) event before reaching the
 * window, but reads index entries only, not rows: at a million events, passing 180,000 of them took 6 ms where
 * reading the rows took 300 (docs/scale.md).
 */
function wideWindowPage(db: Executor, window: SQL, f: EventFilter): Promise<EventRow[]> {
  const ids = db.select({ id: events.id }).from(events).where(window).orderBy(listingOrder(f)).limit(f.limit + 1);
  return db.select().from(events).where(inArray(events.id, ids)).orderBy(listingOrder(f));
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

/**
 * Deletes up to `limit` of the oldest events older than `before` (their deliveries and attempts cascade, through
 * their event_id indexes); returns how many. One bounded statement: the maintenance round repeats it.
 */
export function purgeEventsBefore(db: Executor, before: Date, limit = DELETE_BATCH): Promise<number> {
  return deleteBounded(db, events, lt(events.createdAt, before), limit, events.createdAt);
}
