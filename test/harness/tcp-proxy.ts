import { createServer, Socket, type AddressInfo } from 'node:net';

/**
 * What the proxy does with the bytes between its clients and the target:
 * - `pass`: forwards them (and, coming back from `stall`, whatever was held meanwhile: a partition that heals);
 * - `drop`: resets every open connection (RST) and every new one the moment it is accepted: the server is gone;
 * - `stall`: keeps every socket open and forwards nothing, either way, not even a close: the packets vanish. New
 *   connections are accepted and wait too. A side that gave up meanwhile is closed on the other side at the next
 *   `pass`, as a peer's RST would.
 */
export type ProxyMode = 'pass' | 'drop' | 'stall';

export interface TcpProxy {
  readonly port: number;
  readonly mode: ProxyMode;
  /** `url` (a postgres:// URL or any other) with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  setMode(mode: ProxyMode): void;
  /** Client connections open now. */
  connections(): number;
  /** Connections accepted since the start. */
  accepted(): number;
  close(): Promise<void>;
}

/** One direction of a connection: reads `from`, writes to the other side, holds what it read while stalled. */
class Direction {
  private readonly held: Buffer[] = [];
  private ended = false;
  private waitingForDrain = false;

  constructor(
    private readonly from: Socket,
    private readonly to: () => Socket | undefined,
    private readonly stalled: () => boolean,
  ) {
    from.on('data', (chunk: Buffer) => {
      this.held.push(chunk);
      this.flush();
    });
    from.on('end', () => {
      this.ended = true;
      this.flush();
    });
  }

  /** Writes what is held when the mode and the other side allow it; stops reading otherwise. */
  flush(): void {
    const to = this.to();
    if (this.stalled()) {
      this.from.pause();
      return;
    }
    if (!to || to.connecting || to.destroyed || this.waitingForDrain) return;
    while (this.held.length > 0) {
      if (!to.write(this.held.shift()!)) {
        this.waitingForDrain = true;
        this.from.pause();
        to.once('drain', () => {
          this.waitingForDrain = false;
          this.flush();
        });
        return;
      }
    }
    if (this.ended) to.end();
    else this.from.resume();
  }
}

class Pair {
  private upstream: Socket | undefined;
  private readonly directions: Direction[] = [];
  /** One side closed while stalled: the other learns it at the next pass. */
  private closing = false;

  constructor(
    private readonly client: Socket,
    private readonly target: { host: string; port: number },
    private readonly proxy: { stalled(): boolean; closed(pair: Pair): void },
  ) {
    this.watch(client);
    this.directions.push(new Direction(client, () => this.upstream, () => proxy.stalled()));
    if (proxy.stalled()) client.pause();
    else this.connectUpstream();
  }

  private watch(socket: Socket): void {
    socket.on('error', () => this.lost());
    socket.on('close', () => this.lost());
  }

  private lost(): void {
    if (this.proxy.stalled()) this.closing = true;
    else this.destroy();
  }

  private connectUpstream(): void {
    if (this.upstream) return;
    const upstream = new Socket();
    this.upstream = upstream;
    this.watch(upstream);
    upstream.setNoDelay(true);
    upstream.on('connect', () => this.resume());
    this.directions.push(new Direction(upstream, () => this.client, () => this.proxy.stalled()));
    upstream.connect(this.target.port, this.target.host);
  }

  stall(): void {
    this.client.pause();
    this.upstream?.pause();
  }

  /** Back to pass: connect if the stall came first, forward what was held both ways, or finish a close. */
  resume(): void {
    if (this.closing || this.client.destroyed) return this.destroy();
    if (!this.upstream) return this.connectUpstream();
    for (const d of this.directions) d.flush();
  }

  reset(): void {
    if (!this.client.destroyed) this.client.resetAndDestroy();
    if (this.upstream && !this.upstream.destroyed) this.upstream.resetAndDestroy();
    this.destroy();
  }

  destroy(): void {
    if (!this.client.destroyed) this.client.destroy();
    if (this.upstream && !this.upstream.destroyed) this.upstream.destroy();
    this.proxy.closed(this);
  }
}

/**
 * A TCP proxy for fault tests (node:net only): the process under test connects through it instead of straight to
 * the database server, and the test cuts or stalls its connections without touching the shared server.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'pass';
  let acceptedCount = 0;
  const pairs = new Set<Pair>();
  const hooks = { stalled: () => mode === 'stall', closed: (pair: Pair) => void pairs.delete(pair) };
  const server = createServer((socket) => {
    acceptedCount++;
    socket.setNoDelay(true);
    if (mode === 'drop') {
      socket.on('error', () => {});
      socket.resetAndDestroy();
      return;
    }
    pairs.add(new Pair(socket, target, hooks));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    get mode() {
      return mode;
    },
    urlFor(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    setMode(next) {
      mode = next;
      for (const pair of [...pairs]) {
        if (next === 'drop') pair.reset();
        else if (next === 'stall') pair.stall();
        else pair.resume();
      }
    },
    connections: () => pairs.size,
    accepted: () => acceptedCount,
    close: () =>
      new Promise<void>((resolve) => {
        for (const pair of [...pairs]) pair.destroy();
        server.close(() => resolve());
      }),
  };
}
