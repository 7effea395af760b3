import type { FieldError } from '../../errors.js';

/**
 * Shared plumbing of the semantic validators. Inputs are parsed JSON of roughly the right shape, but
 * nothing here trusts that: wrong types become `invalid_type` errors, and no submitted value is ever
 * interpolated into a message (a value may be PII, and a null-prototype object would throw on String()).
 * Every free-text string also rejects control characters (`invalid_characters`), see below.
 */

// The validators' pointers: the server's one escaping (domain/json-pointer.ts).
export { joinPointer } from '../../json-pointer.js';

/** The field's name as shown in details, same convention as the HTTP layer: the pointer without its leading "/". */
export function label(pointer: string): string {
  return pointer === '' ? 'the body' : pointer.slice(1);
}

export function fieldError(pointer: string, code: string, detail: string): FieldError {
  return { pointer, code, detail: `${label(pointer)} ${detail}`, in: 'body' };
}

export type JsonObject = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own properties only: an inherited member (e.g. `constructor`) is never a submitted field. */
export function own(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

export function isBlank(value: string): boolean {
  return value.trim() === '';
}

// Control characters other than tab, LF and CR, and unpaired UTF-16 surrogates. None belongs in a name,
// an address or a description; PostgreSQL text cannot store NUL at all, and a lone surrogate would be
// silently replaced on the way to the database, so what is stored would differ from what was checked.
const UNSTORABLE = /\p{Cs}|(?![\t\n\r])\p{Cc}/u;

export function hasUnstorableCharacters(value: string): boolean {
  return UNSTORABLE.test(value);
}

/** Free text that must not be blank (`required`) nor hold unstorable characters (`invalid_characters`). */
export function checkText(value: string, pointer: string, errors: FieldError[]): boolean {
  if (isBlank(value)) errors.push(fieldError(pointer, 'required', 'is required and must not be blank'));
  else if (hasUnstorableCharacters(value)) errors.push(fieldError(pointer, 'invalid_characters', 'must not contain control characters'));
  else return true;
  return false;
}

/** undefined and null both mean "not given": the spec's nullable fields use null for absence. */
export function isAbsent(value: unknown): value is null | undefined {
  return value === undefined || value === null;
}

/**
 * Checks that a value is an object; reports `required` when absent and `invalid_type` otherwise.
 * Returns the object, or undefined after pushing an error.
 */
export function objectField(value: unknown, pointer: string, errors: FieldError[]): JsonObject | undefined {
  if (isRecord(value)) return value;
  errors.push(isAbsent(value) ? fieldError(pointer, 'required', 'is required') : fieldError(pointer, 'invalid_type', 'must be an object'));
  return undefined;
}

/**
 * A string that must be given and not blank (`required`), or the given-but-wrong-type case (`invalid_type`).
 * Returns the string, or undefined after pushing an error.
 */
export function requiredString(value: unknown, pointer: string, errors: FieldError[]): string | undefined {
  if (typeof value === 'string') return checkText(value, pointer, errors) ? value : undefined;
  if (isAbsent(value)) errors.push(fieldError(pointer, 'required', 'is required and must not be blank'));
  else errors.push(fieldError(pointer, 'invalid_type', 'must be a string'));
  return undefined;
}

/**
 * An optional string: absent is fine, any other non-string is `invalid_type`, unstorable characters are
 * `invalid_characters`. Returns the string (possibly blank) when it passed, for further format checks.
 */
export function optionalString(value: unknown, pointer: string, errors: FieldError[]): string | undefined {
  if (typeof value === 'string') {
    if (!hasUnstorableCharacters(value)) return value;
    errors.push(fieldError(pointer, 'invalid_characters', 'must not contain control characters'));
  } else if (!isAbsent(value)) {
    errors.push(fieldError(pointer, 'invalid_type', 'must be a string'));
  }
  return undefined;
}

/** An optional boolean: absent is fine, anything else but a boolean is `invalid_type`. */
export function optionalBoolean(value: unknown, pointer: string, errors: FieldError[]): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (!isAbsent(value)) errors.push(fieldError(pointer, 'invalid_type', 'must be a boolean'));
  return undefined;
}

/**
 * A value from a published list (`invalid_value` naming the list when it is short enough to read).
 * `required` decides whether absence is an error. Returns the value when it is allowed.
 */
export function enumField<T extends string>(
  value: unknown,
  pointer: string,
  allowed: readonly T[],
  errors: FieldError[],
  options: { required: boolean; describe?: string },
): T | undefined {
  if (isAbsent(value)) {
    if (options.required) errors.push(fieldError(pointer, 'required', 'is required'));
    return undefined;
  }
  if (typeof value !== 'string') {
    errors.push(fieldError(pointer, 'invalid_type', 'must be a string'));
    return undefined;
  }
  if ((allowed as readonly string[]).includes(value)) return value as T;
  errors.push(fieldError(pointer, 'invalid_value', `must be ${options.describe ?? `one of: ${allowed.join(', ')}`}`));
  return undefined;
}
