/**
 * The webhooks bench's receiver: a bare node:http server in a child process (bench/webhooks.ts with `--receiver`)
 * answering 200 at once and noting each delivery's webhook-id and arrival time, and the client that reads them.
 */
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, startChild, type Child } from './children.js';

export interface Taken {
  ids: string[];
  at: number[];
}

export function runReceiver(port: number): void {
  let ids: string[] = [];
  let at: number[] = [];
  const server = http.createServer((req, res) => {
    if (req.url === '/_count') return void res.end(String(ids.length));
    if (req.url === '/_take') {
      const body = JSON.stringify({ ids, at } satisfies Taken);
      ids = [];
      at = [];
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    }
    ids.push(String(req.headers['webhook-id']));
    at.push(Date.now());
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  });
  server.keepAliveTimeout = 60_000;
  server.listen(port, '127.0.0.1', () => console.log(`receiver listening on ${port}`));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

export class ReceiverClient {
  constructor(
    readonly child: Child,
    readonly base: string,
  ) {}

  async count(): Promise<number> {
    return Number(await (await fetch(`${this.base}/_count`)).text());
  }

  async take(): Promise<Taken> {
    return (await (await fetch(`${this.base}/_take`)).json()) as Taken;
  }

  /** Resolves once `n` deliveries have arrived since the last take (polling), or throws after `timeoutMs`. */
  async waitFor(n: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let seen = 0;
    while ((seen = await this.count()) < n) {
      if (Date.now() > deadline) throw new Error(`only ${seen} of ${n} deliveries arrived within ${timeoutMs / 1000} s`);
      await sleep(20);
    }
  }
}

export async function startReceiver(): Promise<ReceiverClient> {
  const port = await freePort();
  const child = startChild('receiver', ['--import', 'tsx', 'bench/webhooks.ts', '--receiver', String(port)], {});
  const receiver = new ReceiverClient(child, `http://127.0.0.1:${port}`);
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await receiver.count();
      return receiver;
    } catch {
      if (child.proc.exitCode !== null || Date.now() > deadline) throw new Error(`receiver did not start:\n${child.tail()}`);
      await sleep(100);
    }
  }
}
