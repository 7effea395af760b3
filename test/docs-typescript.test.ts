import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { strictDiagnostics } from './harness/typecheck.js';
import { ROOT } from './harness/root.js';

/*
 * The TypeScript files of docs/quickstart.md type-check against the SDK as it is: test/process/quickstart.test.ts runs
 * them (tsx does not check types), this says a reader's editor shows no error in them either. Each is compiled where
 * a reader saves it, beside the repository, with the repository's strict settings.
 */

function tsBlocks(page: string): { name: string; body: string }[] {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const re = /<!-- quickstart:([\w.-]+\.ts):start -->\s*```ts\n([\s\S]*?)```\s*<!-- quickstart:\1:end -->/g;
  return [...text.matchAll(re)].map((m) => ({ name: m[1]!, body: m[2]! }));
}

describe('TypeScript in the docs', () => {
  it('every .ts file of docs/quickstart.md compiles under the strict settings, against the SDK', () => {
    const blocks = tsBlocks('docs/quickstart.md');
    assert.ok(blocks.length >= 3, `${blocks.length} files`);
    const dir = mkdtempSync(join(tmpdir(), 'quickstart-types-'));
    try {
      // An ES module package, as the repository is; the SDK's name points to its sources in the repository (what
      // its dist/ is built from), so the check does not depend on a build being current.
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
      const files = blocks.map(({ name, body }) => {
        const file = join(dir, name);
        writeFileSync(file, body.replace(/(['"])@integrator-api\/sdk\1/g, `$1${ROOT}packages/sdk/src/index.js$1`));
        return file;
      });
      const problems = strictDiagnostics(files, dir);
      assert.deepEqual(problems, []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
