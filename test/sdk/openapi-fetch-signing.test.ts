import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { after, before, describe, it } from 'node:test';
import { strictDiagnostics } from '../harness/typecheck.js';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';
import { ROOT } from '../harness/root.js';

/*
 * The openapi-fetch middleware of docs/sdk.md, taken from the page as written: it type-checks strictly with the
 * SDK's generated `paths`, and signs a GET with a query and a POST with a body (non-ASCII, so a signature over
 * anything but the bytes sent would fail) that the real server accepts.
 */
const SDK_SOURCE = join(ROOT, 'packages/sdk/src/index.js');

function snippet(): string {
  const text = readFileSync(join(ROOT, 'docs/sdk.md'), 'utf8');
  const m = /<!-- sdk:openapi-fetch-signing:start -->\s*```ts\n([\s\S]*?)```\s*<!-- sdk:openapi-fetch-signing:end -->/.exec(text);
  assert.ok(m, 'docs/sdk.md has the openapi-fetch-signing block');
  return m[1]!;
}

// What a reader writes next to it: the calls, typed by the generated paths.
const USE = `import { api } from './signing.js';
export const whoami = () => api.GET('/v1/integrator/whoami');
export const events = () => api.GET('/v1/events', { params: { query: { limit: 2 } } });
export const createKey = (label: string) =>
  api.POST('/v1/integrator/credentials', { body: { label, scope: 'read_only' }, params: { header: { 'idempotency-key': crypto.randomUUID() } } });
export const listKeys = () => api.GET('/v1/integrator/credentials');
`;

describe('docs/sdk.md: signing openapi-fetch requests with the SDK signer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-fetch-signing-'));
  let server: TestServer;
  let acme: SeededIntegrator;
  const block = snippet();

  before(async () => {
    // A project beside the repository: its packages are the repository's, the SDK's name points to its sources.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(join(dir, 'signing.ts'), `${block.replace(/(['"])@integrator-api\/sdk\1/g, `$1${SDK_SOURCE}$1`)}export { api };\n`);
    writeFileSync(join(dir, 'use.ts'), USE);
    server = await startServer('pglite');
    acme = await server.seedIntegrator('Acme');
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the middleware is at most ten lines', () => {
    const m = /const signing: Middleware = \{\n[\s\S]*?\n\};\n/.exec(block);
    assert.ok(m, 'a `const signing: Middleware` object');
    assert.ok(m[0].trimEnd().split('\n').length <= 10, m[0]);
  });

  it('type-checks under the strict settings against the generated paths', () => {
    const files = [join(dir, 'signing.ts'), join(dir, 'use.ts')];
    const problems = strictDiagnostics(files, dir, { exactOptionalPropertyTypes: true });
    assert.deepEqual(problems, []);
  });

  it('signs a GET with a query and a POST with a body, which the server accepts', async () => {
    // The block reads its key and base URL from the environment when it is loaded, as a reader's program does.
    process.env.INTEGRATOR_PRIVATE_KEY = acme.privateKey;
    process.env.INTEGRATOR_BASE_URL = server.url;
    // Through tsx, as a reader runs a TypeScript program (the test itself runs compiled, without a loader).
    const use = (await tsImport(pathToFileURL(join(dir, 'use.ts')).href, import.meta.url)) as {
      whoami(): Promise<{ data?: { integratorId: string }; response: Response }>;
      events(): Promise<{ data?: unknown; response: Response }>;
      createKey(label: string): Promise<{ data?: { credential: { label: string } }; error?: unknown; response: Response }>;
      listKeys(): Promise<{ data?: { credentials: { label: string }[] }; response: Response }>;
    };
    const me = await use.whoami();
    assert.equal(me.response.status, 200);
    assert.equal(me.data?.integratorId, acme.integratorId);
    assert.equal((await use.events()).response.status, 200);

    const label = 'Zürich — clé « openapi-fetch » ✓';
    const created = await use.createKey(label);
    assert.equal(created.response.status, 201, JSON.stringify(created.error));
    assert.equal(created.data?.credential.label, label);
    const listed = await use.listKeys();
    assert.ok(listed.data?.credentials.some((c) => c.label === label));
  });
});
