import pg from 'pg';

/**
 * A pg.Pool that never lends a dead connection twice and never loses one. Two gaps of node-postgres and drizzle
 * when the connection is lost under a transaction (`db.transaction` checks a client out with `pool.connect()`):
 * - a query past `query_timeout` fails, but its client keeps waiting for the answer: returned to the pool as it is,
 *   every query of the next borrower would queue behind it. Here the client is closed at once instead, so the rest
 *   of the transaction (its ROLLBACK) fails at once and the pool discards the client when it comes back;
 * - drizzle releases the client only when BEGIN succeeded, and a client whose socket fails while lent has no
 *   'error' listener (an uncaught exception). Here a lent client that errors or ends goes back to the pool, which
 *   discards it, right away; the borrower's own release later does nothing.
 * Queries through `pool.query` (everything outside a transaction) are handled by pg-pool itself.
 */
export class GuardedPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): Promise<pg.PoolClient> | void {
    if (callback) return super.connect(callback);
    return super.connect().then(lend);
  }
}

const closesOnReadTimeout = new WeakSet<pg.Client>();

/** Makes a query past query_timeout close its client (pg leaves it waiting for an answer that may never come). */
function closeOnReadTimeout(client: pg.PoolClient): void {
  if (closesOnReadTimeout.has(client)) return;
  closesOnReadTimeout.add(client);
  const query = client.query as (...args: unknown[]) => unknown;
  client.query = function (this: pg.Client, ...args: unknown[]) {
    const result = query.apply(this, args);
    if (result instanceof Promise) {
      result.catch((err: unknown) => {
        if ((err as Error | undefined)?.message === 'Query read timeout') void client.end().catch(() => {});
      });
    }
    return result;
  } as typeof client.query;
}

function lend(client: pg.PoolClient): pg.PoolClient {
  closeOnReadTimeout(client);
  const release = client.release.bind(client);
  let released = false;
  const lost = (err?: Error) => giveBack(err ?? new Error('Connection terminated while lent'));
  const onError = (err: Error) => lost(err);
  const onEnd = () => lost();
  function giveBack(err?: Error | boolean): void {
    if (released) return;
    released = true;
    client.off('error', onError);
    client.off('end', onEnd);
    release(err);
  }
  client.on('error', onError);
  client.on('end', onEnd);
  client.release = giveBack;
  return client;
}
