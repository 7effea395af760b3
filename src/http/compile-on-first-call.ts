/**
 * Route schemas compiled at their first call rather than when the route registers: Fastify compiles an Ajv validator
 * for each route's body, query, path and headers and a fast-json-stringify serializer for each of its answers, some
 * hundreds of generated functions, most for routes a given process never serves. Deferred, a process keeps only
 * those its requests use (docs/deployment.md#memory). Used by validation.ts and serializer-cache.ts.
 */

/** Compilations not run yet: what compileEverySchema() runs. */
const pending = new Set<() => unknown>();

/** A getter that runs `compile` at its first call and returns that result from then on. */
export function compiledOnFirstCall<T>(compile: () => T): () => T {
  let compiled: { value: T } | undefined;
  const get = (): T => {
    if (!compiled) {
      compiled = { value: compile() };
      pending.delete(get);
    }
    return compiled.value;
  };
  pending.add(get);
  return get;
}

/**
 * Compiles every schema registered and not called yet, and says how many: test/http/schemas-compile.test.ts, so that
 * a schema Ajv or fast-json-stringify refuses fails a test rather than a route's first request.
 */
export function compileEverySchema(): number {
  const all = [...pending];
  for (const get of all) get();
  return all.length;
}
