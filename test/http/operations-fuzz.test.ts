import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { createOperator } from '../../src/domain/operators/operators.js';
import { backends } from '../harness/backends.js';
import { californian, personDocs, signedAt } from '../harness/fixtures.js';
import type { OpenApiOperation, OpenApiSchema } from '../harness/openapi.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';
import { teamAccount } from '../harness/members.js';
import type { Problem } from '../harness/types.js';

/*
 * Hostile input on EVERY operation of both OpenAPI documents, as the running server publishes them: a request built
 * from the operation's own schema (the baseline), then variants with one parameter or body member replaced by a
 * hostile value. Whatever arrives: never a 5xx; every 4xx is a problem document with a code; a 400 names a field;
 * and a refused request writes nothing.
 *
 * FUZZ_RUNS: hostile variants per operation (default 12 for `npm test`; CI sets 30); FUZZ_SEED: the fast-check seed (default fixed, printed
 * with every failure together with the operation, the request and the response).
 */

const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 12));
const SEED = Number(process.env.FUZZ_SEED ?? 20_240_917);

type Json = unknown;
type Schema = OpenApiSchema;
interface Doc {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, Schema> };
}
interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}
interface Op {
  doc: 'integrators' | 'operators';
  method: string;
  path: string;
  operationId: string;
  params: Param[];
  body?: Schema;
}
/** A JSON fragment written into the body text as is: numbers JSON.stringify cannot write (1e400, -0). */
class Raw {
  constructor(readonly text: string) {}
}
interface Request {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Values from a schema

function resolve(doc: Doc, schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let i = 0; i < 10 && typeof s.$ref === 'string'; i++) {
    const name = s.$ref.split('/').pop()!;
    s = doc.components?.schemas?.[name] ?? {};
  }
  return s;
}

/** The branches a value may take (anyOf / oneOf), nulls last so a baseline prefers a real value. */
function branches(doc: Doc, schema: Schema): Schema[] {
  const s = resolve(doc, schema);
  const list: Schema[] = s.anyOf ?? s.oneOf ?? [s];
  return list.map((b) => resolve(doc, b)).sort((a, b) => Number(a.type === 'null') - Number(b.type === 'null'));
}

/** Valid-looking values for ids the seeded data has, by field name; a fresh UUID otherwise. */
type Known = Record<string, string[]>;

function stringFor(s: Schema, name: string, known: Known, pick: (n: number) => number): string {
  const ids = known[name];
  if (s.format === 'uuid') return ids && ids.length > 0 ? ids[pick(ids.length)]! : randomUUID();
  if (s.format === 'date-time') return new Date(Date.now() - 3600_000).toISOString();
  if (s.format === 'date') return '1990-01-01';
  if (s.format === 'email') return `fuzz${pick(1_000_000)}@example.com`;
  if (s.format === 'uri' || s.format === 'url') return 'https://example.com/';
  if (ids && ids.length > 0) return ids[pick(ids.length)]!;
  if (typeof s.pattern === 'string') {
    const [value] = fc.sample(fc.stringMatching(new RegExp(s.pattern)), { seed: pick(1_000_000), numRuns: 1 });
    if (value !== undefined && value.length <= (s.maxLength ?? Infinity) && value.length >= (s.minLength ?? 0)) return value;
  }
  const length = Math.max(s.minLength ?? 1, Math.min(8, s.maxLength ?? 8));
  return 'fuzz'.repeat(4).slice(0, length).padEnd(length, 'z');
}

/** A value the schema accepts (as far as the schema alone can say): required members only for objects. */
function sample(doc: Doc, schema: Schema, name: string, known: Known, pick: (n: number) => number, depth = 0): Json {
  const s = branches(doc, schema)[0]!;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[pick(s.enum.length)];
  if (s.default !== undefined) return s.default;
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type ?? (s.properties ? 'object' : undefined)) {
    case 'string':
      return stringFor(s, name, known, pick);
    case 'integer':
    case 'number': {
      const low = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
      return Math.min(low, s.maximum ?? low);
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const n = depth > 6 ? 0 : (s.minItems ?? 0);
      return Array.from({ length: n }, () => sample(doc, s.items ?? {}, name, known, pick, depth + 1));
    }
    case 'object': {
      const out: Record<string, Json> = {};
      if (depth > 6) return out;
      for (const key of s.required ?? []) out[key] = sample(doc, s.properties?.[key] ?? {}, key, known, pick, depth + 1);
      return out;
    }
    default:
      return 'fuzz';
  }
}

