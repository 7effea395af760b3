import type { FastifyLoggerOptions } from 'fastify';
import type { DestinationStream, LoggerOptions as PinoLoggerOptions } from 'pino';
import type { LogLevel } from './config.js';

/**
 * What an error looks like in a log line. Only what identifies the failure is kept: never query parameters,
 * row values or request bodies (docs/security.md).
 */
export interface SerializedError {
  type: string;
  message: string;
  stack: string;
  /** SQLSTATE for database errors, the error code of ours (ApiError) and Fastify's (FST_ERR_…). */
  code?: string | number;
  statusCode?: number;
  status?: number;
  severity?: string;
  schema?: string;
  table?: string;
  column?: string;
  dataType?: string;
  constraint?: string;
  routine?: string;
  cause?: SerializedError | string;
  /** AggregateError's members. */
  errors?: (SerializedError | string)[];
}

const REDACTED = '[redacted]';
/** How deep `cause` (and AggregateError members) are followed. */
const MAX_DEPTH = 5;
const MAX_AGGREGATED = 10;
/** Long SQL is cut: it identifies the statement, it is not evidence. */
const MAX_SQL = 2_000;

/** Fields copied as they are when they are strings: they name things in the schema or the error, never values. */
const NAME_FIELDS = ['severity', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine'] as const;

/**
 * SQL text written by our code (drizzle): values travel as parameters ($1…), but a literal written into the
 * text ('…', $tag$…$tag$, E'…') is replaced all the same. Quoted identifiers stay: they are the schema's.
 */
function redactSql(sql: string): string {
  const cut = sql.length > MAX_SQL ? `${sql.slice(0, MAX_SQL)}…` : sql;
  return cut.replace(/\$([A-Za-z_][A-Za-z0-9_]*)?\$[\s\S]*?(?:\$\1\$|$)/g, `'${REDACTED}'`).replace(/'(?:[^'\\]|\\[\s\S]|'')*(?:'|$)/g, `'${REDACTED}'`);
}

/**
 * A message with every value it may quote replaced: what follows drizzle's "params:", PostgreSQL's
 * `(col)=(value)` keys and "Failing row contains (…)", and every quoted literal ("…", '…', `…`, “…”, ‘…’;
 * identifiers in PostgreSQL's messages go too, they are in `table`, `column` and `constraint`).
 */
export function redactMessage(message: string): string {
  let text = scrubBearerTokens(message);
  let params = '';
  const paramsAt = text.indexOf('\nparams: ');
  if (paramsAt >= 0) {
    text = text.slice(0, paramsAt);
    params = `\nparams: ${REDACTED}`;
  }
  if (text.startsWith('Failed query: ')) return `Failed query: ${redactSql(text.slice('Failed query: '.length))}${params}`;
  text = text
    .replace(/Failing row contains \([\s\S]*\)/g, `Failing row contains (${REDACTED})`)
    .replace(/\)=\([\s\S]*\)/g, `)=(${REDACTED})`)
    .replace(/"(?:[^"\\]|\\[\s\S])*(?:"|$)/g, `"${REDACTED}"`)
    .replace(/'(?:[^'\\]|\\[\s\S])*(?:'|$)/g, `'${REDACTED}'`)
    .replace(/`[^`]*(?:`|$)/g, `\`${REDACTED}\``)
    .replace(/“[^”]*(?:”|$)/g, `“${REDACTED}”`)
    .replace(/‘[^’]*(?:’|$)/g, `‘${REDACTED}’`);
  return text + params;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** pg and PGlite both raise PostgreSQL's errors with the name "error" (PGlite's class name is minified). */
function typeOf(err: Record<string, unknown>): string {
  const name = typeof err.name === 'string' ? err.name : undefined;
  if (name === 'error' && typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code)) return 'DatabaseError';
  const ctor = (err as { constructor?: { name?: unknown } }).constructor?.name;
  if (name && name !== 'Error') return name;
  return typeof ctor === 'string' && ctor !== '' && ctor !== 'Object' ? ctor : (name ?? 'Error');
}

