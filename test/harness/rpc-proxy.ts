import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A JSON-RPC endpoint in front of a real node (anvil) that forwards everything except, depending on its mode,
 * `eth_sendRawTransaction`: `pass` forwards it, `drop` closes the connection without an answer (the node looks
 * unreachable), `hold` keeps it until `release()` (a slow node). Reads always pass, so a test can make the node
 * answer the checks before a commit and fail the send after it. Separately, `holdCalls` holds every call of one
 * read method until `releaseCall()` lets the oldest through, to order two requests' checks around each other.
 */
export interface RpcProxy {
  url: string;
  mode: 'pass' | 'drop' | 'hold';
  /** eth_sendRawTransaction calls seen, whatever their fate. */
  sends: number;
  /** Resolves once `count` eth_sendRawTransaction calls have been seen (never, if they are not). */
  sendsReached(count: number): Promise<void>;
  /** Every JSON-RPC call seen (each of a batch's), in order: its method and first parameter. */
  calls: { method: string; first: unknown }[];
  /** HTTP requests seen (a batch is one): the node's round trips. */
  requests: number;
  /** While true, every request's connection is closed without an answer: the node is down for reads too. */
  down: boolean;
  /** The signed transactions of every send held so far, in order. */
  heldRaw: string[];
  /** Resolves when a send is being held; rejects after `timeoutMs`. */
  held(timeoutMs?: number): Promise<void>;
  /** Forwards the held sends (the proxy stays in its mode for later ones). */
  release(): void;
  /** Closes the held sends' connections without an answer. */
  abortHeld(): void;
  /** Holds every later call of this method (none: held calls stay held until released). */
  holdCalls: string | undefined;
  /** Resolves when `count` calls of `holdCalls` are being held; rejects after `timeoutMs`. */
  callsHeld(count: number, timeoutMs?: number): Promise<void>;
  /** Forwards the oldest held call. */
  releaseCall(): void;
  close(): Promise<void>;
}

export async function startRpcProxy(target: string): Promise<RpcProxy> {
  let waiters: (() => void)[] = [];
  let holding: { forward: () => void; abort: () => void }[] = [];
  const heldCalls: { forward: () => void; abort: () => void }[] = [];
  let callWaiters: (() => void)[] = [];
  /** Each answers true once it is done. */
  let sendWaiters: (() => boolean)[] = [];

  const forward = async (body: Buffer, res: http.ServerResponse) => {
    try {
      const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
    } catch {
      res.socket?.destroy();
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      proxy.requests++;
      if (proxy.down) return void res.socket?.destroy();
      const body = Buffer.concat(chunks);
      try {
        const parsed = JSON.parse(body.toString()) as unknown;
        for (const call of (Array.isArray(parsed) ? parsed : [parsed]) as { method?: unknown; params?: unknown[] }[]) proxy.calls.push({ method: String(call?.method), first: call?.params?.[0] });
      } catch {
        // not JSON: forwarded as it is, for the node to refuse
      }
      const isSend = body.includes('"eth_sendRawTransaction"');
      if (isSend) {
        proxy.sends++;
        sendWaiters = sendWaiters.filter((w) => !w());
      }
      if (proxy.holdCalls && body.includes(`"${proxy.holdCalls}"`)) {
        heldCalls.push({ forward: () => void forward(body, res), abort: () => res.socket?.destroy() });
        callWaiters.forEach((w) => w());
        return;
      }
      if (!isSend || proxy.mode === 'pass') return void forward(body, res);
      if (proxy.mode === 'drop') return void res.socket?.destroy();
      proxy.heldRaw.push(String((JSON.parse(body.toString()) as { params?: unknown[] }).params?.[0]));
      holding.push({ forward: () => void forward(body, res), abort: () => res.socket?.destroy() });
      waiters.forEach((w) => w());
      waiters = [];
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');

  const take = () => {
    const taken = holding;
    holding = [];
    return taken;
  };
  const proxy: RpcProxy = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    mode: 'pass',
    sends: 0,
    sendsReached: (count) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (proxy.sends < count) return false;
          resolve();
          return true;
        };
        if (!check()) sendWaiters.push(check);
      }),
    calls: [],
    requests: 0,
    down: false,
    heldRaw: [],
    held: (timeoutMs = 15_000) =>
      holding.length > 0
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`no eth_sendRawTransaction held within ${timeoutMs} ms`)), timeoutMs);
            waiters.push(() => {
              clearTimeout(timer);
              resolve();
            });
          }),
    release: () => take().forEach((h) => h.forward()),
    holdCalls: undefined,
    callsHeld: (count, timeoutMs = 15_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${heldCalls.length} of ${count} ${proxy.holdCalls} calls held within ${timeoutMs} ms`)), timeoutMs);
        const check = () => {
          if (heldCalls.length < count) return;
          clearTimeout(timer);
          callWaiters = callWaiters.filter((w) => w !== check);
          resolve();
        };
        callWaiters.push(check);
        check();
      }),
    releaseCall: () => heldCalls.shift()?.forward(),
    abortHeld: () => take().forEach((h) => h.abort()),
    close: () =>
      new Promise<void>((resolve) => {
        take().forEach((h) => h.abort());
        heldCalls.splice(0).forEach((h) => h.abort());
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
