import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ApiResponse } from '../../src/client/index.js';
import { generateP256KeyPair } from '../../src/crypto/p256.js';
import { backends } from '../harness/backends.js';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
type Doc = { paths: Record<string, Record<string, any>>; [k: string]: any };
type Ctx = { server: TestServer; acme: SeededIntegrator; reader: SeededIntegrator; globex: SeededIntegrator };

/** Real calls per operation; between them they should exercise each operation's success and typical failures. */
const EXAMPLES: Record<string, (c: Ctx) => Promise<ApiResponse[]>> = {
  livez: async ({ server }) => [await plain(server, '/livez')],
  readyz: async ({ server }) => [await plain(server, '/readyz')],
  describeProblem: async ({ server }) => [await plain(server, '/problems/invalid_signature'), await plain(server, '/problems/nope')],
  health: async ({ acme }) => [await acme.client.get('/v1/health')],
  whoami: async ({ acme, reader }) => [await acme.client.get('/v1/integrator/whoami'), await reader.client.get('/v1/integrator/whoami')],
  listCredentials: async ({ acme }) => [await acme.client.get('/v1/integrator/credentials')],
  createCredential: async ({ acme, globex }) => [
    await acme.client.post('/v1/integrator/credentials', { label: 'gen', scope: 'read_only' }),
    await acme.client.post('/v1/integrator/credentials', { label: 'byok', scope: 'read_only', publicKey: generateP256KeyPair().publicKey }),
    await acme.client.post('/v1/integrator/credentials', { label: 'dup', scope: 'read_only', publicKey: globex.publicKey }),
    await acme.client.post('/v1/integrator/credentials', { label: 7 }),
    await acme.client.request('POST', '/v1/integrator/credentials', { rawBody: '{' }),
    await acme.client.request('POST', '/v1/integrator/credentials', { rawBody: 'a=b', headers: { 'content-type': 'text/plain' } }),
  ],
  updateCredential: async ({ acme, server }) => {
    const created = await acme.client.post('/v1/integrator/credentials', { label: 'upd', scope: 'read_only' });
    server.clock.advance(1000);
    return [
      await acme.client.patch(`/v1/integrator/credentials/${created.body.credential.publicKey}`, { label: 'updated' }),
      await acme.client.patch(`/v1/integrator/credentials/${acme.publicKey}`, { active: false }),
      await acme.client.patch('/v1/integrator/credentials/0x12', { label: 'x' }),
    ];
  },
  deleteCredential: async ({ acme }) => {
    const created = await acme.client.post('/v1/integrator/credentials', { label: 'del', scope: 'read_only' });
    return [
      await acme.client.delete(`/v1/integrator/credentials/${created.body.credential.publicKey}`),
      await acme.client.delete(`/v1/integrator/credentials/${acme.publicKey}`),
    ];
  },
};

