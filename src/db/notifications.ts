import pg from 'pg';

export interface ListenHandlers {
  onMessage(payload: string): void;
  /** Called when notifications may have been missed (connection lost): drop whatever they kept fresh. */
  onReset(): void;
}

export interface Listener {
  /** True while every NOTIFY on the channel is being received. While false, do not trust caches. */
  live(): boolean;
  close(): Promise<void>;
}

export interface ListenOptions {
  /** The longest a connection attempt may take (default 5 s). */
  connectTimeoutMs?: number;
  /**
   * A `select 1` this often, which must be answered within as long again (default 10 s): a connection that stalls
   * (no error, no close: a partition, a proxy that forwards nothing) is noticed within two periods, not never.
   */
  heartbeatMs?: number;
}

function discard(c: pg.Client): void {
  c.removeAllListeners();
  c.on('error', () => {});
  void c.end().catch(() => {});
}

/**
 * LISTEN on a dedicated connection (a pool would hand it back and lose the subscription). When the
 * connection drops or stops answering the heartbeat, `live` turns false and `onReset` fires; it reconnects with
 * capped backoff.
 */
export async function listenPostgres(url: string, channel: string, handlers: ListenHandlers, options: ListenOptions = {}): Promise<Listener> {
  const { connectTimeoutMs = 5_000, heartbeatMs = 10_000 } = options;
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
  let current: pg.Client | undefined;
  let live = false;
  let closed = false;
  let retryMs = 500;
  let timer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  function scheduleReconnect(): void {
    if (closed) return;
    timer = setTimeout(() => {
      connect().catch(() => scheduleReconnect());
    }, retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, 30_000);
  }

  async function connect(): Promise<void> {
    // Bounded: a server that does not answer is treated as down, and the retry loop takes over.
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs, keepAlive: true, query_timeout: heartbeatMs });
    const lost = () => {
      if (current !== c) return;
      clearInterval(heartbeat);
      current = undefined;
      live = false;
      discard(c);
      handlers.onReset();
      scheduleReconnect();
    };
    c.on('error', lost);
    c.on('end', lost);
    c.on('notification', (msg) => {
      if (msg.channel === channel) handlers.onMessage(msg.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`listen ${channel}`);
    } catch (err) {
      discard(c);
      throw err;
    }
    if (closed) {
      discard(c);
      return;
    }
    current = c;
    live = true;
    retryMs = 500;
    let beating = false;
    heartbeat = setInterval(() => {
      if (beating) return;
      beating = true;
      c.query('select 1').then(
        () => (beating = false),
        () => lost(),
      );
    }, heartbeatMs);
    heartbeat.unref();
  }

  await connect();
  return {
    live: () => live,
    close: async () => {
      closed = true;
      clearTimeout(timer);
      clearInterval(heartbeat);
      const c = current;
      current = undefined;
      live = false;
      if (c) {
        c.removeAllListeners();
        c.on('error', () => {});
        await c.end().catch(() => {});
      }
    },
  };
}
