import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ERROR_CODES } from '../src/domain/errors.js';
import { ROOT_URL } from './harness/root.js';

describe('documentation', () => {
  it('lists every error code with its status, and no code that does not exist', () => {
    const page = readFileSync(new URL('docs/errors.md', ROOT_URL), 'utf8');
    const documented = new Map([...page.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]));
    const actual = new Map(Object.entries(ERROR_CODES).map(([code, { status }]) => [code, status]));
    assert.deepEqual(documented, actual);
  });
});
