import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { createOperator } from '../../src/domain/operators/operators.js';
import { ADMIN_REQUEST_EXAMPLES } from '../../src/http/request-examples-admin.js';
import { adminRequest } from '../harness/admin.js';
import type { OpenApiDoc } from '../harness/openapi.js';
import { startServer, type TestServer } from '../harness/server.js';

/*
 * Both OpenAPI documents as served: every operation that takes a JSON body has a request example (what /docs and
 * /admin/docs pre-fill in Try it out), and every example validates against its operation's body schema. The
 * integrators' examples are also sent to a real server (openapi-request-examples.test.ts); the operators' are sent
 * here to records nobody has, so the server's own validation passes them (404, not 400). The documents do not
 * depend on the database, so one backend serves them.
 */
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const pointer = (...parts: string[]) => parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

interface BodyOperation {
  method: string;
  path: string;
  operationId: string;
  example: unknown;
  validate: (value: unknown) => string | undefined;
}

/** The document's operations with a JSON body, each with its example and a validator of its body schema. */
function bodyOperations(doc: OpenApiDoc): BodyOperation[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi');
  const found: BodyOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const media = op.requestBody?.content?.['application/json'];
      if (!media) continue;
      const validate = ajv.compile({ $ref: `openapi#/${pointer('paths', path, method, 'requestBody', 'content', 'application/json', 'schema')}` });
      found.push({ method: method.toUpperCase(), path, operationId: op.operationId, example: media.example, validate: (value) => (validate(value) ? undefined : ajv.errorsText(validate.errors)) });
    }
  }
  return found;
}

describe('request body examples of both OpenAPI documents', () => {
  let server: TestServer;
  const docs: Record<string, OpenApiDoc> = {};
  before(async () => {
    server = await startServer('pglite');
    for (const path of ['/openapi.json', '/admin/openapi.json']) docs[path] = (await (await fetch(`${server.url}${path}`)).json()) as OpenApiDoc;
  });
  after(() => server?.close());

  for (const path of ['/openapi.json', '/admin/openapi.json']) {
    it(`${path}: every body operation has an example, valid against its schema`, (t) => {
      const operations = bodyOperations(docs[path]!);
      assert.ok(operations.length > 10, `${path} has body operations (${operations.length})`);
      const withExample = operations.filter((o) => o.example !== undefined);
      t.diagnostic(`${path}: ${withExample.length} of ${operations.length} body operations have an example`);
      assert.deepEqual(operations.filter((o) => o.example === undefined).map((o) => o.operationId), [], 'body operations without an example');
      assert.equal(withExample.length, operations.length);
      for (const { operationId, example, validate } of operations) assert.equal(validate(example), undefined, `${operationId}: its example validates`);
    });
  }

  it('the operators’ examples name operations of the operators’ document only, each one it has', () => {
    const admin = bodyOperations(docs['/admin/openapi.json']!).map((o) => o.operationId);
    assert.deepEqual(Object.keys(ADMIN_REQUEST_EXAMPLES).sort(), admin.sort(), 'one example per admin body operation, none for an operation it lacks');
  });

  it('the server takes every operators’ example: sent to records nobody has, 404 (a new reconciliation run: 201)', async () => {
    const { token } = await createOperator(server.database, 'Alice', server.clock.now());
    // Path parameters that pass validation but name nothing: a reference of the right pattern, a fresh UUID.
    const param = (name: string, path: string) => (name === 'subjectType' ? 'user' : name === 'reference' ? (path.includes('/deposits/') ? 'DEP-000000000000' : 'WDR-000000000000') : randomUUID());
    for (const { method, path, operationId, example } of bodyOperations(docs['/admin/openapi.json']!)) {
      const url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => param(name, path));
      const res = await adminRequest(server, method, url, { token, body: example });
      assert.equal(res.status, path.includes('{') ? 404 : 201, `${operationId} ${method} ${url}: ${res.text.slice(0, 300)}`);
    }
  });

  it('a broken example would be caught: the validator refuses what the schema does not allow', () => {
    const decide = bodyOperations(docs['/admin/openapi.json']!).find((o) => o.operationId === 'decideCase')!;
    assert.match(String(decide.validate({ decision: 'maybe' })), /allowed values/);
    assert.match(String(decide.validate({ decision: 'approve', unknown: 1 })), /additional properties/);
  });
});
