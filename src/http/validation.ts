import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldError } from '../domain/errors.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

function buildAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({
    // Report every bad field at once, so an integrator fixes a request in one round trip.
    allErrors: true,
    // Unknown fields are errors (additionalProperties: false), never silently dropped.
    removeAdditional: false,
    useDefaults: true,
    // JSON bodies are typed already: "1" is not a number. Query and path strings need coercion.
    coerceTypes: coerceTypes ? 'array' : false,
    strict: false,
    // maxLength counts UTF-16 units instead of walking code points: a 10 MiB document's data URL was scanned
    // character by character on every request. The limits are generous bounds, not exact counts.
    unicode: false,
    // Ajv calls that option deprecated but still honours it; only that notice is dropped.
    logger: {
      log: () => {},
      warn: (...args: unknown[]) => {
        if (!String(args[0]).startsWith('DEPRECATED: option unicode')) console.warn(...args);
      },
      error: (...args: unknown[]) => console.error(...args),
    },
  });
  addFormats(ajv);
  return ajv;
}

const bodyAjv = buildAjv(false);
const paramAjv = buildAjv(true);

/** Body schemas validate without coercion; querystring, params and headers coerce from strings. */
export const validatorCompiler: FastifySchemaCompiler<any> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : paramAjv;
  return ajv.compile(schema as object);
};

function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

const CODE_BY_KEYWORD: Record<string, string> = {
  required: 'required',
  additionalProperties: 'unknown_field',
  type: 'invalid_type',
  format: 'invalid_format',
  pattern: 'invalid_format',
  enum: 'invalid_value',
  const: 'invalid_value',
  minLength: 'too_short',
  maxLength: 'too_long',
  minItems: 'too_few_items',
  maxItems: 'too_many_items',
  minimum: 'out_of_range',
  maximum: 'out_of_range',
  exclusiveMinimum: 'out_of_range',
  exclusiveMaximum: 'out_of_range',
  minProperties: 'too_few_properties',
  maxProperties: 'too_many_properties',
  uniqueItems: 'duplicate_items',
};

function describe(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'enum':
      return `must be one of: ${(error.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ')}`;
    default:
      return error.message ?? 'is invalid';
  }
}

const PART: Record<string, FieldError['in']> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** Ajv errors as one entry per bad field, each located by JSON pointer. */
export function toFieldErrors(errors: ErrorObject[], dataVar: string): FieldError[] {
  const where = PART[dataVar] ?? 'body';
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const error of errors) {
    // anyOf/oneOf wrappers repeat what their branches already said.
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') continue;
    let pointer = error.instancePath;
    if (error.keyword === 'required') {
      pointer += `/${escapePointerToken((error.params as { missingProperty: string }).missingProperty)}`;
    } else if (error.keyword === 'additionalProperties') {
      pointer += `/${escapePointerToken((error.params as { additionalProperty: string }).additionalProperty)}`;
    }
    const code = CODE_BY_KEYWORD[error.keyword] ?? 'invalid';
    const dedupe = `${pointer}|${code}`;
    if (seen.has(dedupe)) continue;
    seen.add(dedupe);
    const label = pointer === '' ? (where === 'body' ? 'the body' : `the ${where}`) : pointer.slice(1);
    out.push({ pointer: pointer === '' ? '' : pointer, code, detail: `${label} ${describe(error)}`, in: where });
  }
  return out;
}
