import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapePointerToken, joinPointer, unescapePointerToken } from '../../src/domain/json-pointer.js';

test('joinPointer escapes ~ before / (RFC 6901), and unescaping gives the token back', () => {
  assert.equal(joinPointer('', 'a/b', '~c', 0), '/a~1b/~0c/0');
  assert.equal(joinPointer('/httpHeaders', 'X~/1'), '/httpHeaders/X~0~11');
  for (const token of ['~1', '/~0', 'plain', '', '~~//']) assert.equal(unescapePointerToken(escapePointerToken(token)), token);
});
