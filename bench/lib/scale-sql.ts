/**
 * The scale loader's SQL (bench/lib/scale-load.ts runs it). Everything is generated inside PostgreSQL with
 * INSERT … SELECT over generate_series: no rows cross the wire, and a million events load in about a minute.
 *
 * Rows of the tables the API wrote for the templates (bench/lib/scale-templates.ts) are copied whole, as
 * `jsonb_populate_record(null::<table>, to_jsonb(<template row>) || <overrides>)`: a column added to the schema
 * later is copied from the template rather than breaking the loader. Events, deliveries, attempts and transactions
 * are written column by column (the templates have none of these in the shapes wanted, or too few).
 *
 * Each kind of object is first staged in an unlogged `scale_*` table (its number n, ids, integrator, time), so
 * that its dependent rows (account, wallet, documents, events) can find it. Times are spread over WINDOW_DAYS up to
 * `scale_meta.t_now` by a hash of n (`scale_u`, uniform in [0, 1)), and rows are inserted in time order, as a
 * live service appends them. Statements name their parameters (`:from`, `:to`, …; bound by scale-load.ts); ranges are
 * [:from, :to) of n.
 */
import { ENABLED_SUBSCRIPTIONS_PER_INTEGRATOR, SLOTS } from './scale-config.js';

/** Run once on the fresh database, one statement at a time (PGlite takes one per query). */
export const SETUP = [
  `create function scale_u(key text, salt int) returns float8 language sql immutable parallel safe
   as $$ select (hashtext(key || ':' || salt)::float8 + 2147483648) / 4294967296 $$`,
  // Verification statuses by share: about 10 % of the cases wait for review.
  `create function scale_status(r float8) returns text language sql immutable parallel safe as $$
   select case when r < 0.10 then 'under_review' when r < 0.70 then 'active' when r < 0.80 then 'not_started'
   when r < 0.88 then 'init' when r < 0.93 then 'awaiting_information'
   when r < 0.97 then 'resubmission_requested' else 'rejected' end $$`,
  `create unlogged table scale_meta (t_now timestamptz not null, window_days int not null)`,
  `create unlogged table scale_integrators (slot int primary key, id uuid not null)`,
  `create unlogged table scale_subscriptions (n int primary key, integrator_id uuid not null, k int not null, id uuid not null, key_id uuid not null, at timestamptz not null, unique (integrator_id, k))`,
  `create view scale_subscription_counts as select integrator_id, count(*)::int as subs from scale_subscriptions group by integrator_id`,
  `create unlogged table scale_users (n int primary key, id uuid not null, account_id uuid not null, wallet_id uuid not null, wallet_address text not null, integrator_id uuid not null, at timestamptz not null)`,
  `create unlogged table scale_entities (n int primary key, id uuid not null, account_id uuid not null, wallet_id uuid not null, wallet_address text not null, integrator_id uuid not null, at timestamptz not null)`,
  `create unlogged table scale_transactions (n int primary key, id uuid not null, transaction_id uuid not null, integrator_id uuid not null, account_id uuid not null, wallet_id uuid not null, from_address text not null, at timestamptz not null, failed boolean not null)`,
];

/** A time spread over the window by the hash of `key` (a SQL expression) with `salt`. */
const spread = (key: string, salt: number) => `m.t_now - make_interval(secs => m.window_days * 86400.0 * scale_u((${key})::text, ${salt}))`;

/** New objects n in [:from, :to), dealt round-robin over the integrators' slots, each with its time. */
const dealt = (salt: number) => `
  select n, i.id as integrator_id, ${spread('n', salt)} as at
  from generate_series(:from::int, :to::int - 1) n cross join scale_meta m join scale_integrators i on i.slot = n % ${SLOTS}`;

/**
 * Copies of the template row (`template` selects it; `t.j` is it as jsonb) with `overrides`, a jsonb_build_object
 * list, one per row of `from` (filtered by `where`). The record is made in a LATERAL: `(f(…)).*` in the select
 * list would call f once per column.
 */
const copies = (table: string, template: string, overrides: string, from: string, where: string, orderBy: string) => `
  insert into ${table}
  select r.*
  from (select to_jsonb(x) as j from (${template}) x limit 1) t cross join ${from}
  cross join lateral jsonb_populate_record(null::${table}, t.j || jsonb_build_object(${overrides})) r
  where ${where}
  order by ${orderBy}`;

const inRange = (alias: string) => `${alias}.n >= :from and ${alias}.n < :to`;

