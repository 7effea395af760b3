/**
 * src/http/bound-port.ts: the port a process binds before anything else at start. Until a handler serves, requests
 * are answered 503 `starting` and their connections closed; a port that cannot be had is one line naming the
 * variable. The process test (test/process/server-process.test.ts) checks that nothing is written then.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { BoundPort, PortUnavailableError } from '../../src/http/bound-port.js';

/** One raw HTTP/1.1 request on an open socket; the answer's text once the server closes the connection. */
async function requestOn(socket: ReturnType<typeof connect>): Promise<string> {
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  socket.write('GET /livez HTTP/1.1\r\nHost: x\r\n\r\n');
  await once(socket, 'close');
  return text;
}

describe('a port bound before the start', () => {
  const closing: (() => void)[] = [];
  after(() => closing.forEach((close) => close()));

  it('answers 503 starting (and closes the connection) until a handler serves, and every request on a connection opened before', async () => {
    const port = await BoundPort.bind('PORT', 0, '127.0.0.1');
    closing.push(() => port.server.close());
    const url = `http://127.0.0.1:${(port.server.address() as AddressInfo).port}`;

    const starting = await fetch(`${url}/livez`);
    assert.equal(starting.status, 503);
    assert.equal(starting.headers.get('retry-after'), '1');
    assert.equal(starting.headers.get('connection'), 'close');
    assert.deepEqual(await starting.json(), { status: 'starting' });

    // A connection the server has accepted before the handler came, its request sent after.
    const early = connect((port.server.address() as AddressInfo).port, '127.0.0.1');
    await once(port.server, 'connection');
    port.serve((_request, response) => response.end('served'));
    assert.match(await requestOn(early), /^HTTP\/1\.1 503 [\s\S]*\r\n\r\n\{"status":"starting"\}$/);

    const served = await fetch(`${url}/livez`);
    assert.equal(served.status, 200);
    assert.equal(await served.text(), 'served');
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
