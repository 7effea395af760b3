/**
 * Loads the scale bench's data into its PostgreSQL database, step by step: each step adds objects until the events
 * table holds the step's count (the retention pass of the step before deleted some), then VACUUM ANALYZE, as
 * autovacuum would have done by then (the bench's server may run without it; every figure is taken after it).
 */
import { newId } from '../../src/domain/ids.js';
import {
  ENTITIES_PER_EVENT,
  EVENTS_PER_TRANSACTION,
  EVENTS_PER_USER,
  MEASURED_SLOTS,
  SLOTS,
  SUBSCRIPTIONS_PER_EVENT,
  USERS_PER_EVENT,
  WINDOW_DAYS,
} from './scale-config.js';
import { ENTITIES, SETUP, SUBSCRIPTIONS, TRANSACTIONS, TRANSACTION_EVENTS, USERS, USER_EVENTS } from './scale-sql.js';
import type { Templates } from './scale-templates.js';

/**
 * What the loader needs of a connection: the bench's pg.Client, or a test database's (test/db/query-plans.test.ts
 * seeds PGlite and PostgreSQL with the same loader). One statement per query.
 */
export interface SqlClient {
  query<R extends object>(text: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

/** How many objects of each kind are loaded so far (the next one is number `n` = this count). */
export interface Loaded {
  subscriptions: number;
  users: number;
  entities: number;
  transactions: number;
}

export const NOTHING_LOADED: Loaded = { subscriptions: 0, users: 0, entities: 0, transactions: 0 };

/** The tables the report counts, in its order. */
export const COUNTED_TABLES = [
  'events',
  'webhook_deliveries',
  'webhook_attempts',
  'users',
  'accounts',
  'documents',
  'transactions',
  'entities',
  'associated_persons',
  'webhook_subscriptions',
] as const;
export type TableCounts = Record<(typeof COUNTED_TABLES)[number], number>;

export async function countRows(client: SqlClient): Promise<TableCounts> {
  const counts = COUNTED_TABLES.map((t) => `(select count(*) from ${t})::int as ${t}`).join(', ');
  return (await client.query<TableCounts>(`select ${counts}`)).rows[0]!;
}

/**
 * Runs each statement with the values of the parameters it names (`:name`, not the `::` of a cast), bound as
 * $1 … $n in order of first appearance.
 */
async function runAll(client: SqlClient, statements: string[], values: Record<string, string | number>): Promise<void> {
  for (const text of statements) {
    const names: string[] = [];
    const bound = text.replace(/(?<!:):([a-zA-Z]+)/g, (_, name: string) => {
      if (!(name in values)) throw new Error(`no value for :${name}`);
      if (!names.includes(name)) names.push(name);
      return `$${names.indexOf(name) + 1}`;
    });
    await client.query(bound, names.map((n) => values[n])).catch((err: Error) => {
      throw new Error(`${err.message} in: ${text.replace(/\s+/g, ' ').slice(0, 300)}`);
    });
  }
}

/** The bench's tables and functions, the time window, and the integrators besides the measured one. */
export async function prepareScale(client: SqlClient, templates: Templates): Promise<void> {
  for (const statement of SETUP) await client.query(statement);
  await client.query('insert into scale_meta (t_now, window_days) values (now(), $1)', [WINDOW_DAYS]);
  for (let slot = 0; slot < SLOTS; slot++) {
    let id = templates.integratorId;
    if (slot >= MEASURED_SLOTS) {
      id = newId();
      await client.query('insert into integrators (id, name, created_at) values ($1, $2, now())', [id, `scale-${slot}`]);
    }
    await client.query('insert into scale_integrators (slot, id) values ($1, $2)', [slot, id]);
  }
}

export interface StepLoad {
  loaded: Loaded;
  /** Seconds per phase: subscriptions, users, entities, transactions, events, vacuum. */
  seconds: Record<string, number>;
}

/**
 * Adds objects until the events table holds about `events` rows (users bring 4 events, transactions 3, so the
 * count lands within a few rows), and subscriptions and companies up to their share of `events`.
 */
export async function loadStep(client: SqlClient, templates: Templates, before: Loaded, events: number): Promise<StepLoad> {
  const present = Number((await client.query<{ n: string }>('select count(*) as n from events')).rows[0]!.n);
  const missing = Math.max(0, events - present);
  const users = Math.round(missing * USERS_PER_EVENT);
  const transactions = Math.max(0, Math.round((missing - EVENTS_PER_USER * users) / EVENTS_PER_TRANSACTION));
  const after: Loaded = {
    subscriptions: Math.max(before.subscriptions, Math.round(events * SUBSCRIPTIONS_PER_EVENT)),
    users: before.users + users,
    entities: Math.max(before.entities, Math.round(events * ENTITIES_PER_EVENT)),
    transactions: before.transactions + transactions,
  };
  const seconds: Record<string, number> = {};
  const timed = async (phase: string, work: () => Promise<void>) => {
    const started = performance.now();
    await work();
    seconds[phase] = (performance.now() - started) / 1000;
  };
  const { userId: user, accountId: account, entityAccountId: entityAccount, personId: person, subscriptionId: subscription } = templates;
  const range = (kind: keyof Loaded) => ({ from: before[kind], to: after[kind] });
  for (const setting of ["synchronous_commit = 'off'", "work_mem = '64MB'", "maintenance_work_mem = '256MB'"]) await client.query(`set ${setting}`);
  await timed('subscriptions', () => runAll(client, SUBSCRIPTIONS, { ...range('subscriptions'), subscription }));
  await timed('users', () => runAll(client, USERS, { ...range('users'), user, account }));
  await timed('entities', () => runAll(client, ENTITIES, { ...range('entities'), entityAccount, person }));
  await timed('transactions', () => runAll(client, TRANSACTIONS, { ...range('transactions'), users: after.users }));
  await timed('events', async () => {
    await runAll(client, USER_EVENTS, { ...range('users'), user, account });
    await runAll(client, TRANSACTION_EVENTS, range('transactions'));
  });
  await timed('vacuum', async () => {
    await client.query('vacuum (analyze)');
  });
  return { loaded: after, seconds };
}
