/**
 * A JSON-RPC forwarder in front of a node that counts its HTTP requests (the node's round trips) by what they carry:
 * the balances bench counts the round trips with an `eth_call` (the balance lens) apart from those of the rest of
 * the API (the incoming-transfers watcher's blocks and logs, once a block).
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RpcCounter {
  url: string;
  /** HTTP requests seen, each a round trip (a batch is one). */
  requests: number;
  /** HTTP requests with at least one call of the method, by method. */
  requestsWith: Map<string, number>;
  /** Calls seen by method (each of a batch's). */
  calls: Map<string, number>;
  close(): Promise<void>;
}

export async function startRpcCounter(target: string): Promise<RpcCounter> {
  const counter: RpcCounter = { url: '', requests: 0, requestsWith: new Map(), calls: new Map(), close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      counter.requests++;
      try {
        const parsed = JSON.parse(body.toString()) as unknown;
        const methods = ((Array.isArray(parsed) ? parsed : [parsed]) as { method?: unknown }[]).map((call) => String(call?.method));
        for (const m of methods) counter.calls.set(m, (counter.calls.get(m) ?? 0) + 1);
        for (const m of new Set(methods)) counter.requestsWith.set(m, (counter.requestsWith.get(m) ?? 0) + 1);
      } catch {
        // not JSON: forwarded as it is, for the node to refuse
      }
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
        async (answer) => res.writeHead(answer.status, { 'content-type': 'application/json' }).end(Buffer.from(await answer.arrayBuffer())),
        () => res.socket?.destroy(),
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  counter.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  counter.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return counter;
}
