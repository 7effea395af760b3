import { Type, type Static, type TSchema } from 'typebox';

/**
 * `oneOf` of the given schemas. TypeBox's Union writes `anyOf`; a union whose branches exclude each other (a `type`
 * const in each) is a `oneOf` in OpenAPI, where openapi-components.ts adds the discriminator. The serializer
 * (fast-json-stringify) picks the branch the value matches.
 */
export function OneOf<T extends TSchema[]>(schemas: [...T], options: Record<string, unknown> = {}) {
  return Type.Unsafe<Static<T[number]>>({ ...options, oneOf: schemas });
}

/**
 * The "exactly one of these fields" rule of an object schema, spread into its options:
 * `Type.Object({ a: Type.Optional(..), b: Type.Optional(..) }, { ...exactlyOneOf('a', 'b') })`.
 *
 * Each branch requires its field and forbids the others (a `false` schema), so Ajv names the fields in its errors
 * (validation.ts turns them into one clear field error) and generated SDK types become a union
 * (`{ a: string; b?: never } | { a?: never; b: string }`).
 */
export function exactlyOneOf(...fields: string[]): { oneOf: Record<string, unknown>[] } {
  if (fields.length < 2) throw new Error('exactlyOneOf needs two fields or more');
  return {
    oneOf: fields.map((field) => ({
      required: [field],
      properties: Object.fromEntries(fields.filter((other) => other !== field).map((other) => [other, false])),
    })),
  };
}
