import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { ROOT } from '../harness/root.js';


// `npm start` and `npm run worker` build through scripts/build-if-stale.mjs: an unchanged tree starts at once.
describe('build-if-stale', () => {
  it('finds dist/ up to date right after npm test built it, and builds nothing', { skip: process.env.INTEGRATOR_TEST_DIST !== '1' && 'run by npm test, after its build' }, () => {
    const run = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr.trim(), 'build: dist/ is up to date');
  });
});
