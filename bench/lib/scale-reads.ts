/**
 * The reads the scale bench times: each one REQUESTS sequential requests (after WARMUP_REQUESTS) through the real
 * server, signed as the measured integrator, or with an operator's token for the review queue. Their parameters
 * (ids, cursors, a time window) are picked from the loaded data, away from the edges: a cursor in the middle of
 * the history, the busiest account and subscription, rotating users and events.
 */
import { RETENTION_DAYS, REQUESTS, WARMUP_REQUESTS } from './scale-config.js';
import type { Templates } from './scale-templates.js';
import type { SqlClient } from './scale-load.js';
import { signedGetHeaders, type Key } from './signing.js';

export interface ReadSpec {
  name: string;
  /** Path and query of each request, used in turn. */
  paths: string[];
  /** The operators' API (bearer token) rather than a signed request. */
  operator?: boolean;
}

export interface ReadFigures {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

const DAY_MS = 86_400_000;
const SIGNATURE_REUSE_MS = 20_000;

/** The value at quantile `q` of ascending `sorted` (nearest rank). */
export function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

const round2 = (ms: number) => Math.round(ms * 100) / 100;

export function figuresOf(latencies: number[]): ReadFigures {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { requests: sorted.length, p50Ms: round2(quantile(sorted, 0.5)), p99Ms: round2(quantile(sorted, 0.99)), maxMs: round2(sorted.at(-1) ?? 0) };
}

async function column(client: SqlClient, text: string, params: unknown[]): Promise<string[]> {
  const { rows } = await client.query<{ v: string }>(text, params);
  if (rows.length === 0) throw new Error(`no rows for a read's parameters: ${text.replace(/\s+/g, ' ').slice(0, 200)}`);
  return rows.map((r) => String(r.v));
}
const one = async (client: SqlClient, text: string, params: unknown[]) => (await column(client, text, params))[0]!;

/** The row halfway through `listing` (a query of v in a listing's order): a cursor in the middle of the history. */
const middle = (client: SqlClient, listing: string, params: unknown[]) =>
  one(client, `select v from (${listing}) s offset (select count(*) / 2 from (${listing}) c) limit 1`, params);

const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();

/** Every read, with parameters taken from the data as loaded now (before the step's retention pass). */
export async function readSpecs(client: SqlClient, templates: Templates, reviewPage2: string): Promise<ReadSpec[]> {
  const M = templates.integratorId;
  const sample = (text: string) => column(client, `select v from (${text}) s order by random() limit ${REQUESTS}`, [M]);
  const users = await sample(`select u.id as v from users u where u.integrator_id = $1`);
  const objects = await sample(`select distinct object_id as v from events where integrator_id = $1 and object_type = 'user'`);
  const eventIds = await sample(`select e.id as v from events e where e.integrator_id = $1 and exists (select 1 from webhook_deliveries d where d.event_id = e.id)`);
  const accounts = await sample(`select a.id as v from accounts a where a.integrator_id = $1 and exists (select 1 from transactions t where t.account_id = a.id)`);
  const busyAccount = await one(client, `select u.account_id as v from scale_users u where u.n = 0`, []);
  const busySubscription = await one(client, `select s.id as v from scale_subscriptions s where s.integrator_id = $1 and s.k = 0`, [M]);
  const eventCursor = await middle(client, `select id as v from events where integrator_id = $1 order by id desc`, [M]);
  const accountCursor = await middle(client, `select id as v from accounts where integrator_id = $1 order by id`, [M]);
  const transactionCursor = await middle(client, `select transaction_id as v from transactions where account_id = $1 order by id desc`, [busyAccount]);
  const deliveryCursor = await middle(client, `select id as v from webhook_deliveries where subscription_id = $1 order by id desc`, [busySubscription]);
  const [tNow] = await column(client, `select extract(epoch from t_now) * 1000 as v from scale_meta`, []);
  const day = (daysAgo: number) => new Date(Number(tNow) - daysAgo * DAY_MS).toISOString();
  const each = (prefix: string, ids: string[], key: string) => ids.map((id) => `${prefix}?${q({ [key]: id })}`);
  const events = (params: Record<string, string | number>) => [Object.keys(params).length === 0 ? '/v1/events' : `/v1/events?${q(params)}`];
  const deliveries = `/v1/webhooks/subscriptions/${busySubscription}/deliveries`;
  return [
    { name: 'list-events', paths: events({}) },
    { name: 'list-events type', paths: events({ type: 'user.verification_status.changed' }) },
    { name: 'list-events types (2)', paths: events({ types: 'transaction.completed,transaction.failed' }) },
    { name: 'list-events objectId', paths: objects.map((id) => `/v1/events?${q({ objectId: id })}`) },
    { name: 'list-events created range (1 day)', paths: events({ createdGte: day(16), createdLt: day(15) }) },
    { name: 'list-events since 1 hour, asc', paths: events({ order: 'asc', createdGte: day(1 / 24) }) },
    // A window too wide to list from itself, far from the newest event: the scan in id order skips 20 days first.
    { name: 'list-events createdLt 20 days ago', paths: events({ createdLt: day(20) }) },
    { name: 'list-events startingAfter (middle)', paths: events({ startingAfter: eventCursor }) },
    { name: 'list-events asc startingAfter', paths: events({ order: 'asc', startingAfter: eventCursor }) },
    { name: 'list-events deliverySuccess=false', paths: events({ deliverySuccess: 'false' }) },
    { name: 'get-user-details', paths: each('/v1/query/get-user-details', users, 'userId') },
    { name: 'list-accounts', paths: [`/v1/query/list-accounts`] },
    { name: 'list-accounts startingAfter (middle)', paths: [`/v1/query/list-accounts?${q({ startingAfter: accountCursor })}`] },
    { name: 'list-accounts type=entity', paths: [`/v1/query/list-accounts?${q({ type: 'entity' })}`] },
    { name: 'list-accounts verificationStatus', paths: [`/v1/query/list-accounts?${q({ verificationStatus: 'under_review' })}`] },
    { name: 'list-transactions (busiest account)', paths: [`/v1/query/list-transactions?${q({ accountId: busyAccount })}`] },
    { name: 'list-transactions (any account)', paths: each('/v1/query/list-transactions', accounts, 'accountId') },
    { name: 'list-transactions startingAfter', paths: [`/v1/query/list-transactions?${q({ accountId: busyAccount, startingAfter: transactionCursor })}`] },
    { name: 'deliveries (busiest subscription)', paths: [deliveries] },
    { name: 'deliveries status=failed', paths: [`${deliveries}?${q({ status: 'failed' })}`] },
    { name: 'deliveries startingAfter (middle)', paths: [`${deliveries}?${q({ startingAfter: deliveryCursor })}`] },
    { name: 'event deliveries', paths: eventIds.map((id) => `/v1/events/${id}/deliveries`) },
    { name: 'review queue', paths: ['/admin/api/reviews'], operator: true },
    { name: 'review queue integratorId', paths: [`/admin/api/reviews?${q({ integratorId: M })}`], operator: true },
    { name: `review queue olderThan ${RETENTION_DAYS - 10} d`, paths: [`/admin/api/reviews?${q({ olderThanSeconds: (RETENTION_DAYS - 10) * 86_400 })}`], operator: true },
    { name: `review queue page 2 (of ${REVIEW_PAGE})`, paths: [`/admin/api/reviews?${q({ limit: REVIEW_PAGE, startingAfter: reviewPage2 })}`], operator: true },
  ];
}

/** Pages of the review queue's page-2 read: small enough for a second page at the smallest step. */
const REVIEW_PAGE = 10;

/** The nextCursor of the review queue's first page, for its second. */
export async function reviewCursor(baseUrl: string, token: string): Promise<string> {
  const res = await fetch(`${baseUrl}/admin/api/reviews?limit=${REVIEW_PAGE}`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(30_000) });
  const page = (await res.json()) as { nextCursor?: string | null };
  if (res.status !== 200 || !page.nextCursor) throw new Error(`review queue: ${res.status}, no second page (${JSON.stringify(page).slice(0, 300)})`);
  return page.nextCursor;
}

