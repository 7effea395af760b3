import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { API_VERSION } from '../src/version.js';
import { ROOT_URL } from './harness/root.js';

const read = (path: string) => readFileSync(new URL(path, ROOT_URL), 'utf8');

// docs/versioning.md: the API, its document, every event's apiVersion and the SDK share one version, and the
// changelog has a section for it.
describe('versioning', () => {
  it('the SDK package and the server carry the API version, and the CHANGELOG has its section', () => {
    assert.equal((JSON.parse(read('packages/sdk/package.json')) as { version: string }).version, API_VERSION, 'the SDK is versioned with the API');
    assert.equal((JSON.parse(read('package.json')) as { version: string }).version, API_VERSION);
    const changelog = read('CHANGELOG.md');
    assert.match(changelog, new RegExp(`^## ${API_VERSION.replace(/\./g, '\\.')}\\b`, 'm'), 'a CHANGELOG section for the current version');
    const sections = [...changelog.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
    assert.deepEqual(
      sections.filter((s) => !['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Breaking', 'Operators'].includes(s!)),
      [],
      'only the sections docs/versioning.md names',
    );
    assert.match(read('docs/versioning.md'), /at least six months/);
  });
});
