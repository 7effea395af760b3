import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';

/** What /readyz would say, had Fastify started: the shape of its 503 answers. */
const STARTING = '{"status":"starting"}';

/**
 * Requests held while the process starts, at most: a flood beyond it is answered 503 `starting` (with Retry-After)
 * rather than held in memory.
 */
export const MAX_HELD_REQUESTS = 256;

/**
 * A process's listening port, bound first at start (before DATA_DIR, the sandbox key or a migration is written), so a
 * port that cannot be had costs one line and nothing else. The socket bound then is the one that serves: Fastify
 * takes this server over (serverFactory), and nothing can take the port in between. A probe that binds and closes
 * again would leave the whole start (migrations can take seconds) for another process to take it, and the failure
 * would come after the writes again.
 *
 * A request that arrives while the process starts is held and served once it is ready, as a socket-activated
 * service's are: a proxy that sent it (nginx during a rolling restart) gets its answer instead of a 503 it would not
 * retry for a POST, which a connection refused used to spare it. Beyond MAX_HELD_REQUESTS held, 503 `starting`.
 * HOST=localhost binds the first address the name resolves to (Fastify alone would bind each of them).
 */
export class BoundPort {
  private handler: RequestListener | undefined;
  private held: [IncomingMessage, ServerResponse][] = [];

  private constructor(readonly server: http.Server) {
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      if (this.handler) return this.handler(request, response);
      // A client that gave up while held frees its place.
      if (this.held.length >= MAX_HELD_REQUESTS) this.held = this.held.filter(([held]) => !held.socket.destroyed);
      if (this.held.length < MAX_HELD_REQUESTS) {
        this.held.push([request, response]);
        return;
      }
      response.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'content-length': STARTING.length, 'retry-after': '1' }).end(STARTING);
    });
  }

  /** Listens on `port` at `host`, or rejects with PortUnavailableError naming `variable` (the setting that chose the port). */
  static async bind(variable: string, port: number, host: string): Promise<BoundPort> {
    const server = http.createServer();
    await new Promise<void>((resolve, reject) => {
      const failed = (err: NodeJS.ErrnoException) => reject(new PortUnavailableError(variable, port, host, err));
      server.once('error', failed);
      server.listen({ port, host }, () => {
        server.off('error', failed);
        resolve();
      });
    });
    return new BoundPort(server);
  }

  /** Requests are `handler`'s from now on, those held while starting first (a client that left meanwhile is skipped). */
  serve(handler: RequestListener): void {
    this.handler = handler;
    const held = this.held;
    this.held = [];
    for (const [request, response] of held) if (!request.socket.destroyed) handler(request, response);
  }

  /**
   * Fastify's `serverFactory`: this server, with the timeouts Fastify would have set on its own. Fastify's listen()
   * (app.listen) calls server.listen(), which would throw on a listening server: here it only says it listens, and
   * Fastify's handler serves from then on (after app.ready(), which listen() awaits first).
   */
  readonly serverFactory = (handler: RequestListener, options: Record<string, unknown>): http.Server => {
    const { server } = this;
    server.keepAliveTimeout = options.keepAliveTimeout as number;
    server.requestTimeout = options.requestTimeout as number;
    server.setTimeout(options.connectionTimeout as number);
    if ((options.maxRequestsPerSocket as number) > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket as number;
    server.listen = (() => {
      this.serve(handler);
      process.nextTick(() => server.emit('listening'));
      return server;
    }) as typeof server.listen;
    return server;
  };
}

/** Why a port could not be bound, in one line that names the setting to change. */
export class PortUnavailableError extends Error {
  /** EX_TEMPFAIL when another process has the port (as for DATA_DIR), EX_NOPERM, EX_CONFIG for a HOST that is not here. */
  readonly exitCode: number;
  readonly configuration: boolean;

  constructor(variable: string, port: number, host: string, cause: NodeJS.ErrnoException) {
    const code = cause.code ?? 'unknown';
    const [message, exitCode] = ((): [string, number] => {
      switch (code) {
        case 'EADDRINUSE':
          return [`${variable} ${port} is already in use on ${host} (EADDRINUSE): choose another ${variable} or stop the process listening there`, 75];
        case 'EACCES':
          return [`${variable} ${port} on ${host} may not be bound by this user (EACCES): choose a ${variable} from 1024 up, or let the process bind low ports`, 77];
        case 'EADDRNOTAVAIL':
          return [`HOST ${host} is not an address of this machine (EADDRNOTAVAIL): choose one of its addresses, or 0.0.0.0 for all of them`, 78];
        case 'ENOTFOUND':
        case 'EAI_AGAIN':
          return [`HOST ${host} does not resolve to an address (${code})`, 78];
        default:
          return [`cannot listen on ${host} port ${port} (${variable}): ${cause.message}`, 69];
      }
    })();
    super(message, { cause });
    this.exitCode = exitCode;
    this.configuration = exitCode === 78;
  }
}

/**
 * For process entry points, before anything is written: the port `variable` names, bound, or one line on stderr
 * naming it and exit non-zero (75 when another process listens there, as for DATA_DIR; see PortUnavailableError).
 */
export async function bindPortOrExit(variable: string, port: number, host: string): Promise<BoundPort> {
  try {
    return await BoundPort.bind(variable, port, host);
  } catch (err) {
    if (!(err instanceof PortUnavailableError)) throw err;
    process.stderr.write(`${err.configuration ? 'configuration' : 'startup'} error: ${err.message}\n`);
    process.exit(err.exitCode);
  }
}
