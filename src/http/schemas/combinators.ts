import { Type, type Static, type TObject, type TSchema } from 'typebox';

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

/**
 * A request body's union of objects told apart by `tag` (a `Type.Literal` in each branch). Ajv picks the branch by
 * the tag (its `discriminator` keyword), so a bad member is reported once, by its own branch, instead of once per
 * branch; the tag is also declared as an enum of the branches' values, so a missing or unknown one is a single
 * `required` or `invalid_value` error at it (validation.ts drops the discriminator's own, which would repeat it).
 * openapi-components.ts writes the discriminator's mapping into the documents.
 */
export function Discriminated<T extends TObject[]>(tag: string, schemas: [...T], options: Record<string, unknown> = {}) {
  const values = schemas.map((schema) => (schema.properties[tag] as { const?: unknown } | undefined)?.const);
  if (values.some((v) => typeof v !== 'string')) throw new Error(`Discriminated: every branch needs a string literal at ${tag}`);
  return Type.Unsafe<Static<T[number]>>({
    ...options,
    type: 'object',
    required: [tag],
    properties: { [tag]: Type.Enum(values as string[], { type: 'string' }) },
    discriminator: { propertyName: tag },
    oneOf: schemas,
  });
}
