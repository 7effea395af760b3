import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compileEverySchema } from '../../src/http/compile-on-first-call.js';
import type { TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';

// Validators and serializers are compiled at their first call (src/http/compile-on-first-call.ts): a schema Ajv or
// fast-json-stringify refuses would otherwise surface only at the first request to its route. Every route's are
// compiled here, after a server has registered them all.

describe('every route schema compiles', () => {
  let server: TestServer;
  let client: Awaited<ReturnType<typeof startTenants>>['tenants'][0]['client'];
  before(async () => {
    const started = await startTenants('pglite', ['Acme']);
    server = started.server;
    client = started.tenants[0].client;
  });
  after(async () => {
    await server?.close();
  });

  it('a validator compiled at its first call coerces the query and names the field it refuses', async () => {
    assert.equal((await client.get('/v1/events?limit=2')).status, 200);
    const refused = await client.get('/v1/events?limit=many');
    assert.equal(refused.status, 400);
    assert.equal((refused.body as { errors: { pointer: string }[] }).errors[0]?.pointer, '/limit');
  });

  it('compiles every validator and serializer a server registered and did not call yet', async () => {
    // Well over a hundred routes, each with a querystring, params, header or body schema and several answers.
    const compiled = compileEverySchema();
    assert.ok(compiled > 200, `${compiled} validators and serializers`);
    assert.equal(compileEverySchema(), 0, 'what is compiled is not compiled again');
  });
});
