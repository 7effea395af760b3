import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { buildSerializer } from '../../src/http/serializer-cache.js';

const Money = { $id: 'Money', type: 'object', properties: { amount: { type: 'string' } }, required: ['amount'] };
const Answer = { type: 'object', properties: { price: { $ref: 'Money#' }, note: { type: 'string' } }, required: ['price'] };

/** An app as buildApp makes one: the shared schema added, one route answering with `answer` under the schema `Answer`. */
async function appWith(shared: object, answer: unknown) {
  const app = Fastify({ schemaController: { compilersFactory: { buildSerializer } } });
  app.addSchema(shared);
  app.get('/', { schema: { response: { 200: Answer } } }, async () => answer);
  await app.ready();
  return app;
}

describe('response serializers compiled once per process (serializer-cache.ts)', () => {
  it('a second app with the same schemas serializes as the first, through the same compiled function', async () => {
    const compiled = new Set<unknown>();
    const spy = (external?: unknown, options?: Parameters<typeof buildSerializer>[1]) => {
      const compile = buildSerializer(external, options);
      return (route: { schema?: unknown }) => {
        const serialize = compile(route);
        compiled.add(serialize);
        return serialize;
      };
    };
    for (let i = 0; i < 3; i++) {
      const app = Fastify({ schemaController: { compilersFactory: { buildSerializer: spy } } });
      app.addSchema(Money);
      app.get('/', { schema: { response: { 200: Answer } } }, async () => ({ price: { amount: '1.00', secret: 'x' }, note: 'n', extra: true }));
      const res = await app.inject('/');
      assert.deepEqual(res.json(), { price: { amount: '1.00' }, note: 'n' }, 'only what the schemas name is written');
      await app.close();
    }
    assert.equal(compiled.size, 1, 'one compiled function for three apps');
  });

  it('shared schemas of other content compile afresh: their answers follow their own schemas', async () => {
    const withCurrency = { ...Money, properties: { ...Money.properties, currency: { type: 'string' } } };
    const answer = { price: { amount: '2.00', currency: 'EUR' } };
    const first = await appWith(Money, answer);
    const second = await appWith(withCurrency, answer);
    assert.deepEqual((await first.inject('/')).json(), { price: { amount: '2.00' } });
    assert.deepEqual((await second.inject('/')).json(), { price: { amount: '2.00', currency: 'EUR' } });
    await Promise.all([first.close(), second.close()]);
  });
});
