import assert from 'node:assert/strict';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { importPrivateKey } from '../../src/crypto/p256.js';
import { signRequest } from '../../src/crypto/request-signature.js';
import { runAdmin, startServerProcess, type ServerProcess } from '../harness/process.js';
import { seededDataDir } from '../harness/pglite-template.js';

/*
 * SIGTERM on the server process (src/main.ts, http/drain.ts): no new connection is accepted, a request in progress
 * is answered (with Connection: close), an idle keep-alive connection is closed (at once with clients connected
 * directly; behind a proxy, TRUST_PROXY set, left open a while for the proxy to close, and a request on it is still
 * served, /readyz saying 503 draining), and the process exits 0 as soon as no connection is left.
 */

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One client connection spoken to byte by byte, to hold a request half-sent and to see when the server closes it. */
class Connection {
  private buffer = Buffer.alloc(0);
  private wake: (() => void) | undefined;
  readonly closed: Promise<void>;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake?.();
    });
    this.closed = once(socket, 'close').then(() => this.wake?.());
    socket.on('error', () => {});
  }

  static async open(port: number): Promise<Connection> {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    return new Connection(socket);
  }

  write(data: string | Buffer): void {
    this.socket.write(data);
  }

  /** The next complete response (every answer here carries Content-Length). */
  async response(timeoutMs = 10_000): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end >= 0) {
        const [statusLine, ...lines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
        const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
        const length = Number(headers['content-length'] ?? 0);
        if (this.buffer.length >= end + 4 + length) {
          const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
          this.buffer = this.buffer.subarray(end + 4 + length);
          return { status: Number(statusLine!.split(' ')[1]), headers, body };
        }
      }
      if (this.socket.destroyed && this.buffer.length === 0) assert.fail('the connection closed without an answer');
      if (Date.now() > deadline) assert.fail(`no complete answer in ${timeoutMs} ms: ${this.buffer.toString('latin1').slice(0, 500)}`);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 100);
      });
    }
  }
}

/** Polls `condition` until it holds, failing with `what` at the deadline. */
async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe('the server process stops gracefully on SIGTERM', () => {
  const env: Record<string, string> = {};
  let privateKey: string;
  after(() => env.DATA_DIR && rmSync(env.DATA_DIR, { recursive: true, force: true }));

  before(async () => {
    env.DATA_DIR = await seededDataDir('iapi-drain-');
    const created = await runAdmin(['integrators', 'create', '--name', 'Drain'], env);
    assert.equal(created.code, 0, created.stderr);
    privateKey = JSON.parse(created.stdout).privateKey;
  });

  /** Starts a signed POST and sends all but the last bytes of its body; resolves once the server has its headers. */
  async function halfSentPost(server: ServerProcess, port: number, label: string): Promise<{ connection: Connection; finish(): void }> {
    const body = Buffer.from(JSON.stringify({ label, scope: 'read_only' }));
    const path = '/v1/integrator/credentials';
    const auth = signRequest(importPrivateKey(privateKey), String(Math.floor(Date.now() / 1000)), 'POST', path, body);
    const head = [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Type: application/json', `Content-Length: ${body.length}`, ...Object.entries(auth).map(([k, v]) => `${k}: ${v}`)];
    const connection = await Connection.open(port);
    const seen = server.logs().split('\n').filter((line) => line.includes('"msg":"incoming request"') && line.includes(path)).length;
    connection.write(`${head.join('\r\n')}\r\n\r\n`);
    connection.write(body.subarray(0, 5));
    await until('the server to take the request', () => server.logs().split('\n').filter((line) => line.includes('"msg":"incoming request"') && line.includes(path)).length > seen);
    return { connection, finish: () => connection.write(body.subarray(5)) };
  }

  it('behind a proxy: refuses new connections, answers the request in progress and one more on an idle connection (/readyz 503 draining), all with Connection: close, then exits 0', async () => {
    const server = await startServerProcess({ ...env, TRUST_PROXY: '127.0.0.1' });
    try {
      const port = Number(new URL(server.url).port);
      const idle = await Connection.open(port);
      idle.write('GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      const ready = await idle.response();
      assert.deepEqual([ready.status, ready.headers.connection], [200, 'keep-alive']);
      const inFlight = await halfSentPost(server, port, 'in flight at SIGTERM');

      const signalled = Date.now();
      server.child.kill('SIGTERM');
      await until('the drain to start', () => server.logs().includes('"msg":"draining connections"'));
      await until('new connections to be refused', () => refused(port));

      idle.write('GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      const draining = await idle.response();
      assert.deepEqual([draining.status, JSON.parse(draining.body), draining.headers.connection], [503, { status: 'draining' }, 'close']);
      await idle.closed;

      inFlight.finish();
      const created = await inFlight.connection.response();
      assert.equal(created.status, 201, created.body);
      assert.equal(created.headers.connection, 'close');
      await inFlight.connection.closed;

      const [code] = (await once(server.child, 'exit')) as [number | null];
      assert.equal(code, 0, server.logs());
      assert.match(server.logs(), /"left":0,"msg":"connections drained"/);
      assert.ok(Date.now() - signalled < 5_000, `exited ${Date.now() - signalled} ms after SIGTERM: no connection was left to wait for`);
    } finally {
      await server.stop('SIGKILL');
    }
  });

  it('with clients connected directly: closes an idle keep-alive connection at once, answers the request in progress, and exits 0', async () => {
    const server = await startServerProcess(env);
    try {
      const port = Number(new URL(server.url).port);
      const idle = await Connection.open(port);
      idle.write('GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      assert.equal((await idle.response()).headers.connection, 'keep-alive');
      const inFlight = await halfSentPost(server, port, 'in flight at SIGTERM, direct');

      const signalled = Date.now();
      server.child.kill('SIGTERM');
      await idle.closed;
      assert.ok(Date.now() - signalled < 2_000, 'the idle connection is closed at once');
      await until('new connections to be refused', () => refused(port));

      inFlight.finish();
      const created = await inFlight.connection.response();
      assert.deepEqual([created.status, created.headers.connection], [201, 'close'], created.body);

      const [code] = (await once(server.child, 'exit')) as [number | null];
      assert.equal(code, 0, server.logs());
      assert.ok(Date.now() - signalled < 5_000, `exited ${Date.now() - signalled} ms after SIGTERM`);
    } finally {
      await server.stop('SIGKILL');
    }
  });
});
