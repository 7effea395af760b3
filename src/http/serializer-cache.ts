import { createHash } from 'node:crypto';
import fastJsonStringify, { type Options } from 'fast-json-stringify';
import { compiledOnFirstCall } from './compile-on-first-call.js';

type Serialize = (doc: unknown) => string;
/** What Fastify passes for each route and status (its own type is not exported beyond its compiler package). */
interface RouteDefinition {
  schema?: unknown;
}

/**
 * Fastify's serializer builder (compilersFactory.buildSerializer), as its default (@fastify/fast-json-stringify-
 * compiler) but remembering what it compiled for the life of the process. Fastify compiles a fast-json-stringify
 * function for every response schema of every route each time an app is built: about 0.7 s of CPU per app. A server
 * builds one app (the admin API is a scope of it), so this saves nothing there; a test process builds several and paid
 * it each time. Each function is compiled at its first call (compile-on-first-call.ts), once per process.
 * A compiled function depends only on the response schema (a module constant: kept by identity) and on the shared
 * schemas it may refer to (app.addSchema; Fastify clones them per app, so they are compared by content).
 */
const compiled = new WeakMap<object, Map<string, Serialize>>();

export function buildSerializer(externalSchemas: unknown = {}, serializerOpts: Options = {}): (route: RouteDefinition) => Serialize {
  const shared = externalSchemas as Record<string, unknown>;
  const context = createHash('sha256').update(JSON.stringify([shared, serializerOpts])).digest('hex');
  return (route) => {
    const schema = route.schema as { $id?: string };
    // A boolean schema (JSON Schema allows one) cannot key a WeakMap; none of ours is one.
    if (typeof schema !== 'object' || schema === null) return fastJsonStringify(schema, { ...serializerOpts, schema: shared as Options['schema'] }) as Serialize;
    const known = compiled.get(schema) ?? new Map<string, Serialize>();
    compiled.set(schema, known);
    const cached = known.get(context);
    if (cached) return cached;
    // As the default: a response schema that is itself a shared schema is not also passed as an external one.
    const external = schema.$id && shared[schema.$id] ? Object.fromEntries(Object.entries(shared).filter(([id]) => id !== schema.$id)) : shared;
    // Compiled at its first call (compile-on-first-call.ts).
    const firstCall = compiledOnFirstCall(() => fastJsonStringify(schema, { ...serializerOpts, schema: external as Options['schema'] }) as Serialize);
    const serialize: Serialize = (doc) => firstCall()(doc);
    known.set(context, serialize);
    return serialize;
  };
}