/** Every member a body schema describes, nested objects included (as paths of names). */
function memberPaths(doc: Doc, schema: Schema, prefix: string[] = [], depth = 0): { path: string[]; schema: Schema }[] {
  if (depth > 4) return [];
  const out: { path: string[]; schema: Schema }[] = [];
  for (const branch of branches(doc, schema)) {
    for (const [key, member] of Object.entries<Schema>(branch.properties ?? {})) {
      if (out.some((o) => o.path.join('/') === [...prefix, key].join('/'))) continue;
      out.push({ path: [...prefix, key], schema: member });
      out.push(...memberPaths(doc, member, [...prefix, key], depth + 1));
    }
  }
  return out;
}

/** The body with the member at `path` set to `value` (missing objects on the way are made from the schema). */
function withMember(doc: Doc, body: Json, bodySchema: Schema, path: string[], value: Json, known: Known, pick: (n: number) => number): Json {
  if (path.length === 0) return value;
  const root = (body && typeof body === 'object' && !Array.isArray(body) ? structuredClone(body) : {}) as Record<string, Json>;
  let target = root;
  let schema = bodySchema;
  for (const key of path.slice(0, -1)) {
    const member = branches(doc, schema).find((b) => b.properties?.[key])?.properties?.[key] ?? {};
    const existing = target[key];
    if (!existing || typeof existing !== 'object' || Array.isArray(existing)) target[key] = sample(doc, member, key, known, pick);
    const next = target[key];
    if (!next || typeof next !== 'object' || Array.isArray(next)) target[key] = {};
    target = target[key] as Record<string, Json>;
    schema = member;
  }
  target[path[path.length - 1]!] = value;
  return root;
}

// ---------------------------------------------------------------------------------------------------------------
// Hostile values

const nested = (depth: number, leaf: Json = 1): Json => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? { a: v } : [v];
  return v;
};
const b64 = (s: string) => Buffer.from(s).toString('base64url');

