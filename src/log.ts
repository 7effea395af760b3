/**
 * What domain code and workers need of a logger: pino's and Fastify's loggers both fit, and tests can pass a
 * recorder. Errors given as `{ err }` go through the redacting serializer of src/logging.ts.
 */
export interface Log {
  warn(obj: unknown, msg: string): void;
  error(obj: unknown, msg: string): void;
}