/** Webhook subscriptions (and their signing keys), copies of :subscription. */
export const SUBSCRIPTIONS = [
  `insert into scale_subscriptions (n, integrator_id, k, id, key_id, at)
   select f.n, f.integrator_id, coalesce(c.subs, 0) + row_number() over (partition by f.integrator_id order by f.n)::int - 1, uuid_v7(f.at), uuid_v7(f.at), f.at
   from (${dealt(21)}) f left join scale_subscription_counts c using (integrator_id)`,
  copies(
    'webhook_subscriptions',
    'select * from webhook_subscriptions where id = :subscription',
    `'id', s.id, 'integrator_id', s.integrator_id, 'name', 'scale ' || s.n, 'url', 'http://127.0.0.1:9/scale/' || s.n,
     'enabled', s.k < ${ENABLED_SUBSCRIPTIONS_PER_INTEGRATOR},
     'disabled_reason', case when s.k >= ${ENABLED_SUBSCRIPTIONS_PER_INTEGRATOR} and s.n % 2 = 0 then 'failing' end,
     'active_signing_key_id', s.key_id, 'failing_since', null, 'created_at', s.at, 'updated_at', s.at`,
    `scale_subscriptions s`,
    inRange('s'),
    's.at',
  ),
  copies('webhook_signing_keys', 'select * from webhook_signing_keys where subscription_id = :subscription', `'id', s.key_id, 'subscription_id', s.id, 'created_at', s.at`, `scale_subscriptions s`, inRange('s'), 's.at'),
];

/** Users with their custodial account, wallet and documents, copies of :user and its :account. */
export const USERS = [
  `insert into scale_users (n, id, account_id, wallet_id, wallet_address, integrator_id, at)
   select n, uuid_v7(at), uuid_v7(at), uuid_v7(at), '0x' || lpad(to_hex(n), 40, '0'), integrator_id, at from (${dealt(1)}) f`,
  copies(
    'users',
    'select * from users where id = :user',
    `'id', s.id, 'integrator_id', s.integrator_id,
     'user_info', (t.j -> 'user_info') || jsonb_build_object('lastName', 'Scale' || s.n, 'email', 'user' || s.n || '@scale.example'),
     'verification_status', scale_status(scale_u(s.n::text, 2)), 'service_terms_signed_at', s.at,
     'created_at', s.at, 'updated_at', s.at + (m.t_now - s.at) * scale_u(s.n::text, 3)`,
    `scale_users s cross join scale_meta m`,
    inRange('s'),
    's.at',
  ),
  copies(
    'accounts',
    'select * from accounts where id = :account',
    `'id', s.account_id, 'integrator_id', s.integrator_id, 'user_id', s.id, 'wallet_address', s.wallet_address,
     'organization_id', gen_random_uuid(), 'created_at', s.at, 'updated_at', s.at`,
    `scale_users s`,
    inRange('s'),
    's.at',
  ),
  copies(
    'wallets',
    'select * from wallets where account_id = :account',
    `'id', s.wallet_id, 'integrator_id', s.integrator_id, 'account_id', s.account_id, 'address', s.wallet_address, 'created_at', s.at`,
    `scale_users s`,
    inRange('s'),
    's.at',
  ),
  // Each copy of each template document, with its own hash (the same bytes for every user would be unrealistic).
  `insert into documents
   select r.*
   from (select to_jsonb(x) as j from documents x where owner_type = 'user' and owner_id = :user) d cross join scale_users s
   cross join lateral jsonb_populate_record(null::documents, d.j || jsonb_build_object('id', uuid_v7(s.at), 'integrator_id', s.integrator_id, 'owner_id', s.id,
     'sha256', encode(sha256(convert_to(s.id::text || (d.j ->> 'id'), 'UTF8')), 'hex'), 'created_at', s.at)) r
   where ${inRange('s')}
   order by s.at`,
];

/** Companies with their entity account, wallet and two associated persons, copies of :entityAccount and
 * its :person. */
