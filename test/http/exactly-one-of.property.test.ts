import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { ErrorObject } from 'ajv';
import { Type } from 'typebox';
import { exactlyOneOf } from '../../src/http/schemas/combinators.js';
import { toFieldErrors, validatorCompiler } from '../../src/http/validation.js';

// "Exactly one of" as a oneOf (combinators.ts), and the one clear error per field it becomes (validation.ts).
const FIELDS = ['alpha', 'beta', 'gamma/x'] as const;
const pointer = (name: string) => `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;

const schemaOf = (fields: readonly string[]) =>
  Type.Object(
    { other: Type.Optional(Type.Integer()), ...Object.fromEntries(fields.map((f) => [f, Type.Optional(Type.String())])) },
    { additionalProperties: false, ...exactlyOneOf(...fields) },
  );

type Validate = ((d: unknown) => boolean) & { errors?: ErrorObject[] | null };
const compiled = new Map<string, Validate>();

function check(fields: readonly string[], body: Record<string, unknown>) {
  const key = fields.join(',');
  if (!compiled.has(key)) compiled.set(key, validatorCompiler({ schema: schemaOf(fields), httpPart: 'body', method: 'POST', url: '/' }) as Validate);
  const validate = compiled.get(key)!;
  const ok = validate(body);
  return { ok, errors: ok ? [] : toFieldErrors(validate.errors ?? [], 'body') };
}

describe('exactlyOneOf', () => {
  it('accepts exactly one field; names the first when none is given and each one given when several are', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 3 }),
        fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        fc.option(fc.oneof(fc.integer(), fc.string()), { nil: undefined }),
        (count, present, other) => {
          const fields = FIELDS.slice(0, count);
          const given = fields.filter((_, i) => present[i]);
          const body: Record<string, unknown> = Object.fromEntries(given.map((f) => [f, 'x']));
          if (other !== undefined) body.other = other;
          const { ok, errors } = check(fields, body);
          const otherBad = other !== undefined && typeof other !== 'number';
          assert.equal(ok, given.length === 1 && !otherBad);
          const mine = errors.filter((e) => e.pointer !== '/other');
          if (given.length === 0) {
            assert.deepEqual(mine.map((e) => [e.pointer, e.code]), [[pointer(fields[0]!), 'required']]);
            assert.equal(mine[0]!.detail, `${fields[0]} is required: give exactly one of ${fields.length === 2 ? fields.join(' and ') : `${fields.slice(0, -1).join(', ')} and ${fields.at(-1)}`}`);
          } else if (given.length > 1) {
            assert.deepEqual(mine.map((e) => [e.pointer, e.code]), given.map((f) => [pointer(f), 'not_allowed']));
            for (const e of mine) assert.match(e.detail, /cannot be given with .*: give exactly one of/);
          } else {
            assert.deepEqual(mine, []);
          }
          assert.equal(errors.filter((e) => e.pointer === '/other').length, otherBad ? 1 : 0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('needs two fields', () => {
    assert.throws(() => exactlyOneOf('alone'), /two fields/);
  });
});
