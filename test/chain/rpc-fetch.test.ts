import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ChainClient } from '../../src/chain/chain-client.js';
import { RECEIPT_BATCH } from '../../src/chain/receipts.js';
import { RpcFailure } from '../../src/chain/rpc-failure.js';

/*
 * The fetch viem calls for JSON-RPC (src/chain/rpc-fetch.ts), and the bare JSON-RPC post of the request path
 * (postJsonRpc: broadcast, pre-flight), against local HTTP servers that answer as nodes do and as they fail: every
 * answer reaches the chain client as it did through the global fetch, by either way.
 */

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

async function node(handler: Handler): Promise<{ url: string; server: Server; bodies: string[] }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push(body);
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, bodies };
}

const reply = (res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) => {
  res.writeHead(status, headers);
  res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
};

const PENDING = `0x${'aa'.repeat(32)}` as const;

/** Each way the chain client reaches a node: viem's client (chainIdOfNode) and the bare post (broadcast, preflight, head, receipts). */
const WAYS: [string, (client: ChainClient) => Promise<unknown>][] = [
  ['viem', (client) => client.chainIdOfNode()],
  ['broadcast', (client) => client.broadcast('0x02')],
  ['preflight', (client) => client.preflight('0x0000000000000000000000000000000000000001', { chainId: 8453, nonce: 0 })],
  ['head', (client) => client.blockNumber()],
  // A round's receipts answer each hash's failure in their map: thrown here to be checked as the others.
  [
    'receipts',
    async (client) => {
      const answer = (await client.receipts([PENDING])).get(PENDING);
      if (answer instanceof RpcFailure) throw answer;
      return answer;
    },
  ],
];

const failsWith = (code: string) => (err: unknown) => {
  assert.ok(err instanceof RpcFailure, `expected an RpcFailure, got ${String(err)}`);
  assert.equal(err.code, code, err.message);
  return true;
};