async function plain(server: TestServer, path: string): Promise<ApiResponse> {
  const res = await fetch(`${server.url}${path}`);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

for (const backend of backends()) {
  describe(`OpenAPI document and real responses [${backend}]`, () => {
    let ctx: Ctx;
    let doc: Doc;
    let ajv: Ajv2020;
    const operations: { method: string; path: string; op: any }[] = [];

    before(async () => {
      const server = await startServer(backend);
      const acme = await server.seedIntegrator('Acme');
      const globex = await server.seedIntegrator('Globex');
      const issued = await acme.client.post('/v1/integrator/credentials', { label: 'reader', scope: 'read_only' });
      const reader = { ...acme, publicKey: issued.body.credential.publicKey, privateKey: issued.body.privateKey, client: server.clientFor(issued.body.privateKey) };
      ctx = { server, acme, reader, globex };
      doc = (await plain(server, '/openapi.json')).body;
      ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      ajv.addSchema(doc, 'openapi');
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(item)) operations.push({ method: method.toUpperCase(), path, op });
      }
    });
    after(() => ctx.server.close());

    function operationFor(method: string, url: string) {
      const path = url.split('?')[0]!;
      return operations.find((o) => o.method === method && new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
    }

    function assertConforms(method: string, url: string, res: ApiResponse) {
      const entry = operationFor(method, url);
      assert.ok(entry, `${method} ${url} is documented`);
      const declared = entry.op.responses[String(res.status)];
      assert.ok(declared, `${entry.op.operationId}: status ${res.status} is declared (${res.text.slice(0, 200)})`);
      if (res.status === 204) {
        assert.equal(res.text, '');
        return;
      }
      const contentType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
      assert.ok(declared.content?.[contentType], `${entry.op.operationId} ${res.status}: content type ${contentType} is declared`);
      const ref = `openapi#/paths/${escape(entry.path)}/${method.toLowerCase()}/responses/${res.status}/content/${escape(contentType)}/schema`;
      const validate = ajv.compile({ $ref: ref });
      assert.ok(validate(res.body), `${entry.op.operationId} ${res.status}: ${ajv.errorsText(validate.errors)} in ${res.text.slice(0, 300)}`);
    }

    it('is OpenAPI 3.1 at version 0.2.0 with the three-header security scheme', () => {
      assert.equal(doc.openapi, '3.1.0');
      assert.equal(doc.info.version, '0.2.0');
      assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['pubkey', 'signature', 'timestamp']);
      assert.equal(doc.components.securitySchemes.signature.name, 'X-Signature');
      assert.deepEqual(doc.security, [{ pubkey: [], timestamp: [], signature: [] }]);
      for (const { path, op } of operations) {
        assert.ok(op.operationId, `${path} has an operationId`);
        if (path.startsWith('/v1/')) {
          assert.equal(op.security, undefined, `${op.operationId} inherits the signed scheme`);
          assert.ok(op.responses['401'], `${op.operationId} declares 401`);
        } else assert.deepEqual(op.security, [], `${op.operationId} is unsigned`);
      }
    });

    it('serves a docs page', async () => {
      const res = await fetch(`${ctx.server.url}/docs`);
      assert.equal(res.status, 200);
      assert.match(await res.text(), /swagger-ui/i);
    });

    it('has an example for every operation, and every real response validates against the document', async () => {
      const ids = operations.map((o) => o.op.operationId as string);
      assert.deepEqual(ids.filter((id) => !EXAMPLES[id]), [], 'operations without examples');
      for (const { method, path, op } of operations) {
        const responses = await EXAMPLES[op.operationId]!(ctx);
        assert.ok(responses.length > 0);
        for (const res of responses) {
          // The example's own URL is not on the response; its operation is this one.
          assertConforms(method, path.replace(/\{pubkey\}/, '0x00').replace(/\{code\}/, 'x'), res);
        }
        ctx.server.clock.advance(1000);
      }
    });

    it('over every signed operation: unsigned is 401, read_only on a mutation is 403, another integrator’s record is 404', async () => {
      const signed = operations.filter((o) => o.path.startsWith('/v1/'));
      assert.ok(signed.length >= 6);
      const readerMay = new Set<string>((await ctx.reader.client.get('/v1/integrator/whoami')).body.capabilities);
      for (const { method, op } of signed) if (method !== 'GET') assert.ok(!readerMay.has(op.operationId), `${op.operationId} is a mutation`);
      for (const { method, path, op } of signed) {
        const url = path.replace('{pubkey}', ctx.globex.publicKey);
        const unsigned = await fetch(`${ctx.server.url}${url}`, { method, headers: { 'content-type': 'application/json' }, ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }) });
        const text = await unsigned.text();
        const res = { status: unsigned.status, headers: unsigned.headers, text, body: JSON.parse(text) };
        assert.equal(res.status, 401, `${op.operationId} unsigned`);
        assertConforms(method, url, res);

        const body = method === 'POST' ? { label: 'x', scope: 'read_only' } : method === 'PATCH' ? { label: 'x' } : undefined;
        const asReader = await ctx.reader.client.request(method, url, body === undefined ? {} : { body });
        if (!readerMay.has(op.operationId)) {
          assert.equal(asReader.status, 403, `${op.operationId} read_only`);
          assertConforms(method, url, asReader);
        } else assert.ok(asReader.status < 400, `${op.operationId} read_only may read`);

        if (path.includes('{')) {
          ctx.server.clock.advance(1000);
          const foreign = await ctx.acme.client.request(method, url, body === undefined ? {} : { body });
          assert.equal(foreign.status, 404, `${op.operationId} foreign record`);
          assertConforms(method, url, foreign);
        }
      }
    });
  });
}
