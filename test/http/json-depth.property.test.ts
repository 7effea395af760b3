import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../src/http/json-body.js';

/** Nesting depth of a parsed value: arrays and objects count one level each, scalars none. */
function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (value && typeof value === 'object') return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

// Strings full of what could fool a scanner: brackets, quotes and backslashes, escaped by JSON.stringify.
const tricky = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ' ', '\u0000', 'é') });
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tricky, fc.integer(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(tricky, tie('value'), { maxKeys: 4 }),
})).value;

describe('jsonDepthExceeds', () => {
  it('agrees with the depth of the parsed value, whatever the strings inside hold', () => {
    fc.assert(
      fc.property(json, fc.integer({ min: 0, max: 8 }), fc.boolean(), (value, limit, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        assert.equal(jsonDepthExceeds(text, limit), depthOf(JSON.parse(text)) > limit, text);
      }),
      { numRuns: 2000 },
    );
  });

  it('measures deep nesting without recursion, and ignores brackets inside strings', () => {
    assert.equal(jsonDepthExceeds(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, MAX_JSON_DEPTH), true);
    assert.equal(jsonDepthExceeds(`{"a":"${'['.repeat(100_000)}"}`, MAX_JSON_DEPTH), false);
    assert.equal(jsonDepthExceeds(`{"a":"\\\\"}`, 0), true, 'an escaped backslash does not escape the closing quote');
    assert.equal(jsonDepthExceeds(`"\\"[[["`, 0), false, 'an escaped quote does not end the string');
  });
});
