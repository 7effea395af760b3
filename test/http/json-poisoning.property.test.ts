import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import Fastify, { type FastifyRequest } from 'fastify';
import { ApiError } from '../../src/domain/errors.js';
import { parseJsonText } from '../../src/http/json-body.js';

/** Fastify's own safe JSON parser (secure-json-parse), refusing both kinds of poisoning: what the API refused before. */
const reference = Fastify().getDefaultJsonParser('error', 'error');
function referenceRefuses(text: string): boolean {
  let refused = false;
  reference({} as FastifyRequest, text, (err) => {
    refused = err !== null && err !== undefined;
  });
  return refused;
}

/** Each character of a key as itself, or as a JSON escape with lower- or upper-case hex digits. */
const spelled = (key: string) =>
  fc.array(fc.constantFrom('plain', 'lower', 'upper'), { minLength: key.length, maxLength: key.length }).map((ways) =>
    [...key]
      .map((c, i) => {
        const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
        return ways[i] === 'plain' ? c : `\\u${ways[i] === 'upper' ? hex.toUpperCase() : hex}`;
      })
      .join(''),
  );
const key = fc.constantFrom('__proto__', 'constructor', 'prototype', 'a', 'b').chain(spelled);
// JSON text built directly, so keys can be spelled with escapes and repeat in one object (the last one counts).
const text = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constantFrom('1', '"x"', 'null', '{}', '[]'), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
  member: fc.tuple(key, tie('value')).map(([k, v]) => `"${k}":${v as string}`),
  object: fc.array(tie('member'), { maxLength: 4 }).map((members) => `{${members.join(',')}}`),
})).value as fc.Arbitrary<string>;

function refused(text: string): boolean {
  try {
    parseJsonText(text);
    return false;
  } catch (err) {
    assert.ok(err instanceof ApiError && err.code === 'validation_failed', String(err));
    assert.ok(err.options.errors?.every((e) => e.code === 'forbidden_field_name'));
    return true;
  }
}

describe('parseJsonText and prototype-poisoning keys', () => {
  it('refuses exactly what Fastify’s safe parser refuses, however the keys are spelled', () => {
    fc.assert(
      fc.property(text, (body) => {
        assert.equal(refused(body), referenceRefuses(body), body);
        if (!referenceRefuses(body)) assert.deepEqual(parseJsonText(body), JSON.parse(body));
      }),
      { numRuns: 3000 },
    );
  });

  it('names each refused key by pointer, escapes in the pointer included', () => {
    try {
      parseJsonText('{"a/b":{"__proto__":1},"x":[0,{"constructor":{"prototype":null}}],"c~":{"constructor":{"prototype":1}}}');
      assert.fail('accepted');
    } catch (err) {
      assert.ok(err instanceof ApiError);
      assert.deepEqual(
        err.options.errors?.map((e) => e.pointer),
        ['/a~1b/__proto__', '/x/1/constructor', '/c~0/constructor'],
      );
    }
    // A constructor that holds no object, or one without its own prototype, is an ordinary field.
    assert.deepEqual(parseJsonText('{"constructor":{"name":"x"},"list":[{"constructor":1}]}'), { constructor: { name: 'x' }, list: [{ constructor: 1 }] });
  });
});
