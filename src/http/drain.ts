import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

export interface DrainOptions {
  /**
   * A connection with no request in progress is closed once it has been idle this long (0: at once). Behind a
   * proxy that keeps connections open (nginx `keepalive`), this is longer than the proxy's own idle timeout
   * (the upstream's `keepalive_timeout`, deploy/nginx/integrator-api.conf), so that the proxy closes them first.
   */
  idleCloseMs: number;
  /** The drain ends by then whatever is still open; app.close() follows, and closes the rest. */
  deadlineMs: number;
}

interface Connection {
  /** The response in progress on it, if any. */
  response: ServerResponse | undefined;
  idleSince: number;
}

/**
 * The first step of a graceful stop (SIGTERM, src/main.ts). Closing a keep-alive connection that looks idle races
 * with the client sending its next request on it: that request was sent and gets no answer, and a proxy does not
 * retry a POST it sent (nginx without `non_idempotent`). Node's server.close() and Fastify's close() do exactly that,
 * and leave a connection that goes idle afterwards open until the keep-alive timeout (72 s). So the drain:
 * 1. stops accepting connections (a proxy's connect is refused: nothing was sent, it tries the next process);
 * 2. serves every request on an open connection as usual, answered with `Connection: close`, so that whoever
 *    sent it drops the connection after the answer (the requests in progress included, when their headers are
 *    not sent yet);
 * 3. closes a connection only once it has been idle for `idleCloseMs`, giving a proxy time to close it first;
 * 4. ends when no connection is left, or at `deadlineMs`.
 * While it runs, /readyz answers 503 `draining`.
 */
export class Drain {
  private readonly connections = new Map<Socket, Connection>();
  private started = false;

  constructor(
    private readonly server: Server,
    private readonly now: () => number = Date.now,
  ) {
    server.on('connection', (socket: Socket) => {
      this.connections.set(socket, { response: undefined, idleSince: this.now() });
      socket.once('close', () => this.connections.delete(socket));
    });
    // Before Fastify's own listener, so that a request arriving while draining carries the header from the start.
    server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
      const connection = this.connections.get(request.socket);
      if (connection) {
        connection.response = response;
        response.once('close', () => {
          if (connection.response === response) connection.response = undefined;
          connection.idleSince = this.now();
        });
      }
      if (this.started) response.setHeader('connection', 'close');
    });
  }

  get draining(): boolean {
    return this.started;
  }

  /** Open connections (tests, logs). */
  get open(): number {
    return this.connections.size;
  }

  async run(options: DrainOptions): Promise<void> {
    if (this.started) return;
    this.started = true;
    for (const { response } of this.connections.values()) {
      if (response && !response.headersSent) response.setHeader('connection', 'close');
    }
    // net.Server's close, not http.Server's: the latter also closes every idle connection at once (step 3).
    if (this.server.listening) NetServer.prototype.close.call(this.server);
    const deadline = this.now() + options.deadlineMs;
    for (;;) {
      const now = this.now();
      for (const [socket, connection] of this.connections) {
        if (!connection.response && now - connection.idleSince >= options.idleCloseMs) socket.destroy();
      }
      if (this.connections.size === 0 || now >= deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * Behind a proxy: well beyond the upstream keepalive_timeout of deploy/nginx/integrator-api.conf (4 s). At 5 s a
 * loaded CI machine (servers taking 17 s to start) once saw nginx send a POST on a connection idle past its 4 s just
 * as the drain closed it: a 502. A proxy that closes on time ends the drain as soon as before.
 */
export const PROXY_IDLE_CLOSE_MS = 10_000;
/** As long as a request may last (requestTimeout in app.ts). */
export const DRAIN_DEADLINE_MS = 30_000;

/**
 * How the server process drains on SIGTERM: behind a proxy (TRUST_PROXY set) idle connections are left for the proxy
 * to close for PROXY_IDLE_CLOSE_MS; with clients connected directly there is no one to wait for, they close at once.
 */
export function drainOptions(config: { trustProxy: readonly string[] }): DrainOptions {
  return { idleCloseMs: config.trustProxy.length > 0 ? PROXY_IDLE_CLOSE_MS : 0, deadlineMs: DRAIN_DEADLINE_MS };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's drain (http/app.ts); composition-root.ts runs it when the process stops. */
    drain: Drain;
  }
}
