/**
 * The indexes behind the reads the scale bench times (docs/scale.md), checked on both databases: a dataset made by
 * the bench's own loader (a few thousand events), ANALYZEd; every read issued by its domain function over a drizzle
 * instance that logs each statement, and each statement EXPLAINed (FORMAT JSON) with the parameters it was sent
 * with. A plan must not scan a big table sequentially, and must use the index the read depends on: dropping one
 * of them fails this test (an index scan of another index would pass the first check alone).
 *
 * enable_seqscan: plans are taken as the planner makes them. Only when one reads a big table that holds a few
 * pages here (TINY_PAGES: the companies and their persons, the template tables) is the statement explained again
 * with enable_seqscan off, which asks whether an index could serve it: reading 3 pages whole is the planner's right
 * choice at this size and not at a million events. A seq scan left with it off means no index serves the statement.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { and, asc, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import { after, before, describe, it } from 'node:test';
import { NOTHING_LOADED, loadStep, prepareScale, type SqlClient } from '../../bench/lib/scale-load.js';
import { createTemplates, type Templates } from '../../bench/lib/scale-templates.js';
import { importPrivateKey } from '../../src/crypto/p256.js';
import { selectRows, type Database, type Db, type Executor } from '../../src/db/database.js';
import { SMALL_WINDOW, listEvents as listEventRows, purgeEventsBefore } from '../../src/db/repositories/events.js';
import * as schema from '../../src/db/schema/index.js';
import { events } from '../../src/db/schema/index.js';
import { listEvents } from '../../src/domain/events/list-events.js';
import { listAccounts } from '../../src/domain/onboarding/accounts/account-reads.js';
import { getUserDetails } from '../../src/domain/onboarding/users/user-reads.js';
import { listTransactions } from '../../src/domain/transactions/transaction-reads.js';
import { findSubmissionContext } from '../../src/db/repositories/transactions.js';
import { listReviews } from '../../src/domain/verification/review.js';
import { listEventDeliveries, listSubscriptionDeliveries } from '../../src/domain/webhooks/deliveries.js';
import { backends } from '../harness/backends.js';
import type { TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';

const EVENTS = 5000;
const BIG_TABLES = ['events', 'webhook_deliveries', 'webhook_attempts', 'users', 'accounts', 'documents', 'transactions', 'entities', 'associated_persons', 'webhook_subscriptions'];
/** At most this many pages (8 KiB each) is a tiny table (see the header). */
const TINY_PAGES = 8;

