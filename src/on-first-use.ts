import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/**
 * A library that only some deployments or some requests need, loaded the first time it is called for rather than at
 * start (issue 55). Every library loaded stays in the heap for good, and V8's full collections take longer the larger
 * the live heap is: undici, pinyin-pro and ioredis alone held 9 MB of an idle server's 72. Loading is synchronous
 * (require, which also loads an ES module), so a caller keeps its signature; the first call pays the load, once
 * per process (from under 20 ms to about 200 for undici). docs/deployment.md#memory lists what loads this way.
 */
export function onFirstUse<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireHere(specifier) as T);
}
