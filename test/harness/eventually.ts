import assert from 'node:assert/strict';

/**
 * Waits for an API read to satisfy `ok`, re-reading as soon as the previous read returned (no fixed sleeps).
 * When `ok` is a type guard, the value returned has its type.
 */
export async function eventually<T, Ready extends T>(read: () => Promise<T>, ok: (value: T) => value is Ready, what: string, timeoutMs?: number): Promise<Ready>;
export async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs?: number): Promise<T>;
export async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}; last value: ${JSON.stringify(value).slice(0, 2000)}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
