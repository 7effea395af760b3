import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldError } from '../domain/errors.js';
import { UUID_PATTERN } from '../domain/ids.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/**
 * The instants every stored date must fall between: PostgreSQL's date and timestamptz refuse year 0000 (there is
 * no year zero) and JavaScript's Date, which carries every value to the database, only writes years 0001-9999 as
 * plain ISO text. One range for every date and date-time field of both documents, checked on the instant (an
 * offset cannot carry 0001-01-01T00:00:00+01:00 into year 0000) as well as on the digits written.
 */
const EARLIEST = new Date('0001-01-01T00:00:00.000Z').getTime();
const LATEST = new Date('9999-12-31T23:59:59.999Z').getTime();

const inStorableRange = (text: string): boolean => {
  if (!/^\d{4}-/.test(text) || text.startsWith('0000')) return false;
  const at = Date.parse(text);
  return !Number.isNaN(at) && at >= EARLIEST && at <= LATEST;
};

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
  // RFC 3339 syntax as ajv-formats checks it, and a value PostgreSQL and Date can both hold (the leap second
  // 23:59:60, which Date cannot parse, included in what is refused).
  const syntax = fullFormats as unknown as Record<'date' | 'date-time', { validate: (s: string) => boolean }>;
  ajv.addFormat('date-time', { type: 'string', validate: (s: string) => syntax['date-time'].validate(s) && inStorableRange(s) });
  // ajv-formats also takes urn:uuid:…, which PostgreSQL's uuid type refuses: the plain 8-4-4-4-12 form only.
  ajv.addFormat('uuid', UUID_PATTERN);
  ajv.addFormat('date', { type: 'string', validate: (s: string) => syntax.date.validate(s) && inStorableRange(`${s}T00:00:00Z`) });
  return ajv;
}

const bodyAjv = buildAjv(false);
const paramAjv = buildAjv(true);

/**
 * PostgreSQL cannot hold U+0000 in text, and no parameter has a use for it: every query, path and header value
 * (and name) holding one is refused by name before the schema or a handler sees it. Bodies get the same check
 * in json-body.ts.
 */
function nulErrors(data: unknown): ErrorObject[] {
  if (!data || typeof data !== 'object') return [];
  const errors: ErrorObject[] = [];
  for (const [name, value] of Object.entries(data as Record<string, unknown>)) {
    const values = Array.isArray(value) ? value : [value];
    if (name.includes('\u0000') || values.some((v) => typeof v === 'string' && v.includes('\u0000'))) {
      errors.push({ keyword: 'invalidCharacters', instancePath: `/${escapePointerToken(name)}`, schemaPath: '#', params: {}, message: 'contains a NUL character' });
    }
  }
  return errors;
}

type FastifyValidator = ((data: unknown, context?: unknown) => boolean) & { errors?: ErrorObject[] | null; schemaEnv?: unknown };

/** Query, path and header validation: the NUL check first, then the schema (whose errors at the same fields are dropped). */
function withNulCheck(validate: ValidateFunction): FastifyValidator {
  const wrapped: FastifyValidator = (data, context) => {
    const nul = nulErrors(data);
    const valid = (validate as unknown as FastifyValidator)(data, context);
    if (nul.length === 0) {
      wrapped.errors = validate.errors ?? null;
      return valid;
    }
    const bad = new Set(nul.map((e) => e.instancePath));
    const field = (e: ErrorObject) => {
      const extra = (e.params as { additionalProperty?: unknown }).additionalProperty;
      const top = e.instancePath === '' && typeof extra === 'string' ? `/${escapePointerToken(extra)}` : e.instancePath;
      return `/${top.split('/')[1] ?? ''}`;
    };
    const rest = (validate.errors ?? []).filter((e) => !bad.has(field(e)));
    wrapped.errors = [...nul, ...rest];
    return false;
  };
  // Fastify hands Ajv the request as parent so that coercion of a whole part can replace it.
  wrapped.schemaEnv = (validate as unknown as { schemaEnv: unknown }).schemaEnv;
  return wrapped;
}

/** Body schemas validate without coercion; querystring, params and headers coerce from strings. */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (httpPart === 'body') return bodyAjv.compile(schema as object);
  return withNulCheck(paramAjv.compile(schema as object));
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
  invalidCharacters: 'invalid_characters',
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