export const ENTITIES = [
  `insert into scale_entities (n, id, account_id, wallet_id, wallet_address, integrator_id, at)
   select n, uuid_v7(at), uuid_v7(at), uuid_v7(at), '0xe' || lpad(to_hex(n), 39, '0'), integrator_id, at from (${dealt(51)}) f`,
  copies(
    'entities',
    'select e.* from entities e join accounts a on a.entity_id = e.id where a.id = :entityAccount',
    `'id', s.id, 'integrator_id', s.integrator_id,
     'entity_info', (t.j -> 'entity_info') || jsonb_build_object('businessLegalName', 'Scale Company ' || s.n || ' Inc.'),
     'verification_status', scale_status(scale_u(s.n::text, 52)), 'service_terms_signed_at', s.at,
     'created_at', s.at, 'updated_at', s.at + (m.t_now - s.at) * scale_u(s.n::text, 53)`,
    `scale_entities s cross join scale_meta m`,
    inRange('s'),
    's.at',
  ),
  copies(
    'accounts',
    'select * from accounts where id = :entityAccount',
    `'id', s.account_id, 'integrator_id', s.integrator_id, 'entity_id', s.id, 'wallet_address', s.wallet_address,
     'organization_id', gen_random_uuid(), 'created_at', s.at, 'updated_at', s.at`,
    `scale_entities s`,
    inRange('s'),
    's.at',
  ),
  copies(
    'wallets',
    'select * from wallets where account_id = :entityAccount',
    `'id', s.wallet_id, 'integrator_id', s.integrator_id, 'account_id', s.account_id, 'address', s.wallet_address, 'created_at', s.at`,
    `scale_entities s`,
    inRange('s'),
    's.at',
  ),
  copies(
    'associated_persons',
    'select * from associated_persons where id = :person',
    `'id', uuid_v7(s.at), 'integrator_id', s.integrator_id, 'entity_id', s.id,
     'user_info', (t.j -> 'user_info') || jsonb_build_object('lastName', 'Representative' || s.n || '-' || p, 'email', 'rep' || s.n || '-' || p || '@scale.example'),
     'verification_status', scale_status(scale_u(s.n || '-' || p, 54)),
     'created_at', s.at, 'updated_at', s.at + (m.t_now - s.at) * scale_u(s.n || '-' || p, 55)`,
    `scale_entities s cross join scale_meta m cross join generate_series(1, 2) p`,
    inRange('s'),
    's.at',
  ),
];

/**
 * Transfers, completed (92 %) or reverted, each after its account was opened. Every hundredth goes to one of the
 * first users, one per slot, so each integrator has a busy account; the rest to any of the :users loaded so far.
 */
export const TRANSACTIONS = [
  `insert into scale_transactions (n, id, transaction_id, integrator_id, account_id, wallet_id, from_address, at, failed)
   select q.n, uuid_v7(x.at), gen_random_uuid(), u.integrator_id, u.account_id, u.wallet_id, u.wallet_address, x.at, scale_u(q.n::text, 32) < 0.08
   from (
     select n, case when n % 100 = 0 then (n / 100) % ${SLOTS} else floor(scale_u(n::text, 30) * :users::int)::int end as user_n
     from generate_series(:from::int, :to::int - 1) n
   ) q join scale_users u on u.n = q.user_n cross join scale_meta m
   cross join lateral (select u.at + (m.t_now - u.at) * scale_u(q.n::text, 31) as at) x`,
  `insert into transactions (id, integrator_id, transaction_id, account_id, wallet_id, chain_id, kind, approval, status, request_hash, signed_body,
     from_address, to_address, value, nonce, transaction_hash, broadcasted_at, receipt, failure_reason, created_at, updated_at)
   select s.id, s.integrator_id, s.transaction_id, s.account_id, s.wallet_id, 8453, 'transfer', 'passkey',
     case when s.failed then 'failed' else 'completed' end, md5(s.n::text), jsonb_build_object('type', 'transfer', 'n', s.n),
     s.from_address, '0x' || lpad(to_hex(s.n + 1), 40, '0'), ((s.n % 997) + 1) || '000000000000000', s.n % 1000, h.hash, s.at + interval '2 seconds',
     jsonb_build_object('transactionHash', h.hash, 'transactionIndex', s.n % 200, 'blockHash', '0x' || md5(s.n || 'block') || md5(s.n || 'b'),
       'blockNumber', 20000000 + s.n, 'gasUsed', '21000', 'effectiveGasPrice', '1000000000', 'blobGasUsed', '0', 'blobGasPrice', '0',
       'from', s.from_address, 'to', '0x' || lpad(to_hex(s.n + 1), 40, '0'), 'contractAddress', '', 'status', case when s.failed then 'reverted' else 'success' end),
     case when s.failed then 'reverted' end, s.at, s.at + interval '1 minute'
   from scale_transactions s cross join lateral (select '0x' || md5(s.id::text) || md5(s.n::text) as hash) h
   where ${inRange('s')}
   order by s.at`,
];

/**
 * The tail of an events insert (a CTE `ev` returning id, integrator_id, type, created_at): one webhook delivery
 * per event, to one of its integrator's subscriptions (skewed: a few subscriptions get most, as `*` subscriptions
 * of busy integrators do), 97 % succeeded (7 % at the second attempt) and 3 % failed after five attempts, with
 * every attempt.
 */
