import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ROOT_URL } from '../harness/root.js';

const ROOT = fileURLToPath(ROOT_URL);

/**
 * undici is loaded with the first webhook sent (src/on-first-use.ts, docs/deployment.md#memory), in a fresh process
 * that imports the sender as the worker does: a static import of it anywhere on that path would show here (the lint
 * rule in eslint.config.js refuses one in src/). A deadline is not asserted: the first request through a new agent
 * also pays undici's own first-use work, and under load both take hundreds of milliseconds.
 */
describe('a library loaded on first use', () => {
  it('undici: not loaded until the first webhook, then delivered', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'test/process/fixtures/first-webhook.ts'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout.trim().split('\n').at(-1)!), { before: false, after: true, kind: 'delivered' });
  });
});