/** `text` with $1 … $n bound to `params`, as drizzle SQL: runs through either database's driver. */
function bound(text: string, params: unknown[]): SQL {
  return sql.join(text.split(/\$(\d+)/).map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${params[Number(part) - 1]}`)));
}

const sqlClientOf = (db: Executor): SqlClient => ({
  query: async <R extends object>(text: string, params: unknown[] = []) => ({ rows: await selectRows<R>(db, bound(text, params)) }),
});

interface Statement {
  query: string;
  params: unknown[];
}

/** A second drizzle instance over the same connection(s), logging every statement into `log`. */
function loggingDb(database: Database, log: Statement[]): Db {
  const client = (database.db as unknown as { $client: unknown }).$client;
  const logger = { logQuery: (query: string, params: unknown[]) => log.push({ query, params }) };
  const db = database.kind === 'pglite' ? drizzlePglite({ client: client as PGlite, schema, logger }) : drizzlePg({ client: client as pg.Pool, schema, logger });
  return db as unknown as Db;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** Every node of a plan that reads a table or an index: `Seq Scan events`, `Index Scan events_pkey`, … */
function scansOf(node: PlanNode, out: { type: string; table?: string; index?: string }[] = []) {
  if (node['Relation Name'] || node['Index Name']) out.push({ type: node['Node Type'], table: node['Relation Name'], index: node['Index Name'] });
  for (const child of node.Plans ?? []) scansOf(child, out);
  return out;
}

async function explain(db: Executor, s: Statement): Promise<PlanNode> {
  const [row] = await selectRows<Record<string, unknown>>(db, bound(`explain (format json) ${s.query}`, s.params));
  const value = Object.values(row!)[0];
  return ((typeof value === 'string' ? JSON.parse(value) : value) as { Plan: PlanNode }[])[0]!.Plan;
}

interface Read {
  name: string;
  run: (db: Db) => Promise<unknown>;
  /** Indexes the read's plans must use: each entry lists alternatives (the planner may take either), one must appear. */
  uses: string[][];
}

const DAY_MS = 86_400_000;

for (const backend of backends()) {
  describe(`query plans of the reads at scale [${backend}]`, () => {
    let server: TestServer;
    let templates: Templates;
    let reads: Read[];
    let pages: Map<string, number>;
    let day: (daysAgo: number) => Date;

    before(async () => {
      const started = await startTenants(backend, ['Acme'], { WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_WORKER: '0' });
      server = started.server;
      const [acme] = started.tenants;
      const client = sqlClientOf(server.database.db);
      templates = await createTemplates({ baseUrl: server.url, key: importPrivateKey(acme.privateKey) }, client);
      await prepareScale(client, templates);
      await loadStep(client, templates, NOTHING_LOADED, EVENTS);
      for (const index of (process.env.DROP_INDEXES ?? '').split(',').filter(Boolean)) await server.database.db.execute(sql.raw(`drop index ${index}`));
      pages = new Map(
        (await selectRows<{ relname: string; relpages: number }>(server.database.db, sql`select relname, relpages from pg_class where relkind = 'r' and relname in ${BIG_TABLES}`)).map((r) => [r.relname, Number(r.relpages)]),
      );

      const M = templates.integratorId;
      const one = async (text: string) => String((await client.query<{ v: string }>(text, [M])).rows[0]!.v);
      const [tNow] = (await client.query<{ v: string }>('select extract(epoch from t_now) * 1000 as v from scale_meta')).rows.map((r) => Number(r.v));
      day = (daysAgo: number) => new Date(tNow! - daysAgo * DAY_MS);
      const user = await one('select id as v from scale_users where integrator_id = $1 order by n desc limit 1');
      const busyAccount = await one('select account_id as v from scale_users where integrator_id = $1 order by n limit 1');
      const busySubscription = await one('select id as v from scale_subscriptions where integrator_id = $1 and k = 0');
      const eventCursor = await one('select id as v from events where integrator_id = $1 order by id desc limit 1 offset 200');
      const objectId = await one(`select object_id as v from events where integrator_id = $1 and object_type = 'user' order by id desc limit 1`);
      const eventId = await one('select event_id as v from webhook_deliveries where integrator_id = $1 order by id desc limit 1 offset 10');
      const transactionCursor = await one(`select transaction_id as v from transactions where account_id = (select account_id from scale_users where integrator_id = $1 order by n limit 1) order by id desc limit 1 offset 3`);
      const organizationId = await one('select organization_id as v from accounts where integrator_id = $1 and organization_id is not null order by id desc limit 1');
      const page = { order: 'desc' as const, limit: 20 };
      const now = new Date(tNow!);
      const eventIndexes = ['events_pkey', 'events_integrator_idx'];
      reads = [
        { name: 'list-events', run: (db) => listEvents(db, M, page), uses: [eventIndexes] },
        { name: 'list-events type', run: (db) => listEvents(db, M, { ...page, types: ['user.verification_status.changed'] }), uses: [['events_integrator_type_idx']] },
        { name: 'list-events types', run: (db) => listEvents(db, M, { ...page, types: ['transaction.completed', 'transaction.failed'] }), uses: [[...eventIndexes, 'events_integrator_type_idx']] },
        { name: 'list-events objectId', run: (db) => listEvents(db, M, { ...page, objectId }), uses: [['events_object_sequence_key']] },
        { name: 'list-events created range', run: (db) => listEvents(db, M, { ...page, createdGte: day(16), createdLt: day(15) }), uses: [['events_integrator_created_idx'], ['events_pkey']] },
        { name: 'list-events since, asc', run: (db) => listEvents(db, M, { ...page, order: 'asc', createdGte: day(1) }), uses: [['events_integrator_created_idx']] },
        // A window wider than the small-window limit (lowered to 100 here): the page's ids in id order from
        // events_integrator_idx alone, as at a million events; with a thousand rows in the window PostgreSQL 15 may
        // as well sort them from events_created_idx, and count the window's first 101 from it too (this integrator
        // holds 40 % of the events, so the created_at order alone finds them soon).
        {
          name: 'list-events wide created window',
          run: (db) => listEventRows(db, M, { ...page, createdLt: day(20) }, 100),
          uses: [['events_integrator_created_idx', 'events_created_idx'], ['events_integrator_idx', 'events_created_idx'], ['events_pkey']],
        },
        { name: 'list-events startingAfter', run: (db) => listEvents(db, M, { ...page, startingAfter: eventCursor }), uses: [eventIndexes] },
        { name: 'list-events deliverySuccess=false', run: (db) => listEvents(db, M, { ...page, deliverySuccess: false }), uses: [eventIndexes, ['webhook_deliveries_unsucceeded_idx']] },
        { name: 'get-user-details', run: (db) => getUserDetails(db, M, user), uses: [['users_pkey', 'users_integrator_idx'], ['accounts_user_key'], ['documents_owner_idx', 'documents_owner_submission_key']] },
        { name: 'list-accounts', run: (db) => listAccounts(db, M, { limit: 20 }), uses: [['accounts_pkey', 'accounts_integrator_idx']] },
        { name: 'list-accounts verificationStatus', run: (db) => listAccounts(db, M, { limit: 20, verificationStatus: 'under_review' }), uses: [['accounts_pkey', 'accounts_integrator_idx'], ['users_status_idx', 'users_pkey']] },
        {
          name: 'list-transactions',
          run: (db) => listTransactions(db, M, { accountId: busyAccount, limit: 20, startingAfter: transactionCursor }),
          uses: [['transactions_account_idx'], ['transactions_integrator_transaction_key']],
        },
        {
          name: 'delivery history',
          run: (db) => listSubscriptionDeliveries(db, M, busySubscription, { limit: 20 }),
          uses: [['webhook_deliveries_subscription_idx'], ['webhook_attempts_delivery_attempt_key']],
        },
        {
          name: 'delivery history status=failed',
          run: (db) => listSubscriptionDeliveries(db, M, busySubscription, { limit: 20, status: 'failed' }),
          uses: [['webhook_deliveries_failed_idx', 'webhook_deliveries_subscription_idx']],
        },
        { name: 'event deliveries', run: (db) => listEventDeliveries(db, M, eventId, { limit: 20 }), uses: [['webhook_deliveries_event_subscription_key']] },
        // A submission's one read: its account by custody organization, or a self-custodial one by wallet address.
        {
          name: 'submission context',
          run: (db) =>
            findSubmissionContext(
              db,
              { integratorId: M, transactionId: randomUUID(), organizationId, signWith: '0x000000000000000000000000000000000000dEaD' },
              { productOfKind: { transfer: 'custodial_wallet' }, defaultProduct: 'custodial_wallet' },
              { credentialId: 'credential', challenge: 'challenge' },
            ),
          uses: [['accounts_organization_idx'], ['accounts_self_custodial_wallet_idx'], ['transactions_integrator_transaction_key']],
        },
        { name: 'review queue', run: (db) => listReviews(db, { status: 'under_review', limit: 50, now }), uses: [['users_status_idx'], ['associated_persons_status_idx'], ['entities_status_idx']] },
        {
          name: 'review queue, one integrator, older than 20 days',
          run: (db) => listReviews(db, { status: 'under_review', limit: 50, now, integratorId: M, olderThanSeconds: 20 * 86_400 }),
          uses: [['users_status_idx']],
        },
        // Last: it deletes what it plans. A batch of 100 of the ~700 expired events here: a batch much smaller than
        // the backlog, as 1,000 of a large purge are (with a batch larger than the backlog, reading a few hundred
        // pages whole is the planner's right choice).
        { name: 'retention purge', run: (db) => purgeEventsBefore(db, day(30), 100), uses: [['events_created_idx']] },
      ];
    });
    after(() => server?.close());

    it('lists a created-at window as the scan in listing order does, small or wide', async () => {
      const db = server.database.db;
      const M = templates.integratorId;
      for (const order of ['asc', 'desc'] as const) {
        for (const [from, to] of [[16, 15], [3, 0], [44, 40], [45, 20]] as const) {
          const window = and(eq(events.integratorId, M), gte(events.createdAt, day(from)), lt(events.createdAt, day(to)));
          const expected = await db.select({ id: events.id }).from(events).where(window).orderBy(order === 'asc' ? asc(events.id) : desc(events.id)).limit(21);
          assert.ok(expected.length > 6);
          const filter = { order, limit: 20, createdGte: day(from), createdLt: day(to) };
          // 10: every window here is wider, and is listed in id order from events_integrator_idx.
          for (const smallWindow of [SMALL_WINDOW, 10]) {
            const label = `${order} ${from}-${to} days ago, small window ${smallWindow}`;
            assert.deepEqual((await listEventRows(db, M, filter, smallWindow)).map((r) => r.id), expected.map((r) => r.id), label);
            const after = await listEventRows(db, M, { ...filter, startingAfter: expected[5]!.id }, smallWindow);
            assert.deepEqual(after.map((r) => r.id).slice(0, 15), expected.slice(6).map((r) => r.id), `${label}, startingAfter`);
          }
        }
      }
    });

    it('reads every big table through an index, the one each read depends on', async () => {
      const failures: string[] = [];
      for (const read of reads) {
        const log: Statement[] = [];
        await read.run(loggingDb(server.database, log));
        assert.ok(log.length > 0, `${read.name}: no statement logged`);
        const used = new Set<string>();
        for (const statement of log) {
          let scans = scansOf(await explain(server.database.db, statement));
          const tinySeqScan = scans.some((s) => s.type === 'Seq Scan' && BIG_TABLES.includes(s.table!) && (pages.get(s.table!) ?? 0) <= TINY_PAGES);
          if (tinySeqScan) {
            scans = scansOf(
              await server.database.db.transaction(async (tx) => {
                await tx.execute(sql`set local enable_seqscan = off`);
                return explain(tx, statement);
              }),
            );
          }
          for (const s of scans) {
            if (s.index) used.add(s.index);
            if (s.type === 'Seq Scan' && BIG_TABLES.includes(s.table!)) failures.push(`${read.name}: Seq Scan on ${s.table} in ${statement.query.slice(0, 200)}`);
          }
        }
        for (const alternatives of read.uses) {
          if (!alternatives.some((i) => used.has(i))) failures.push(`${read.name}: none of ${alternatives.join(' | ')} used (used: ${[...used].join(', ')})`);
        }
      }
      assert.deepEqual(failures, []);
    });
  });
}
