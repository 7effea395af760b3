import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERROR_CODES, type ErrorCode } from '../../src/domain/errors.js';
import { openApiDocument } from '../../scripts/generate-sdk.js';

interface Example {
  type: string;
  title: string;
  status: number;
  code: ErrorCode;
  detail: string;
  requestId: string;
}

interface Media {
  schema?: { $ref?: string };
  examples?: Record<string, { $ref: string }>;
}

// Every error response of the document shows a typical problem for its status (the /docs page renders it), and the
// example is what the server would send: a real code of that status, its title and type.
describe('error examples in the OpenAPI document', () => {
  it('every problem response carries an example of its own status, code, title and type', async () => {
    const doc = (await openApiDocument()) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, Media> }> }>>;
      components: { examples: Record<string, { value: Example }> };
    };
    let seen = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          const media = response.content?.['application/problem+json'];
          if (!media) continue;
          const [name, ref] = Object.entries(media.examples ?? {})[0] ?? [];
          assert.ok(ref, `${method.toUpperCase()} ${path} ${status} has an example`);
          const example = doc.components.examples[ref.$ref.replace('#/components/examples/', '')]!.value;
          assert.equal(name, example.code, 'named by its code');
          assert.equal(example.status, Number(status));
          assert.equal(ERROR_CODES[example.code].status, Number(status), `${example.code} is a ${status}`);
          assert.equal(example.title, ERROR_CODES[example.code].title);
          assert.equal(example.type, `/problems/${example.code}`);
          assert.match(example.requestId, /^req_/);
          seen++;
        }
      }
    }
    assert.ok(seen > 200, `${seen} problem responses`);
  });
});
