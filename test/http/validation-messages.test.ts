import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { createOperator } from '../../src/domain/operators/operators.js';
import { FORMATS, patternSentence } from '../../src/http/schemas/patterns.js';
import { backends } from '../harness/backends.js';
import type { OpenApiDoc, OpenApiSchema } from '../harness/openapi.js';
import { useTenants } from '../harness/tenants.js';
import type { FieldError, Problem } from '../harness/types.js';

/*
 * Validation messages are sentences (issue 38): every `pattern` of both OpenAPI documents, found in the documents
 * the running server publishes, is broken in a real request, and the 400's detail for that field says in words
 * what is expected: no regular expression ever reaches an integrator.
 */

type Where = 'path' | 'query' | 'header' | 'body';
/** One schema with a pattern, where a request carries it. */
interface Site {
  doc: 'integrators' | 'operators';
  method: string;
  path: string;
  in: Where;
  /** The parameter's name, or the body member's path of names. */
  at: string[];
  schema: OpenApiSchema;
  /** A member inside a union keyed on a tag (a discriminator): the tag its object needs, by that object's path. */
  tags?: Record<string, Record<string, string>>;
}

type Found = { at: string[]; schema: OpenApiSchema; tags?: Record<string, Record<string, string>> };

/** The value a branch of a discriminated union holds at its tag (a const, or an enum of one). */
const tagOf = (branch: OpenApiSchema, name: string): string | undefined => {
  const member = branch.properties?.[name] as { const?: unknown; enum?: unknown[] } | undefined;
  const value = member?.const ?? member?.enum?.[0];
  return typeof value === 'string' ? value : undefined;
};

const resolve = (doc: OpenApiDoc, s: OpenApiSchema | undefined): OpenApiSchema => {
  let schema = s ?? {};
  for (let i = 0; i < 10 && typeof schema.$ref === 'string'; i++) schema = doc.components.schemas?.[schema.$ref.split('/').pop()!] ?? {};
  return schema;
};

/** Every schema with a pattern in a body, nested members and anyOf/oneOf branches included. */
function bodySites(doc: OpenApiDoc, schema: OpenApiSchema | undefined, at: string[], out: Found[], depth = 0, tags: Record<string, Record<string, string>> = {}): void {
  const s = resolve(doc, schema);
  if (depth > 8) return;
  if (typeof s.pattern === 'string') out.push({ at, schema: s, ...(Object.keys(tags).length > 0 ? { tags } : {}) });
  // A union keyed on a tag is validated by its tag's branch alone: a member of a branch travels with the branch's tag.
  const tag = (s as { discriminator?: { propertyName: string } }).discriminator?.propertyName;
  for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...((s.allOf as OpenApiSchema[] | undefined) ?? [])]) {
    const value = tag ? tagOf(resolve(doc, branch), tag) : undefined;
    bodySites(doc, branch, at, out, depth + 1, value !== undefined ? { ...tags, [at.join('/')]: { [tag!]: value } } : tags);
  }
  for (const [name, member] of Object.entries(s.properties ?? {})) bodySites(doc, member, [...at, name], out, depth + 1, tags);
  if (s.items) bodySites(doc, s.items, [...at, '0'], out, depth + 1, tags);
}

function sitesOf(doc: OpenApiDoc, which: Site['doc']): Site[] {
  const sites: Site[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      for (const p of op.parameters ?? []) {
        const schema = resolve(doc, p.schema);
        if (typeof schema.pattern === 'string') sites.push({ doc: which, method: method.toUpperCase(), path, in: p.in as Where, at: [p.name], schema });
      }
      const found: Found[] = [];
      bodySites(doc, op.requestBody?.content?.['application/json']?.schema, [], found);
      const unique = new Map(found.map((f) => [f.at.join('/'), f]));
      for (const f of unique.values()) sites.push({ doc: which, method: method.toUpperCase(), path, in: 'body', ...f });
    }
  }
  return sites;
}

/** Every pattern anywhere in a document (responses and response headers too). */
function allPatterns(doc: OpenApiDoc): Set<string> {
  const found = new Set<string>();
  JSON.stringify(doc, (key, value: unknown) => (key === 'pattern' && typeof value === 'string' && found.add(value), value));
  return found;
}

/** A value the pattern refuses, within the schema's lengths, so the pattern is the one thing wrong with it. */
function breaking(schema: OpenApiSchema): string {
  const re = new RegExp(schema.pattern!, 'u');
  const length = Math.min(Math.max(schema.minLength ?? 0, 3), schema.maxLength ?? Infinity);
  const candidates = ['!'.repeat(length), `a${' '.repeat(length - 2)}b`, ' '.repeat(length)];
  const value = candidates.find((c) => !re.test(c));
  assert.ok(value, `no value breaks ${schema.pattern}`);
  return value;
}