/** The stack's frames under a header rebuilt from the redacted message (V8 repeats the raw message there). */
function safeStack(type: string, message: string, stack: unknown): string {
  const frames = typeof stack === 'string' ? stack.split('\n').filter((line) => /^\s+at\s/.test(line)) : [];
  return [`${type}: ${message}`, ...frames].join('\n');
}

function serialize(value: unknown, depth: number, seen: Set<unknown>): SerializedError | string {
  if (typeof value === 'string') return redactMessage(value);
  if (!isRecord(value)) return { type: typeof value, message: value === undefined || value === null ? String(value) : REDACTED, stack: '' };
  if (seen.has(value)) return { type: typeOf(value), message: '[circular]', stack: '' };
  seen.add(value);
  const type = typeOf(value);
  const message = redactMessage(typeof value.message === 'string' ? value.message : '');
  const out: SerializedError = { type, message, stack: safeStack(type, message, value.stack) };
  if (typeof value.code === 'string' || typeof value.code === 'number') out.code = value.code;
  if (typeof value.statusCode === 'number') out.statusCode = value.statusCode;
  if (typeof value.status === 'number') out.status = value.status;
  for (const field of NAME_FIELDS) {
    const v = value[field];
    if (typeof v === 'string') out[field] = v;
  }
  if (value.cause !== undefined && value.cause !== null) {
    out.cause = depth < MAX_DEPTH ? serialize(value.cause, depth + 1, seen) : { type: 'truncated', message: 'cause chain too deep', stack: '' };
  }
  if (Array.isArray(value.errors) && value instanceof AggregateError && depth < MAX_DEPTH) {
    out.errors = value.errors.slice(0, MAX_AGGREGATED).map((e) => serialize(e, depth + 1, seen));
  }
  return out;
}

/**
 * The one error serializer of every logger (the server's, the worker's): type, SQLSTATE and other codes, the
 * schema names a database error carries, the stack's frames and a message with its values redacted; `cause`
 * (and AggregateError members) the same way, to a bounded depth. Everything else an error carries is dropped:
 * drizzle's `params`, PostgreSQL's `detail` ("Key (email)=(…)", "Failing row contains (…)"), `where`, `hint`,
 * `internalQuery`, PGlite's `query`/`params`/`queryOptions`, Ajv's `validation`, any `body`.
 */
export function serializeError(err: unknown): SerializedError | string {
  return serialize(err, 0, new Set());
}

/** A one-line account of an error and its causes for humans (CLI stderr), redacted like the log serializer. */
export function safeErrorMessage(err: unknown): string {
  const parts: string[] = [];
  const seen = new Set<unknown>();
  for (let e: unknown = err, depth = 0; e !== undefined && e !== null && depth <= MAX_DEPTH && !seen.has(e); e = isRecord(e) ? e.cause : undefined, depth++) {
    seen.add(e);
    const message = typeof e === 'string' ? e : isRecord(e) && typeof e.message === 'string' ? e.message : '';
    const code = isRecord(e) && typeof e.code === 'string' ? ` (${e.code})` : '';
    if (message !== '' || code !== '') parts.push(`${redactMessage(message)}${code}`);
  }
  return parts.join(': ');
}

/**
 * A bearer token in the shape the service issues (an invitation's `inv_` or an onboarding link's `obl_` + 43 base64url characters, also
 * percent-encoded), wherever a string of a log call quotes it: the last fence behind the routes' own redaction
 * (src/http/secret-urls.ts), for lines that quote a raw URL themselves (Fastify's "Reply was already sent … in the
 * "<url>" route" warning, a library's message).
 */
const BEARER_TOKEN = /(inv_|obl_)(?:[A-Za-z0-9_-]|%[0-9A-Fa-f]{2}){16,}/g;
const quotesToken = (text: string) => text.includes('inv_') || text.includes('obl_');

