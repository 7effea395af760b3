import type { FastifyServerOptions } from 'fastify';
import type { LogLevel } from './config.js';

/**
 * JSON logs with the request id on every line (Fastify's child logger). Headers and bodies are never
 * logged, so signatures, keys, SSNs and documents cannot leak; the redaction list is a second fence.
 */
export function loggerOptions(level: LogLevel): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: ['req.headers["x-signature"]', 'req.headers["x-pubkey"]', 'req.headers.authorization', '*.privateKey', '*.socialSecurityNumber'],
      censor: '[redacted]',
    },
  };
}
