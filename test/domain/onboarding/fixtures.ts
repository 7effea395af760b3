import assert from 'node:assert/strict';
import type { FieldError } from '../../../src/domain/errors.js';

/** A fixed "now" so ages and future dates do not drift with the calendar. */
export const NOW = new Date('2025-06-01T12:00:00Z');

export const usAddress = () => ({
  streetLine1: '1 Market St',
  streetLine2: 'Suite 300',
  city: 'San Francisco',
  state: 'US-CA',
  postalCode: '94105',
  country: 'USA',
});

export const deAddress = () => ({ streetLine1: 'Unter den Linden 5', city: 'Berlin', state: 'DE-BE', postalCode: '10115', country: 'DEU' });
export const gbAddress = () => ({ streetLine1: '10 Downing Street', city: 'London', state: null, postalCode: 'SW1A 2AA', country: 'GBR' });
export const jpAddress = () => ({ streetLine1: '1-1 Chiyoda', city: 'Chiyoda-ku', state: 'JP-13', postalCode: '100-0001', country: 'JPN' });

/** A US user in California with a valid SSN. */
export const usUser = () => ({
  firstName: 'Ada',
  middleName: null,
  lastName: 'Lovelace',
  email: 'ada.lovelace@example.com',
  phone: '+14155552671',
  birthDate: '1985-06-15',
  nationality: 'USA',
  countryOfBirth: 'USA',
  residentialAddress: usAddress(),
  socialSecurityNumber: '536-22-8741',
  profilePictureUrl: 'https://cdn.example.com/avatars/ada.png',
});

/** A German user in Berlin: no SSN. */
export const deUser = () => ({
  firstName: 'Karl',
  lastName: 'Weber',
  email: 'karl.weber@example.de',
  phone: '+4930123456',
  birthDate: '1990-01-31',
  nationality: 'DEU',
  countryOfBirth: 'DEU',
  residentialAddress: deAddress(),
});

/** Asserts the validator reported exactly one error, with this pointer and code, shaped as the API renders it. */
export function assertOnly(errors: FieldError[], pointer: string, code: string): void {
  assert.equal(errors.length, 1, `expected exactly one error (${code} at ${pointer}), got ${JSON.stringify(errors)}`);
  const [error] = errors as [FieldError];
  assert.equal(error.pointer, pointer);
  assert.equal(error.code, code);
  assert.equal(error.in, 'body');
  assert.ok(error.detail.startsWith(pointer.slice(1)), `detail names the field: ${error.detail}`);
}

export function assertValid(errors: FieldError[]): void {
  assert.deepEqual(errors, []);
}

/** A copy of `value` with the field at `path` replaced (or removed when `to` is undefined). */
export function withField<T>(value: T, path: readonly string[], to: unknown): T {
  const copy = structuredClone(value) as Record<string, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
  const last = path[path.length - 1] as string;
  if (to === undefined) delete target[last];
  else target[last] = to;
  return copy as T;
}