export const scrubBearerTokens = (text: string): string => (quotesToken(text) ? text.replace(BEARER_TOKEN, `$1${REDACTED}`) : text);

/** Field names whose values are never logged: at the top level (pino's redact) and one level down (below). */
const SECRET_FIELDS = ['privateKey', 'socialSecurityNumber'] as const;

/**
 * `object` with SECRET_FIELDS censored in the records it holds (one level down; the object itself is pino's redact's,
 * which lists the names). Done here rather than with pino's `*.name` paths: a path starting with `*` makes pino run
 * every child logger's bindings through its redactor, and Fastify makes a child for every request, so each request
 * paid the redactor (about 1.1 KB of garbage and its CPU, docs/benchmarks.md) although almost none logs at all.
 * The object is returned as it is when nothing needs censoring. Arrays are not looked into (nor were they by `*.name`),
 * and an error is left to serializeError, which writes none of its other fields.
 */
function withNestedSecretsCensored(object: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(object)) {
    const value = object[key];
    if (!isRecord(value) || Array.isArray(value) || value instanceof Error) continue;
    const held = SECRET_FIELDS.filter((name) => Object.hasOwn(value, name));
    if (held.length === 0) continue;
    copy ??= { ...object };
    copy[key] = { ...value, ...Object.fromEntries(held.map((name) => [name, REDACTED])) };
  }
  return copy ?? object;
}

/**
 * The arguments of a log call: strings (the message, its format arguments, an object's top-level strings) without
 * tokens, and an object's records without SECRET_FIELDS.
 */
function scrubArgs(args: unknown[]): unknown[] {
  return args.map((arg) => {
    if (typeof arg === 'string') return scrubBearerTokens(arg);
    if (!isRecord(arg) || arg instanceof Error) return arg;
    const quoted = Object.entries(arg).some(([, v]) => typeof v === 'string' && quotesToken(v));
    const scrubbed = quoted ? Object.fromEntries(Object.entries(arg).map(([k, v]) => [k, typeof v === 'string' ? scrubBearerTokens(v) : v])) : arg;
    return withNestedSecretsCensored(scrubbed);
  });
}

/**
 * Every log call: tokens scrubbed (scrubArgs); an error logged without a message of its own would get its raw message
 * as `msg` (pino): give it the redacted one.
 */
function logMethod(this: unknown, rawArgs: unknown[], method: (...args: unknown[]) => void): void {
  const args = scrubArgs(rawArgs);
  if (args.length === 1) {
    const [first] = args;
    if (first instanceof Error) return method.apply(this, [first, safeErrorMessage(first)]);
    if (isRecord(first) && first.msg === undefined) {
      const err = first.err ?? first.error;
      if (err instanceof Error) return method.apply(this, [first, safeErrorMessage(err)]);
    }
  }
  return method.apply(this, args);
}

export type LoggerOptions = FastifyLoggerOptions & PinoLoggerOptions;

/**
 * JSON logs with the request id on every line (Fastify's child logger). Headers and bodies are never
 * logged, so signatures, keys, SSNs and documents cannot leak; the redaction list is a second fence, and
 * errors go through serializeError (no query parameters, row values or bodies). `destination`: where the
 * lines go instead of stdout (tests read them).
 */
export function loggerOptions(level: LogLevel, destination?: DestinationStream): LoggerOptions {
  return {
    level,
    redact: {
      // One level down, SECRET_FIELDS are censored by logMethod (withNestedSecretsCensored) in what a call logs; a child
      // logger's bindings only at the top level, and the service makes no child but Fastify's per request ({ reqId }).
      paths: ['req.headers["x-signature"]', 'req.headers["x-pubkey"]', 'req.headers.authorization', ...SECRET_FIELDS],
      censor: REDACTED,
    },
    serializers: { err: serializeError, error: serializeError } as PinoLoggerOptions['serializers'],
    hooks: { logMethod: logMethod as NonNullable<PinoLoggerOptions['hooks']>['logMethod'] },
    ...(destination ? { stream: destination } : {}),
  };
}
