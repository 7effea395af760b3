import assert from 'node:assert/strict';
import type { ApiResponse } from './client.js';
import type { FieldError } from './types.js';

/** A problem answer's field errors as [pointer, code] pairs, in its order. */
export const errorPairs = (res: ApiResponse): [string, string][] => ((res.body?.errors ?? []) as FieldError[]).map((e) => [e.pointer, e.code]);

/**
 * `res` is a 400 whose field errors are exactly `expected`, in the answer's order (`sorted`: sorted first, where the
 * order is not what the test is about). The status's message carries the answer's start (a refused document's is long).
 */
export function assertFieldErrors(res: ApiResponse, expected: [string, string][], options: { sorted?: boolean } = {}): void {
  assert.equal(res.status, 400, res.text.slice(0, 1000));
  const pairs = errorPairs(res);
  assert.deepEqual(options.sorted ? pairs.sort() : pairs, expected);
}
