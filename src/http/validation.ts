import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldError } from '../domain/errors.js';
import { UUID_PATTERN } from '../domain/ids.js';
import { joinPointer, unescapePointerToken } from '../domain/json-pointer.js';
import { patternSentence } from './schemas/patterns.js';
import { compiledOnFirstCall } from './compile-on-first-call.js';

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
    // A union keyed on a tag (combinators.ts Discriminated) is checked against its tag's branch only.
    discriminator: true,
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
      errors.push({ keyword: 'invalidCharacters', instancePath: joinPointer('', name), schemaPath: '#', params: {}, message: 'contains a NUL character' });
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
      const top = e.instancePath === '' && typeof extra === 'string' ? joinPointer('', extra) : e.instancePath;
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

/**
 * Body schemas validate without coercion; querystring, params and headers coerce from strings. Each is compiled at
 * its first call (compile-on-first-call.ts).
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const compiled = compiledOnFirstCall(
    (): FastifyValidator => (httpPart === 'body' ? (bodyAjv.compile(schema as object) as unknown as FastifyValidator) : withNulCheck(paramAjv.compile(schema as object))),
  );
  const validate: FastifyValidator = (data, context) => {
    const fn = compiled();
    const valid = fn(data, context);
    validate.errors = fn.errors ?? null;
    return valid;
  };
  // Fastify reads schemaEnv before each call to decide whether to pass the request as the value's parent (for
  // coercion of a whole part): reading it compiles, so the first call gets it too.
  Object.defineProperty(validate, 'schemaEnv', { get: () => compiled().schemaEnv });
  return validate;
};


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
  exactlyOneOf: 'not_allowed',
};

/** The formats the documents use, said in words (Ajv says `must match format "uuid"`). */
const FORMAT_SENTENCES: Record<string, string> = {
  uuid: 'must be a UUID, such as "0190a4e2-5b7c-7d1e-8f00-1a2b3c4d5e6f"',
  'date-time': 'must be a date and time in RFC 3339 form between the years 0001 and 9999, such as "2024-05-01T12:00:00Z"',
  date: 'must be a date in YYYY-MM-DD form between the years 0001 and 9999, such as "1990-01-31"',
};

function describe(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      {
        const group = (error.params as { exactlyOneOf?: string[] }).exactlyOneOf;
        return group ? `is required: give exactly one of ${list(group)}` : 'is required';
      }
    case 'exactlyOneOf':
      return error.message ?? 'cannot be given with the others';
    case 'additionalProperties':
      return 'is not a known field';
    case 'enum':
      return `must be one of: ${(error.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ')}`;
    // Ajv's own text quotes the regular expression; an integrator reads what is expected instead (schemas/patterns.ts).
    case 'pattern':
      return patternSentence((error.params as { pattern: string }).pattern) ?? 'is not in the expected format';
    case 'format':
      return FORMAT_SENTENCES[(error.params as { format: string }).format] ?? 'is not in the expected format';
    default:
      return error.message ?? 'is invalid';
  }
}

const PART: Record<string, FieldError['in']> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

const list = (names: string[]) => (names.length <= 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

/**
 * The errors of a failed "exactly one of" group (combinators.ts exactlyOneOf), read from Ajv's own errors: each
 * branch requires its field (a `required` error names a missing one) and forbids the others (a `false schema`
 * error at a given one). Returns the branch errors it explains and what to report instead: `required` at the first
 * field when none is given, `not_allowed` at each given field when several are. Undefined for any other oneOf.
 */
function exactlyOneOfGroup(group: ErrorObject, errors: ErrorObject[]): { explained: Set<ErrorObject>; replacement: ErrorObject[] } | undefined {
  if ((group.params as { passingSchemas?: unknown }).passingSchemas !== null) return undefined;
  const prefix = `${group.schemaPath}/`;
  const branch = errors.filter((e) => e.schemaPath.startsWith(prefix));
  if (branch.length === 0) return undefined;
  // Each field's own branch: where it is required, or (a given field) the one branch that does not forbid it.
  const missingIn = new Map<string, number>();
  const forbiddenIn = new Map<string, Set<number>>();
  const branches = new Set<number>();
  for (const e of branch) {
    const rest = e.schemaPath.slice(prefix.length);
    const index = Number(rest.split('/')[0]);
    const forbidden = /^\d+\/properties\/([^/]+)\/false schema$/.exec(rest);
    branches.add(index);
    if (e.keyword === 'required' && /^\d+\/required$/.test(rest) && e.instancePath === group.instancePath) {
      missingIn.set((e.params as { missingProperty: string }).missingProperty, index);
    } else if (e.keyword === 'false schema' && forbidden) {
      const name = unescapePointerToken(forbidden[1]!);
      if (e.instancePath !== joinPointer(group.instancePath, name)) return undefined;
      forbiddenIn.set(name, (forbiddenIn.get(name) ?? new Set()).add(index));
    } else {
      return undefined;
    }
  }
  const ownBranch = (name: string) => missingIn.get(name) ?? [...branches].find((i) => !forbiddenIn.get(name)!.has(i)) ?? branches.size;
  const byBranch = (names: Iterable<string>) => [...names].sort((a, b) => ownBranch(a) - ownBranch(b));
  const given = byBranch(forbiddenIn.keys());
  const names = byBranch(new Set([...missingIn.keys(), ...given]));
  const at = (name: string) => joinPointer(group.instancePath, name);
  const replacement: ErrorObject[] =
    given.length === 0
      ? [{ keyword: 'required', instancePath: group.instancePath, schemaPath: group.schemaPath, params: { missingProperty: names[0], exactlyOneOf: names } }]
      : given.map((name) => ({
          keyword: 'exactlyOneOf',
          instancePath: at(name),
          schemaPath: group.schemaPath,
          params: {},
          message: `cannot be given with ${list(given.filter((g) => g !== name))}: give exactly one of ${list(names)}`,
        }));
  return { explained: new Set(branch), replacement };
}

/** Ajv errors as one entry per bad field, each located by JSON pointer. */
export function toFieldErrors(ajvErrors: ErrorObject[], dataVar: string): FieldError[] {
  const where = PART[dataVar] ?? 'body';
  const seen = new Set<string>();
  const out: FieldError[] = [];
  // "Exactly one of" groups become one clear error each, in place of their branches' errors.
  const explained = new Set<ErrorObject>();
  const errors = ajvErrors.flatMap((error) => {
    if (error.keyword !== 'oneOf') return [error];
    const group = exactlyOneOfGroup(error, ajvErrors);
    if (!group) return [error];
    group.explained.forEach((e) => explained.add(e));
    return group.replacement;
  });
  for (const error of errors) {
    if (explained.has(error)) continue;
    // anyOf/oneOf wrappers repeat what their branches already said; a discriminator's, what its tag's enum said.
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if' || error.keyword === 'discriminator') continue;
    let pointer = error.instancePath;
    if (error.keyword === 'required') {
      pointer = joinPointer(pointer, (error.params as { missingProperty: string }).missingProperty);
    } else if (error.keyword === 'additionalProperties') {
      pointer = joinPointer(pointer, (error.params as { additionalProperty: string }).additionalProperty);
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
