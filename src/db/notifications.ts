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

function discard(c: pg.Client): void {
  c.removeAllListeners();
  c.on('error', () => {});
  void c.end().catch(() => {});
}

/**
 * LISTEN on a dedicated connection (a pool would hand it back and lose the subscription). When the
 * connection drops, `live` turns false and `onReset` fires; it reconnects with capped backoff.
 */
export async function listenPostgres(url: string, channel: string, handlers: ListenHandlers): Promise<Listener> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
  let current: pg.Client | undefined;
  let live = false;
  let closed = false;
  let retryMs = 500;
  let timer: NodeJS.Timeout | undefined;

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
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true });
    const lost = () => {
      if (current !== c) return;
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
  }

  await connect();
  return {
    live: () => live,
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
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