const UUID = '00000000-0000-4000-8000-000000000000';

/**
 * A value the schema accepts, as far as the schema alone can say (required members only; the first branch of a
 * union): the body that lets a request's headers be validated, since Fastify checks the body first and stops there.
 */
function sample(doc: OpenApiDoc, schema: OpenApiSchema | undefined, depth = 0): unknown {
  let s = resolve(doc, schema);
  const branches = (s.oneOf ?? s.anyOf ?? []).map((b) => resolve(doc, b));
  // exactlyOneOf (combinators.ts): branches of bare `required` beside the object's own members; else a real union.
  if (branches.length > 0 && s.properties) s = { ...s, required: [...(s.required ?? []), ...(branches[0]!.required ?? [])] };
  else if (branches.length > 0) s = branches.find((b) => b.type !== 'null') ?? branches[0]!;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.default !== undefined) return s.default;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : (s.type ?? (s.properties ? 'object' : undefined));
  if (type === 'object') return Object.fromEntries((s.required ?? []).map((name) => [name, depth > 8 ? {} : sample(doc, s.properties?.[name], depth + 1)]));
  if (type === 'array') return Array.from({ length: s.minItems ?? 0 }, () => sample(doc, s.items, depth + 1));
  if (type === 'integer' || type === 'number') return s.minimum ?? 1;
  if (type === 'boolean') return true;
  if (s.format === 'uuid') return UUID;
  if (s.format === 'date-time') return '2024-01-01T00:00:00Z';
  if (s.format === 'date') return '1990-01-01';
  if (typeof s.pattern === 'string') {
    const fits = (v: string) => v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity);
    const found = fc.sample(fc.stringMatching(new RegExp(s.pattern)), { seed: 1, numRuns: 50 }).find(fits);
    assert.ok(found !== undefined, `a value matching ${s.pattern}`);
    return found;
  }
  return 'x'.repeat(Math.max(1, s.minLength ?? 1));
}