const hostile: fc.Arbitrary<Json> = fc.oneof(
  // NUL characters, alone or inside text
  fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
  fc.constant('\u0000'),
  // very long strings (bodies: well within BODY_LIMIT_BYTES; query strings are cut to fit a request line below)
  fc.constantFrom(300, 5_000, 200_000).map((n) => 'x'.repeat(n)),
  // dates PostgreSQL or Date cannot hold, and their near misses
  fc.constantFrom(
    '0000-01-01T00:00:00Z',
    '0000-12-31T23:59:59.999Z',
    '10000-01-01T00:00:00Z',
    '+010000-01-01T00:00:00.000Z',
    '-000001-01-01T00:00:00Z',
    '0001-01-01T00:00:00+01:00',
    '9999-12-31T23:59:59-01:00',
    '2016-12-31T23:59:60Z',
    '2023-02-30T00:00:00Z',
    '0000-01-01',
    '10000-01-01',
    '2023-02-29',
    '1990-01-01 00:00:00',
  ),
  // numbers: huge, negative, -0, NaN-like, floats for integers, beyond int4 and int8
  fc.constantFrom<Json>(
    '99999999999999999999',
    99999999999999999999,
    new Raw('99999999999999999999'),
    new Raw('1e400'),
    new Raw('-1e400'),
    new Raw('-0'),
    new Raw('1E+2'),
    -1,
    -0,
    '-0',
    2 ** 31,
    2 ** 63,
    '9223372036854775808',
    '-9223372036854775809',
    Number.MAX_SAFE_INTEGER + 2,
    1.5,
    '1.5',
    '1e3',
    '0x10',
    'NaN',
    'Infinity',
    '-Infinity',
    ' 1',
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
  // wrong JSON types and arrays for scalars
  fc.constantFrom<Json>(null, true, false, 0, '', ' ', {}, [], [''], ['a', 'b'], [1, 2], { a: 1 }),
  fc.jsonValue({ maxDepth: 3 }),
  // deeply nested values (depth 50; the depth-5,000 body is json-body.ts's business, fixed separately)
  fc.constantFrom(nested(50), nested(49, 'x'), [nested(50)]),
  // unicode: RTL override, emoji, lone surrogates, BOM, combining marks
  fc.constantFrom('\u202Egnp.exe', 'مرحبا', '😀'.repeat(40), '\ud800', 'a\udfffb', '\udc00\ud800', '\uFEFFx', 'e\u0301\u0301\u0301', '\u2028\u2029'),
  fc.string({ unit: 'binary', maxLength: 30 }),
  // malformed cursors and ids
  fc.constantFrom(
    'not-a-cursor',
    b64('x|y'),
    b64('0000-01-01T00:00:00.000Z|00000000-0000-0000-0000-000000000000'),
    b64('2020-01-01T00:00:00.000Z|------------------------------------'),
    b64('2020-02-30T00:00:00.000Z|01890000-0000-7000-8000-000000000000'),
    b64('Jan 1 1900|01890000-0000-7000-8000-000000000000'),
    b64(`+275760-09-13T00:00:00.000Z|${randomUUID()}`),
    '====',
    '%',
    '00000000-0000-0000-0000-00000000000g',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    `${randomUUID()}\u0000`,
    `${randomUUID()} `,
    `urn:uuid:${randomUUID()}`,
    '..%2F..%2Fetc',
  ),
);

/** JSON text with Raw fragments written verbatim. */
function bodyText(body: Json): string {
  const raws: string[] = [];
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (value instanceof Raw) {
      raws.push(value.text);
      return `__raw_${raws.length - 1}__`;
    }
    return value;
  });
  return (text ?? 'null').replace(/"__raw_(\d+)__"/g, (_m, i: string) => raws[Number(i)]!);
}

/** A parameter value as text: strings as they are, anything else as JSON. */
const paramText = (v: Json): string => (typeof v === 'string' ? v : v instanceof Raw ? v.text : (JSON.stringify(v) ?? ''));

/** Percent-encodes every byte but unreserved ones (lone surrogates arrive as U+FFFD's bytes, as a browser sends them). */
const encode = (s: string) =>
  [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

// Node refuses a request line over 16 KiB before the application sees it (431, not ours): query values stay below.
const MAX_URL_VALUE = 4_000;
// The router refuses a path parameter over 2,048 encoded characters (maxParamLength in app.ts) before any schema
// runs, and cannot say which parameter it was (a 400 with `in: "path"` and an empty pointer). Path values stay
// below it: 170 characters are at most 2,040 once percent-encoded (4 UTF-8 bytes of 3 characters each).
const MAX_PATH_VALUE = 170;

// ---------------------------------------------------------------------------------------------------------------

function operationsOf(doc: Doc, which: Op['doc']): Op[] {
  const ops: Op[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params: Param[] = (op.parameters ?? []).map((p) => ({ name: p.name, in: p.in as Param['in'], required: !!p.required, schema: p.schema ?? {} }));
      const body = op.requestBody?.content?.['application/json']?.schema;
      ops.push({ doc: which, method: method.toUpperCase(), path, operationId: op.operationId ?? `${method} ${path}`, params, ...(body ? { body } : {}) });
    }
  }
  return ops;
}

/** Content-Type spellings of UTF-8 JSON a stock client may send (RFC 9110: case-insensitive, optional whitespace, quoted or not). */
const JSON_SPELLINGS = ['APPLICATION/JSON', 'application/json; charset=utf-8', 'application/json;charset=UTF-8', 'application/json ; charset="utf-8"', 'Application/Json;Charset=Utf-8'];
/** What is not UTF-8 JSON: a 415 naming the header. */
const NOT_JSON = ['application/json; charset=latin1', 'text/plain', 'application/jsonx'];

type Target = { kind: 'param'; param: Param } | { kind: 'member'; path: string[] } | { kind: 'extra-query' };