describe('JSON-RPC over undici request (rpc-fetch)', () => {
  const servers: Server[] = [];
  let ok: Awaited<ReturnType<typeof node>>;

  before(async () => {
    ok = await node((_req, body, res) => {
      const call = JSON.parse(body) as { id: number; method: string };
      reply(res, 200, { jsonrpc: '2.0', id: call.id, result: call.method === 'eth_chainId' ? '0x2105' : '0x0' });
    });
    servers.push(ok.server);
  });
  after(() => servers.forEach((s) => s.close()));

  it('posts one JSON-RPC call as JSON and reads the answer', async () => {
    const client = new ChainClient(8453, ok.url, 2_000);
    assert.equal(await client.chainIdOfNode(), 8453);
    const sent = JSON.parse(ok.bodies.at(-1)!) as { jsonrpc: string; method: string };
    assert.equal(sent.jsonrpc, '2.0');
    assert.equal(sent.method, 'eth_chainId');
  });

  it('a round’s receipts go as one JSON-RPC batch; each answer, an error included, reaches its own hash', async () => {
    const batching = await node((_req, body, res) => {
      const calls = JSON.parse(body) as { id: number; params: [string] }[];
      assert.ok(Array.isArray(calls), 'one batch');
      reply(
        res,
        200,
        calls.map((call) =>
          call.params[0].endsWith('ee')
            ? { jsonrpc: '2.0', id: call.id, error: { code: -32603, message: 'internal error' } }
            : call.params[0].endsWith('bb')
              ? { jsonrpc: '2.0', id: call.id, result: { transactionHash: call.params[0], blockHash: call.params[0], blockNumber: '0x1', transactionIndex: '0x0', gasUsed: '0x5208', status: '0x2' } }
              : call.params[0].endsWith('cc')
                ? { jsonrpc: '2.0', id: call.id, result: 'mined' }
                : { jsonrpc: '2.0', id: call.id, result: null },
        ),
      );
    });
    servers.push(batching.server);
    const pending = `0x${'aa'.repeat(32)}` as const;
    const failing = `0x${'ee'.repeat(32)}` as const;
    const oddStatus = `0x${'bb'.repeat(32)}` as const;
    const notAReceipt = `0x${'cc'.repeat(32)}` as const;
    const answers = await new ChainClient(8453, batching.url, 2_000).receipts([pending, failing, oddStatus, notAReceipt]);
    assert.equal(batching.bodies.length, 1, 'one HTTP request');
    assert.equal((JSON.parse(batching.bodies[0]!) as unknown[]).length, 4);
    assert.equal(answers.get(pending), null);
    for (const hash of [failing, oddStatus, notAReceipt]) {
      assert.ok(answers.get(hash) instanceof RpcFailure, hash);
      assert.equal((answers.get(hash) as RpcFailure).code, 'rpc_error');
    }
  });

  it('more receipts than a batch holds go as several batches, each hash answered', async () => {
    const counting = await node((_req, body, res) => {
      const calls = JSON.parse(body) as { id: number }[];
      reply(res, 200, calls.map((call) => ({ jsonrpc: '2.0', id: call.id, result: null })));
    });
    servers.push(counting.server);
    const hashes = Array.from({ length: RECEIPT_BATCH + 1 }, (_, i) => `0x${i.toString(16).padStart(64, '0')}` as const);
    const answers = await new ChainClient(8453, counting.url, 2_000).receipts(hashes);
    assert.deepEqual(counting.bodies.map((b) => (JSON.parse(b) as unknown[]).length), [RECEIPT_BATCH, 1]);
    assert.deepEqual([...answers.keys()], hashes);
    assert.ok([...answers.values()].every((a) => a === null));
  });

  it('a node’s JSON-RPC error is classified as before (nonce too low, insufficient funds)', async () => {
    const refusing = await node((_req, body, res) => {
      const call = JSON.parse(body) as { id: number };
      reply(res, 200, { jsonrpc: '2.0', id: call.id, error: { code: -32000, message: 'insufficient funds for gas * price + value' } });
    });
    servers.push(refusing.server);
    await assert.rejects(new ChainClient(8453, refusing.url, 2_000).broadcast('0x02'), failsWith('insufficient_funds'));
  });

  it('a broadcast answered with something other than a transaction hash is an rpc_error', async () => {
    for (const result of [null, '0x1234', 42]) {
      const odd = await node((_req, body, res) => reply(res, 200, { jsonrpc: '2.0', id: (JSON.parse(body) as { id: number }).id, result }));
      servers.push(odd.server);
      await assert.rejects(new ChainClient(8453, odd.url, 2_000).broadcast('0x02'), failsWith('rpc_error'));
    }
    // Not a JSON-RPC response at all: JSON null, a number, text.
    for (const payload of ['null', '7', 'hello']) {
      const odd = await node((_req, _body, res) => reply(res, 200, payload));
      servers.push(odd.server);
      for (const [way, call] of WAYS.slice(1)) await assert.rejects(call(new ChainClient(8453, odd.url, 2_000)), failsWith('rpc_error'), `${way} of ${payload}`);
    }
  });

  it('an HTTP error status with a JSON-RPC error body keeps the node’s message; one without it is an rpc_error', async () => {
    const throttled = await node((_req, body, res) => {
      const call = JSON.parse(body) as { id: number };
      reply(res, 429, { jsonrpc: '2.0', id: call.id, error: { code: -32005, message: 'nonce too low: next nonce 7' } });
    });
    const broken = await node((_req, _body, res) => reply(res, 500, 'upstream exploded', { 'content-type': 'text/plain' }));
    servers.push(throttled.server, broken.server);
    await assert.rejects(new ChainClient(8453, throttled.url, 2_000).broadcast('0x02'), failsWith('nonce_too_low'));
    for (const [way, call] of WAYS) await assert.rejects(call(new ChainClient(8453, broken.url, 2_000)), failsWith('rpc_error'), way);
  });

  it('no node listening, or a connection cut before the answer: rpc_unreachable', async () => {
    const gone = await node(() => {});
    const url = gone.url;
    await new Promise<void>((resolve) => gone.server.close(() => resolve()));
    const cutting = await node((req) => req.socket.destroy());
    servers.push(cutting.server);
    for (const [way, call] of WAYS) {
      await assert.rejects(call(new ChainClient(8453, url, 2_000)), failsWith('rpc_unreachable'), way);
      await assert.rejects(call(new ChainClient(8453, cutting.url, 2_000)), failsWith('rpc_unreachable'), way);
    }
  });

  it('a node that does not answer in time: rpc_unreachable after the client’s timeout, not later', async () => {
    const silent = await node(() => {});
    // Headers sent, then the body stalls: the bare post's second timer.
    const stalling = await node((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"jsonrpc":');
    });
    servers.push(silent.server, stalling.server);
    for (const [way, call] of WAYS) {
      for (const target of [silent, stalling]) {
        const started = performance.now();
        await assert.rejects(call(new ChainClient(8453, target.url, 300)), failsWith('rpc_unreachable'), way);
        assert.ok(performance.now() - started < 5_000, way);
      }
    }
    silent.server.closeAllConnections();
    stalling.server.closeAllConnections();
  });

  it('an answer larger than the limit is refused while it arrives (rpc_error), never buffered whole', async () => {
    let written = 0;
    let stopped = false;
    const flooding = await node((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      const pump = () => {
        while (!stopped && written < 64 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (stopped = true));
      pump();
    });
    servers.push(flooding.server);
    for (const [way, call] of WAYS) {
      written = 0;
      stopped = false;
      await assert.rejects(call(new ChainClient(8453, flooding.url, 10_000)), failsWith('rpc_error'), way);
      await new Promise<void>((resolve) => (stopped ? resolve() : setImmediate(resolve)));
      assert.ok(written < 64 * 1024 * 1024, `${way}: the client read on to ${written} bytes`);
    }
  });
});
