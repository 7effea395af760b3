import assert from 'node:assert/strict';

/** Waits for an API read to satisfy `ok`, re-reading as soon as the previous read returned (no fixed sleeps). */
export async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}; last value: ${JSON.stringify(value).slice(0, 2000)}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