for (const backend of backends()) {
  describe(`hostile input on every operation of both OpenAPI documents [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;
    let token: string;
    let docs: { integrators: Doc; operators: Doc };
    let businessTables: string[];
    const known: Known = {};

    before(async () => {
      // No webhook worker (it writes delivery attempts on its own schedule) and a rate limit this test cannot hit.
      ({ server, tenants: [acme] } = await startTenants(backend, ['Fuzz'], { RATE_LIMIT_MAX: '1000000', WEBHOOK_WORKER: '0', WEBHOOK_ALLOW_PRIVATE: '1' }));
      token = (await createOperator(server.database, 'Fuzzer', server.clock.now())).token;

      // A few real records, so that baselines naming them reach past the lookups into the handlers.
      const created = await acme.client.post('/v1/submit/create-individual-account', {
        userInfo: californian({ email: 'fuzz-seed@example.com' }),
        serviceTermsSignedAt: signedAt(),
        verificationDocuments: personDocs(),
      });
      assert.equal(created.status, 201, created.text);
      const subscription = await acme.client.post('/v1/webhooks/subscriptions', { name: 'fuzz', url: 'http://127.0.0.1:9/hook', eventTypes: '*' });
      assert.equal(subscription.status, 201, subscription.text);
      server.clock.advance(1000);
      await acme.client.patch('/v1/submit/update-user', { userId: created.body.userId, userInfo: { occupation: 'fuzzing' } });
      // An active account with a bank account waiting for review, so the bank-account operations get past their lookups.
      server.clock.advance(1000);
      await acme.client.post('/v1/sandbox/simulate-verification', { accountId: created.body.accountId, outcome: 'approve' });
      server.clock.advance(1000);
      const bankAccount = await acme.client.post('/v1/submit/create-bank-account', { accountId: created.body.accountId, currency: 'EUR', accountHolderName: 'Fuzz Holder', iban: { iban: 'DE89370400440532013000' } });
      assert.equal(bankAccount.status, 201, bankAccount.text);
      // An entity with a first owner, so that the member operations get past their lookups too.
      const team = await teamAccount(server, acme, { active: false });
      const events = await acme.client.get('/v1/events?limit=5');
      Object.assign(known, {
        userId: [created.body.userId, team.owner.userId],
        accountId: [created.body.accountId, team.accountId],
        actingUserId: [team.owner.userId],
        subjectId: [created.body.userId],
        documentId: (created.body.verificationDocuments as { documentId: string }[]).map((d) => d.documentId),
        subscriptionId: [subscription.body.subscription.id],
        bankAccountId: [bankAccount.body.bankAccountId],
        eventId: (events.body.data as { id: string }[]).map((e) => e.id),
      });

      docs = {
        integrators: (await (await fetch(`${server.url}/openapi.json`)).json()) as Doc,
        operators: (await (await fetch(`${server.url}/admin/openapi.json`)).json()) as Doc,
      };

      // Every table of the application but the bookkeeping written on purpose for refused requests too:
      // request_nonces (the replay guard remembers every authenticated mutating request, refused or not) and
      // idempotency_keys (a 4xx answer is stored to be replayed for the same key), and rate_limit_windows (every
      // authenticated request counts against its credential's limit). Drizzle's own migration journal lives in
      // another schema.
      const tables = (await server.database.db.execute(sql`
        select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relname not in ('request_nonces', 'idempotency_keys', 'rate_limit_windows')
        order by 1`)) as unknown as { rows: { name: string }[] };
      businessTables = tables.rows.map((r) => r.name);
      assert.ok(businessTables.length > 10, `business tables: ${businessTables.join(', ')}`);
    });
    after(() => server?.close());

    const rowCounts = async (): Promise<Record<string, number>> => {
      const parts = sql.join(
        businessTables.map((t) => sql`select ${t} as name, count(*)::int as n from ${sql.identifier(t)}`),
        sql` union all `,
      );
      const result = (await server.database.db.execute(parts)) as unknown as { rows: { name: string; n: number }[] };
      return Object.fromEntries(result.rows.map((r) => [r.name, Number(r.n)]));
    };

    /** Sends a request as the document's callers do: signed for integrators, a bearer token for operators. */
    async function send(op: Op, req: Request): Promise<{ status: number; headers: Headers; text: string; body: unknown }> {
      if (op.doc === 'integrators') {
        if (req.method !== 'GET') server.clock.advance(1000); // the replay guard refuses an identical signed write in one second
        const res = await acme.client.request(req.method, req.path, { headers: req.headers, ...(req.body !== undefined ? { rawBody: req.body } : {}) });
        return res;
      }
      const res = await fetch(server.url + req.path, {
        method: req.method,
        headers: { authorization: `Bearer ${token}`, ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}), ...req.headers },
        ...(req.body !== undefined ? { body: req.body } : {}),
      });
      const text = await res.text();
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      return { status: res.status, headers: res.headers, text, body };
    }

    /** The request for `op` with its parameters and body, `override` replacing one of them. */
    function build(op: Op, doc: Doc, pick: (n: number) => number, target?: Target, value?: Json): Request {
      let path = op.path;
      const query: string[] = [];
      const headers: Record<string, string> = {};
      for (const p of op.params) {
        const replaced = target?.kind === 'param' && target.param === p;
        if (!replaced && !p.required && p.in !== 'path') continue;
        const v: Json = replaced ? value : sample(doc, p.schema, p.name, known, pick);
        if (p.in === 'path') path = path.replace(`{${p.name}}`, encode(paramText(v).slice(0, MAX_PATH_VALUE)));
        else if (p.in === 'query') {
          // An array is the parameter repeated, as a form would send it.
          const values = Array.isArray(v) && replaced ? v : [v];
          for (const item of values) query.push(`${encode(p.name)}=${encode(paramText(item).slice(0, MAX_URL_VALUE))}`);
        } else {
          // Header values are bytes: what fetch cannot send (NUL, CR, LF, beyond Latin-1) is sent as its JSON text.
          const text = paramText(v).slice(0, MAX_URL_VALUE);
          headers[p.name] = /^[\t\x20-\x7e\x80-\xff]*$/.test(text) ? text : JSON.stringify(text).replace(/[^\x20-\x7e]/g, '?');
        }
      }
      if (target?.kind === 'extra-query') query.push(`fuzz=${encode(paramText(value).slice(0, MAX_URL_VALUE))}`);
      let body: string | undefined;
      if (op.body) {
        const base = sample(doc, op.body, '', known, pick);
        body = bodyText(target?.kind === 'member' ? withMember(doc, base, op.body, target.path, value, known, pick) : base);
      }
      return { method: op.method, path: query.length > 0 ? `${path}?${query.join('&')}` : path, headers, ...(body !== undefined ? { body } : {}) };
    }

    /**
     * The row counts after the last refused request, which wrote nothing (asserted): the next request's "before",
     * instead of counting every table again. A request that succeeded may have written, so the next one counts afresh.
     */
    let countsAfterRefusal: Record<string, number> | undefined;
    const countsBefore = async () => countsAfterRefusal ?? (await rowCounts());

    /** The assertions every answer must pass; `before` counted before the request (countsBefore). */
    async function check(op: Op, req: Request, before: Record<string, number>): Promise<number> {
      countsAfterRefusal = undefined;
      const res = await send(op, req);
      const what = () =>
        `${op.doc} ${op.operationId}: ${req.method} ${req.path.slice(0, 500)} ${JSON.stringify(req.headers).slice(0, 200)} ${(req.body ?? '').slice(0, 600)}\n -> ${res.status} ${res.headers.get('content-type')} ${res.text.slice(0, 600)}`;
      assert.ok(res.status < 500, `no 5xx: ${what()}`);
      if (res.status >= 400) {
        assert.equal(res.headers.get('content-type')?.split(';')[0], 'application/problem+json', `a problem document: ${what()}`);
        const problem = res.body as Problem | undefined; // checked to be one just below
        assert.equal(typeof problem?.code, 'string', `a problem code: ${what()}`);
        if (res.status === 400 && problem!.code !== 'malformed_json') {
          const errors = problem!.errors as { pointer: string; in: string; code: string }[] | undefined;
          assert.ok(Array.isArray(errors) && errors.length > 0, `a 400 names the field: ${what()}`);
          assert.ok(
            errors.every((e) => ['query', 'body', 'path', 'header'].includes(e.in) && typeof e.code === 'string') && errors.some((e) => e.pointer !== '' || e.in === 'body'),
            `each error says where, one names a field: ${what()}`,
          );
        }
        const afterwards = await rowCounts();
        const changed = Object.keys(afterwards).filter((t) => afterwards[t] !== before[t]);
        assert.deepEqual(changed, [], `nothing written when refused (${changed.map((t) => `${t} ${before[t]} -> ${afterwards[t]}`).join(', ')}): ${what()}`);
        countsAfterRefusal = afterwards;
      }
      return res.status;
    }

    it('never a 5xx, always a problem naming the field, nothing written when refused', { timeout: 600_000 }, async () => {
      const operations = [...operationsOf(docs.integrators, 'integrators'), ...operationsOf(docs.operators, 'operators')];
      assert.ok(operationsOf(docs.integrators, 'integrators').length > 0 && operationsOf(docs.operators, 'operators').length > 0, 'both documents list operations');
      const exercised = new Map<string, number>();
      const statuses = new Map<number, number>();

      for (const [index, op] of operations.entries()) {
        const doc = docs[op.doc];
        const targets: Target[] = [
          ...op.params.map((param): Target => ({ kind: 'param', param })),
          ...(op.body ? [{ kind: 'member', path: [] } as Target, ...memberPaths(doc, op.body).map(({ path }): Target => ({ kind: 'member', path }))] : []),
        ];
        // An operation without parameters or body still gets hostile input: an unknown query parameter.
        if (targets.length === 0) targets.push({ kind: 'extra-query' });

        // The baseline: the operation as its schema describes it (it may succeed; then it may write).
        let n = 0;
        const pickFrom = (seed: number) => (k: number) => (n = (n * 31 + seed + 7) % 2_147_483_647) % k;
        const baseline = build(op, doc, pickFrom(index));
        const status = await check(op, baseline, await countsBefore());
        statuses.set(status, (statuses.get(status) ?? 0) + 1);

        await fc.assert(
          fc.asyncProperty(fc.nat(targets.length - 1), hostile, fc.nat(), async (which, value, seed) => {
            const req = build(op, doc, pickFrom(seed), targets[which]!, value);
            const s = await check(op, req, await countsBefore());
            statuses.set(s, (statuses.get(s) ?? 0) + 1);
            exercised.set(`${op.doc} ${op.operationId}`, (exercised.get(`${op.doc} ${op.operationId}`) ?? 0) + 1);
          }),
          // No shrinking against a live server: the failure message already carries the request and the answer.
          { numRuns: RUNS, seed: SEED + index, endOnFailure: true },
        );
      }

      const missing = operations.filter((op) => !exercised.has(`${op.doc} ${op.operationId}`)).map((op) => op.operationId);
      assert.deepEqual(missing, [], 'every operation was exercised');
      console.log(`operations-fuzz [${backend}]: ${operations.length} operations, ${RUNS} hostile requests each (seed ${SEED}); statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
    });

    it('every operation with a body: each spelling of UTF-8 JSON in Content-Type is taken, anything else is a 415, nothing written', { timeout: 600_000 }, async () => {
      const operations = [...operationsOf(docs.integrators, 'integrators'), ...operationsOf(docs.operators, 'operators')].filter((op) => op.body);
      assert.ok(operations.length > 20, `${operations.length} operations with a body`);
      for (const [index, op] of operations.entries()) {
        const doc = docs[op.doc];
        let n = 0;
        const pick = (k: number) => (n = (n * 31 + index + 7) % 2_147_483_647) % k;
        for (const contentType of [...JSON_SPELLINGS, ...NOT_JSON]) {
          const req = build(op, doc, pick);
          req.headers['content-type'] = contentType;
          const status = await check(op, req, await countsBefore());
          const refused = NOT_JSON.includes(contentType);
          assert.equal(status === 415, refused, `${op.doc} ${op.operationId} with Content-Type: ${contentType} -> ${status}`);
        }
      }
      console.log(`operations-fuzz [${backend}]: ${operations.length} operations with a body, ${JSON_SPELLINGS.length + NOT_JSON.length} Content-Type spellings each`);
    });
  });
}
