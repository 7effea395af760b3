/**
 * Failures that say the database could not be reached or did not answer, as opposed to a refused statement: the
 * connection was refused, reset, closed or timed out (node-postgres and pg-pool say so in words, not codes), the
 * server ended the session (SQLSTATE class 08, 57P01 to 57P03: shutdown, crash, a terminated backend, not yet
 * accepting connections), it has no connection left (53300), or the statement ran past statement_timeout (57014).
 * The HTTP layer answers them with 503 database_unavailable, never 500: retrying later may succeed.
 */

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'EHOSTDOWN', 'ENETUNREACH', 'ENETDOWN', 'ENOTFOUND', 'EAI_AGAIN']);
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '57014', '53300']);
const MESSAGES = [
  /^Connection terminated/, // pg: "... unexpectedly", "... due to connection timeout", or ended by us
  /^timeout exceeded when trying to connect$/, // pg-pool: no connection free within connectionTimeoutMillis
  /^timeout expired$/, // pg: the connect timeout of a client
  /^Query read timeout$/, // pg: query_timeout
  /is not queryable$/, // pg: a client whose connection failed or was closed
  /^Cannot use a pool after calling end on the pool$/, // pg-pool, while the process shuts down
  /^PGlite is clos(ed|ing)$/, // the embedded database, closed
];

export interface UnavailableCause {
  /** An errno code (ECONNREFUSED), a SQLSTATE (57P01), or none for the driver's own timeouts. */
  code?: string;
  message: string;
}

function own(err: unknown): UnavailableCause | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, message } = err as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return { code, message: text };
  if (MESSAGES.some((re) => re.test(text))) return { message: text };
  return undefined;
}

/**
 * The failure that made the database unavailable, found in `err` or its causes (drizzle wraps the driver's error
 * in one that quotes the statement and its parameters: only the cause's code and message are returned, so they
 * can be logged).
 */
export function databaseUnavailableCause(err: unknown): UnavailableCause | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const found = own(e);
    if (found) return found;
    // A connection attempt to each address of a name fails as one AggregateError.
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors)) for (const inner of errors) if (own(inner)) return own(inner);
  }
  return undefined;
}

export function isDatabaseUnavailable(err: unknown): boolean {
  return databaseUnavailableCause(err) !== undefined;
}
