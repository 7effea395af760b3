/**
 * What domain code and workers need of a logger: pino's and Fastify's loggers both fit, and tests can pass a
 * recorder. Errors given as `{ err }` go through the redacting serializer of src/logging.ts.
 */
export interface Log {
  /** Routine facts an operator follows (one line per webhook delivery attempt); optional for recorders in tests. */
  info?(obj: unknown, msg: string): void;
  warn(obj: unknown, msg: string): void;
  error(obj: unknown, msg: string): void;
}
