import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Document, Spectral } from '@stoplight/spectral-core';
import spectralParsers, { type Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { startServer, type TestServer } from '../harness/server.js';
import { ROOT_URL } from '../harness/root.js';

// Both OpenAPI documents, as the running server serves them, through Redocly's `recommended` ruleset and
// Spectral's `spectral:oas`: no errors, and exactly the warnings docs/openapi.md lists (so the page stays true).

// The package is CommonJS: its parsers are members of the default export.
const { Json: JsonParser } = spectralParsers as unknown as { Json: typeof Json };
const DOC = new URL('docs/openapi.md', ROOT_URL);

/** The documented warnings: the rows `| linter | document | rule | where |` of docs/openapi.md's table. */
function documentedWarnings(): string[] {
  const text = readFileSync(DOC, 'utf8');
  const section = text.slice(text.indexOf('## Lint'));
  return [...section.matchAll(/^\| (Redocly|Spectral) \| `([^`]+)` \| `([^`]+)` \| `([^`]*)` \|/gm)].map((m) => `${m[1]} ${m[2]} ${m[3]} ${m[4]}`).sort();
}

describe('OpenAPI documents under Redocly (recommended) and Spectral (spectral:oas)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('pglite');
  });
  after(() => server?.close());

  it('report no errors, and only the warnings docs/openapi.md counts', async () => {
    const redocly = await createConfig({ extends: ['recommended'] });
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as never, 'recommended']] } as never);
    const errors: string[] = [];
    const warnings: string[] = [];
    for (const path of ['/openapi.json', '/admin/openapi.json']) {
      const text = await (await fetch(`${server.url}${path}`)).text();
      for (const p of await lintFromString({ source: text, absoluteRef: `file://${path}`, config: redocly })) {
        const line = `Redocly ${path} ${p.ruleId} ${p.location[0]?.pointer ?? ''}`;
        (p.severity === 'error' ? errors : warnings).push(p.severity === 'error' ? `${line}: ${p.message}` : line);
      }
      for (const r of await spectral.run(new Document(text, JsonParser, path))) {
        const line = `Spectral ${path} ${r.code} #/${r.path.join('/')}`;
        if (r.severity === 0) errors.push(`${line}: ${r.message}`);
        else if (r.severity === 1) warnings.push(line);
      }
    }
    assert.deepEqual(errors, []);
    assert.deepEqual(warnings.sort(), documentedWarnings(), 'the warnings are the ones docs/openapi.md lists');
  });
});
