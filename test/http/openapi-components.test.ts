import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ComponentNameConflict, nameTitledSchemas, pruneUnusedComponents } from '../../src/http/openapi-components.js';

const address = { type: 'object', title: 'Address', properties: { city: { type: 'string' }, country: { type: 'string' } }, required: ['city'] };
const { title: _title, ...addressShape } = address;
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

describe('named components in the OpenAPI document (nameTitledSchemas)', () => {
  it('writes a titled schema once under its title and refers to it everywhere else, nested ones first', () => {
    const user = { type: 'object', title: 'User', properties: { home: address, work: { ...address, description: 'Where they work' } } };
    const doc = {
      paths: {
        '/a': { get: { responses: { 200: json(user) } } },
        '/b': { post: { requestBody: json({ type: 'object', properties: { user, address } }), responses: { 200: json(address) } } },
      },
    };
    const named = nameTitledSchemas(structuredClone(doc)) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: unknown }> }>; requestBody?: { content: Record<string, { schema: unknown }> } }>>;
      components: { schemas: Record<string, unknown> };
    };
    assert.deepEqual(Object.keys(named.components.schemas).sort(), ['Address', 'User']);
    assert.deepEqual(named.components.schemas.Address, address);
    assert.deepEqual(named.components.schemas.User, {
      type: 'object',
      title: 'User',
      properties: { home: { $ref: '#/components/schemas/Address' }, work: { $ref: '#/components/schemas/Address', description: 'Where they work' } },
    });
    assert.deepEqual(named.paths['/a']!.get!.responses['200']!.content['application/json']!.schema, { $ref: '#/components/schemas/User' });
    assert.deepEqual(named.paths['/b']!.post!.requestBody!.content['application/json']!.schema, {
      type: 'object',
      properties: { user: { $ref: '#/components/schemas/User' }, address: { $ref: '#/components/schemas/Address' } },
    });
  });

  it('refers to the component or null for a nullable use', () => {
    const nullable = { ...address, type: ['object', 'null'], description: 'Optional' };
    const named = nameTitledSchemas({ paths: { '/a': { get: { responses: { 200: json({ type: 'object', properties: { a: nullable, b: address } }) } } } } }) as unknown as {
      paths: { '/a': { get: { responses: { 200: { content: { 'application/json': { schema: { properties: Record<string, unknown> } } } } } } } };
      components: { schemas: Record<string, unknown> };
    };
    assert.deepEqual(named.paths['/a'].get.responses[200].content['application/json'].schema.properties, {
      a: { anyOf: [{ $ref: '#/components/schemas/Address' }, { type: 'null' }], description: 'Optional' },
      b: { $ref: '#/components/schemas/Address' },
    });
    assert.deepEqual(named.components.schemas.Address, address);
  });

  it('keeps registered components (by $id) and names what they embed; leaves examples, enums and titles outside schemas alone', () => {
    const problem = { type: 'object', title: 'Problem', properties: { errors: { type: 'array', items: { type: 'object', title: 'FieldError', properties: { field: { type: 'string' }, code: { type: 'string' } } } } } };
    const example = { title: 'Address', type: 'object' };
    const doc = {
      info: { title: 'Integrator API' },
      tags: [{ name: 'x', title: 'NotASchema', type: 'object' }],
      components: { schemas: { Problem: problem } },
      paths: { '/a': { get: { responses: { 200: json({ ...addressShape, examples: [example] }) } } } },
    };
    const named = nameTitledSchemas(structuredClone(doc)) as unknown as typeof doc & { components: { schemas: Record<string, unknown> } };
    assert.deepEqual(Object.keys(named.components.schemas).sort(), ['FieldError', 'Problem']);
    assert.deepEqual(named.components.schemas.Problem, { ...problem, properties: { errors: { type: 'array', items: { $ref: '#/components/schemas/FieldError' } } } });
    assert.deepEqual(named.info, doc.info);
    assert.deepEqual(named.tags, doc.tags);
    assert.deepEqual(named.paths, doc.paths, 'an untitled schema and its examples are untouched');
  });

  it('refuses two different shapes under one title', () => {
    const other = { ...address, properties: { street: { type: 'string' }, zip: { type: 'string' } } };
    const doc = { paths: { '/a': { get: { responses: { 200: json(address), 201: json(other) } } } } };
    assert.throws(() => nameTitledSchemas(doc), ComponentNameConflict);
  });
});

describe('unused components (pruneUnusedComponents)', () => {
  it('drops what no operation reaches without touching the objects the documents share', () => {
    // Both documents are given the same examples object; the admin document, pruned first, reaches fewer of them
    // (the public document once lost the others when both were built in one process).
    const shared = { Problem404: { value: { status: 404 } }, Problem409: { value: { status: 409 } } };
    const ref = (status: number) => ({ content: { 'application/problem+json': { examples: { x: { $ref: `#/components/examples/Problem${status}` } } } } });
    const admin = pruneUnusedComponents({ components: { examples: shared }, paths: { '/a': { get: { responses: { 404: ref(404) } } } } });
    assert.deepEqual(Object.keys(admin.components.examples), ['Problem404']);
    assert.deepEqual(Object.keys(shared), ['Problem404', 'Problem409'], 'the shared object keeps every example');
    const pub = pruneUnusedComponents({ components: { examples: shared }, paths: { '/b': { get: { responses: { 404: ref(404), 409: ref(409) } } } } });
    assert.deepEqual(Object.keys(pub.components.examples), ['Problem404', 'Problem409']);
  });
});