const DELIVERIES = `
  , picked as (
    select ev.id, ev.integrator_id, ev.type, ev.created_at, scale_u(ev.id::text, 40) as r, s.id as subscription_id
    from ev join scale_subscription_counts c using (integrator_id)
    join scale_subscriptions s on s.integrator_id = ev.integrator_id and s.k = floor(c.subs * scale_u(ev.id::text, 41) ^ 2)::int
  ), d as (
    insert into webhook_deliveries (id, integrator_id, subscription_id, event_id, event_type, status, attempts, schedule_step, next_attempt_at, last_error, created_at, updated_at)
    select uuid_v7(p.created_at), p.integrator_id, p.subscription_id, p.id, p.type,
      case when p.r < 0.03 then 'failed' else 'succeeded' end,
      case when p.r < 0.03 then 5 when p.r < 0.10 then 2 else 1 end,
      case when p.r < 0.03 then 5 when p.r < 0.10 then 1 else 0 end,
      p.created_at + interval '1 second', case when p.r < 0.03 then 'HTTP 500' end, p.created_at, p.created_at + interval '1 second'
    from picked p
    order by p.created_at
    returning id, status, attempts, created_at
  )
  insert into webhook_attempts (id, delivery_id, attempt_number, attempted_at, duration_ms, response_status, response_body, error, success)
  select uuid_v7(d.created_at + (a - 1) * interval '5 minutes'), d.id, a, d.created_at + (a - 1) * interval '5 minutes', 20 + (a * 37 + get_byte(uuid_send(d.id), 15)) % 250,
    case when d.status = 'succeeded' and a = d.attempts then 200 else 500 end,
    case when d.status = 'succeeded' and a = d.attempts then 'ok' else 'Internal Server Error' end, null, d.status = 'succeeded' and a = d.attempts
  from d cross join generate_series(1, d.attempts) a`;

/**
 * Each user's events (created, its account created, a status change, an update) with their deliveries. The data
 * is the template's own user.created and account.created payloads (of :user and its :account).
 */
export const USER_EVENTS = [
  `with tpl as (
     select (select data from events where object_id = :user::text and type = 'user.created') as user_data,
            (select data from events where object_id = :account::text and type = 'account.created') as account_data,
            (select api_version from events where object_id = :user::text and type = 'user.created') as api_version
   ), ev as (
     insert into events (id, integrator_id, type, object_type, object_id, sequence, api_version, data, created_at)
     select uuid_v7(e.at), s.integrator_id, e.type, e.object_type, e.object_id, e.seq, tpl.api_version, e.data, e.at
     from scale_users s cross join scale_meta m cross join tpl cross join lateral (values
       ('user.created', 'user', s.id::text, 1, s.at, tpl.user_data),
       ('account.created', 'account', s.account_id::text, 1, s.at, tpl.account_data),
       ('user.verification_status.changed', 'user', s.id::text, 2, least(m.t_now, s.at + interval '1 hour'), tpl.user_data),
       ('user.updated', 'user', s.id::text, 3, least(m.t_now, s.at + interval '1 hour' + (m.t_now - s.at) * scale_u(s.n::text, 4)), tpl.user_data)
     ) e(type, object_type, object_id, seq, at, data)
     where ${inRange('s')}
     order by e.at
     returning id, integrator_id, type, created_at
   ) ${DELIVERIES}`,
  `insert into event_sequences (object_id, last)
   select o.id, o.last from scale_users s cross join lateral (values (s.id::text, 3), (s.account_id::text, 1)) o(id, last) where ${inRange('s')}
   on conflict (object_id) do update set last = greatest(event_sequences.last, excluded.last)`,
];

/** Each transaction's events: created (processing), status changed, completed or failed, with their deliveries. */
export const TRANSACTION_EVENTS = [
  `with ev as (
     insert into events (id, integrator_id, type, object_type, object_id, sequence, api_version, data, created_at)
     select uuid_v7(e.at), s.integrator_id, e.type, 'transaction', s.id::text, e.seq, (select api_version from events order by id limit 1),
       jsonb_build_object('object', jsonb_build_object('transactionId', s.transaction_id, 'status', e.status, 'kind', 'transfer', 'accountId', s.account_id,
         'chainId', 8453, 'transactionHash', '0x' || md5(s.id::text) || md5(s.n::text), 'broadcastedAt', null, 'createdAt', s.at, 'updatedAt', e.at))
         || case when e.seq > 1 then jsonb_build_object('previousAttributes', jsonb_build_object('status', 'processing')) else '{}'::jsonb end,
       e.at
     from scale_transactions s cross join lateral (values
       ('transaction.created', 1, s.at, 'processing'),
       ('transaction.status.changed', 2, s.at + interval '2 seconds', 'processing'),
       (case when s.failed then 'transaction.failed' else 'transaction.completed' end, 3, s.at + interval '1 minute', case when s.failed then 'failed' else 'completed' end)
     ) e(type, seq, at, status)
     where ${inRange('s')}
     order by e.at
     returning id, integrator_id, type, created_at
   ) ${DELIVERIES}`,
  `insert into event_sequences (object_id, last) select s.id::text, 3 from scale_transactions s where ${inRange('s')}
   on conflict (object_id) do update set last = greatest(event_sequences.last, excluded.last)`,
];
