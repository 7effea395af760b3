/** One offending field of a 400 (RFC 9457 problem `errors`). */
export interface FieldError {
  pointer: string;
  code: string;
  detail: string;
  in?: 'body' | 'query' | 'path' | 'header';
}

/**
 * Any answer other than 2xx, as the problem document the server sent (docs/errors.md): branch on `code`, quote
 * `requestId` when reporting a problem.
 */
export class IntegratorApiError extends Error {
  override readonly name = 'IntegratorApiError';
  readonly status: number;
  readonly code: string;
  readonly requestId: string | undefined;
  readonly errors: FieldError[];
  /** The whole problem document (extension members such as `reasons` included). */
  readonly problem: Record<string, unknown>;

  constructor(status: number, problem: Record<string, unknown>, requestId: string | undefined) {
    const detail = typeof problem.detail === 'string' ? problem.detail : typeof problem.title === 'string' ? problem.title : `HTTP ${status}`;
    super(`${status} ${String(problem.code ?? 'error')}: ${detail}`);
    this.status = status;
    this.code = typeof problem.code === 'string' ? problem.code : `http_${status}`;
    this.requestId = typeof problem.requestId === 'string' ? problem.requestId : requestId;
    this.errors = Array.isArray(problem.errors) ? (problem.errors as FieldError[]) : [];
    this.problem = problem;
  }
}

/** The request did not get an answer: the network failed or the timeout passed, on every attempt. */
export class IntegratorConnectionError extends Error {
  override readonly name = 'IntegratorConnectionError';
  constructor(
    message: string,
    override readonly cause: unknown,
  ) {
    super(message);
  }
}