interface Target {
  baseUrl: string;
  key: Key;
  operatorToken: string;
}

/**
 * One request, timed from sending to the last byte of the answer. It must be a 200 whose `data`, when the
 * answer lists, is not empty: a read that finds nothing measures nothing.
 */
async function timedGet(target: Target, path: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${target.baseUrl}${path}`, { headers, signal: AbortSignal.timeout(30_000) });
  const body = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${body.slice(0, 300)}`);
  const data = (JSON.parse(body) as { data?: unknown[] }).data;
  if (Array.isArray(data) && data.length === 0) throw new Error(`GET ${path}: an empty page`);
  return ms;
}

/** REQUESTS sequential requests of `spec` (after the warm-up), its paths in turn. */
export async function measureRead(target: Target, spec: ReadSpec): Promise<ReadFigures> {
  // GETs are not replay-guarded: one signature per path serves many requests, made again after SIGNATURE_REUSE_MS
  // (the server accepts a timestamp within 60 s), outside the timed part.
  const signed = new Map<string, { at: number; headers: Record<string, string> }>();
  const headersFor = (path: string) => {
    if (spec.operator) return { authorization: `Bearer ${target.operatorToken}` };
    let entry = signed.get(path);
    if (!entry || Date.now() - entry.at > SIGNATURE_REUSE_MS) signed.set(path, (entry = { at: Date.now(), headers: signedGetHeaders(target.key, path) }));
    return entry.headers;
  };
  const latencies: number[] = [];
  for (let i = 0; i < WARMUP_REQUESTS + REQUESTS; i++) {
    const path = spec.paths[i % spec.paths.length]!;
    const ms = await timedGet(target, path, headersFor(path));
    if (i >= WARMUP_REQUESTS) latencies.push(ms);
  }
  return figuresOf(latencies);
}
