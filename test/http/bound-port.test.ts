/**
 * src/http/bound-port.ts: the port a process binds before anything else at start. A request that arrives while the
 * process starts is held and served once it is ready (beyond MAX_HELD_REQUESTS, 503 `starting`); a port that cannot
 * be had is one line naming the variable. The process test (test/process/server-process.test.ts) checks that nothing
 * is written then; test/process/nginx-recipe.test.ts that a rolling restart behind nginx fails no request.
 */
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { BoundPort, MAX_HELD_REQUESTS, PortUnavailableError } from '../../src/http/bound-port.js';

describe('a port bound before the start', () => {
  const closing: (() => void)[] = [];
  after(() => closing.forEach((close) => close()));

  it('holds the requests that arrive while starting and serves them once a handler does; a flood beyond the bound is 503 starting', async () => {
    const port = await BoundPort.bind('PORT', 0, '127.0.0.1');
    closing.push(() => port.server.close());
    const url = `http://127.0.0.1:${(port.server.address() as AddressInfo).port}`;

    const waiting = Array.from({ length: MAX_HELD_REQUESTS }, (_, i) => fetch(`${url}/livez?i=${i}`, { method: i % 2 ? 'POST' : 'GET', ...(i % 2 ? { body: '{}' } : {}) }));
    // Once every held request is in, the next one is beyond the bound.
    let beyond: Response | undefined;
    for (let attempt = 0; attempt < 1000 && !beyond; attempt++) {
      const res = await fetch(`${url}/livez?beyond`, { signal: AbortSignal.timeout(50) }).catch(() => undefined);
      if (res) beyond = res;
    }
    assert.ok(beyond, 'the request beyond the bound was answered while the others were held');
    assert.equal(beyond.status, 503);
    assert.equal(beyond.headers.get('retry-after'), '1');
    assert.deepEqual(await beyond.json(), { status: 'starting' });

    port.serve((request, response) => response.end(`served ${request.method} ${request.url}`));
    const answers = await Promise.all(waiting.map(async (res) => [(await res).status, await (await res).text()] as const));
    assert.deepEqual(answers, Array.from({ length: MAX_HELD_REQUESTS }, (_, i) => [200, `served ${i % 2 ? 'POST' : 'GET'} /livez?i=${i}`]));

    const served = await fetch(`${url}/livez`);
    assert.equal(served.status, 200);
  });

  it('a port in use: one line that names the variable, exit code 75', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    closing.push(() => taken.close());
    const number = (taken.address() as AddressInfo).port;
    await assert.rejects(BoundPort.bind('METRICS_PORT', number, '127.0.0.1'), (err: unknown) => {
      assert.ok(err instanceof PortUnavailableError);
      assert.equal(err.message, `METRICS_PORT ${number} is already in use on 127.0.0.1 (EADDRINUSE): choose another METRICS_PORT or stop the process listening there`);
      assert.equal(err.exitCode, 75);
      return true;
    });
  });

  it('a HOST that is not an address of this machine is a configuration error (78)', async () => {
    // 192.0.2.0/24 is TEST-NET-1 (RFC 5737): never a local address.
    await assert.rejects(BoundPort.bind('PORT', 0, '192.0.2.1'), (err: unknown) => {
      assert.ok(err instanceof PortUnavailableError);
      assert.match(err.message, /^HOST 192\.0\.2\.1 is not an address of this machine \(EADDRNOTAVAIL\)/);
      assert.deepEqual([err.exitCode, err.configuration], [78, true]);
      return true;
    });
  });
});