/** A regular expression's marks: anchors, classes, escapes, or the word itself. */
const REGEX_MARKS = /[\^$[\]\\]|\{\d|pattern|regular expression/i;

function assertSentence(detail: string, label: string, what: string): void {
  assert.ok(!REGEX_MARKS.test(detail), `no regular expression in the detail: ${what}: ${detail}`);
  assert.ok(detail.startsWith(`${label} must `), `a sentence about ${label}: ${what}: ${detail}`);
  assert.ok(detail.split(' ').length >= 4, `more than a word or two: ${what}: ${detail}`);
}

for (const backend of backends()) {
  describe(`validation messages are sentences [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme'], { RATE_LIMIT_MAX: '1000000', WEBHOOK_WORKER: '0' });
    let token: string;
    let docs: { integrators: OpenApiDoc; operators: OpenApiDoc };

    before(async () => {
      token = (await createOperator(server.database, 'Reader', server.clock.now())).token;
      docs = {
        integrators: (await (await fetch(`${server.url}/openapi.json`)).json()) as OpenApiDoc,
        operators: (await (await fetch(`${server.url}/admin/openapi.json`)).json()) as OpenApiDoc,
      };
    });

    /** Sends as the document's callers do: signed for integrators, a bearer token for operators. */
    async function send(site: Pick<Site, 'doc' | 'method'>, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: Problem; text: string }> {
      if (site.doc === 'integrators') {
        server.clock.advance(1000); // the replay guard refuses an identical signed write within one second
        return acme.client.request(site.method, path, { headers, ...(body !== undefined ? { body } : {}) });
      }
      const res = await fetch(server.url + path, {
        method: site.method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, body: JSON.parse(text) as Problem, text };
    }

    /**
     * The request breaking `site` alone. Fastify validates path, body, query and headers in that order and stops at
     * the first part that fails: the other path parameters are valid, and so is the body when a header is broken
     * (the documented example, else one sampled from the schema). A broken body member travels alone: Ajv reports
     * every error of the body, so the missing members do not hide it.
     */
    async function sendBroken(site: Site, value: string) {
      const doc = docs[site.doc];
      const op = doc.paths[site.path]![site.method.toLowerCase()]!;
      const params = new Map((op.parameters ?? []).filter((p) => p.in === 'path').map((p) => [p.name, String(sample(doc, p.schema))]));
      if (site.in === 'path') params.set(site.at[0]!, value);
      let path = site.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(params.get(name) ?? UUID));
      const headers: Record<string, string> = {};
      const media = op.requestBody?.content?.['application/json'];
      let body: unknown = media ? (media.example ?? sample(doc, media.schema)) : undefined;
      const query = new Map((op.parameters ?? []).filter((p) => p.in === 'query' && p.required).map((p) => [p.name, String(sample(doc, p.schema))]));
      if (site.in === 'query') query.set(site.at[0]!, value);
      if (query.size > 0) path += `?${[...query].map(([name, v]) => `${encodeURIComponent(name)}=${encodeURIComponent(v)}`).join('&')}`;
      if (site.in === 'header') headers[site.at[0]!] = value;
      if (site.in === 'body') body = site.at.reduceRight<unknown>((inner, name, i) => (/^\d+$/.test(name) ? [inner] : { ...site.tags?.[site.at.slice(0, i).join('/')], [name]: inner }), value);
      return send(site, path, headers, body);
    }

    it('every pattern of both documents has a sentence, and no sentence holds a regular expression', () => {
      for (const [name, doc] of Object.entries(docs)) {
        for (const pattern of allPatterns(doc)) assert.ok(patternSentence(pattern), `${name}: ${pattern} has a sentence in src/http/schemas/patterns.ts`);
      }
      for (const [name, format] of Object.entries(FORMATS)) assertSentence(`x ${format.sentence}`, 'x', name);
    });

    it('a value breaking any pattern of a request gets a 400 whose detail for that field is a sentence', async () => {
      const sites = [...sitesOf(docs.integrators, 'integrators'), ...sitesOf(docs.operators, 'operators')];
      // Counted so that a document losing its patterns (or this walk losing its way) is noticed.
      assert.ok(sites.filter((s) => s.doc === 'integrators').length >= 60 && sites.filter((s) => s.doc === 'operators').length >= 15, `sites: ${sites.length}`);
      const patterns = new Set<string>();
      for (const site of sites) {
        const value = breaking(site.schema);
        const res = await sendBroken(site, value);
        const what = `${site.doc} ${site.method} ${site.path} ${site.in} ${site.at.join('/')} = ${JSON.stringify(value)} -> ${res.status} ${res.text.slice(0, 800)}`;
        assert.equal(res.status, 400, what);
        const pointer = `/${site.at.join('/')}`;
        const error = (res.body.errors as FieldError[] | undefined)?.find((e) => e.pointer === pointer && e.in === site.in && e.code === 'invalid_format');
        assert.ok(error, `an invalid_format error at ${pointer}: ${what}`);
        assertSentence(error.detail, site.at.join('/'), what);
        assert.equal(error.detail, `${site.at.join('/')} ${patternSentence(site.schema.pattern!)}`, what);
        patterns.add(site.schema.pattern!);
      }
      assert.ok(patterns.size >= 13, `distinct patterns sent: ${patterns.size}`);
    });

    it('an amount of 1.001 says at most 2 decimals, on every operation taking a fiat amount', async () => {
      const fiat = [...sitesOf(docs.integrators, 'integrators'), ...sitesOf(docs.operators, 'operators')].filter((s) => s.schema.pattern === FORMATS.fiatAmount.pattern);
      assert.deepEqual(fiat.map((s) => `${s.method} ${s.path} ${s.at.join('/')}`).sort(), [
        'POST /admin/api/deposits/{reference}/funds-received amount',
        'POST /v1/sandbox/simulate-deposit amount',
        'POST /v1/submit/create-deposit amount',
        'POST /v1/submit/create-withdrawal amount',
      ]);
      for (const site of fiat) {
        const path = site.path.replace('{reference}', 'DEP-ABCDEFGHJKLM');
        const res = await send(site, path, {}, { amount: '1.001' });
        assert.equal(res.status, 400, res.text);
        const error = (res.body.errors as FieldError[]).find((e) => e.pointer === '/amount');
        assert.equal(error?.code, 'invalid_format', res.text);
        assert.match(error.detail, /^amount must be a decimal amount with at most 2 decimals/, res.text);
      }
    });

    it('formats are said in words too: a bad UUID is "must be a UUID"', async () => {
      const res = await send({ doc: 'integrators', method: 'POST' }, '/v1/otp/verify', {}, { userId: 'not-a-uuid', code: '12' });
      assert.equal(res.status, 400, res.text);
      const errors = res.body.errors as FieldError[];
      assert.match(errors.find((e) => e.pointer === '/userId')?.detail ?? '', /^userId must be a UUID/, res.text);
      assert.equal(errors.find((e) => e.pointer === '/code')?.detail, 'code must be 6 digits', res.text);
      for (const e of errors) assertSentence(e.detail, e.pointer.slice(1), res.text);
    });
  });
}
