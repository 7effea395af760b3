import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importPrivateKey } from '../../src/crypto/p256.js';
import { signRequest } from '../../src/crypto/request-signature.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';

// TRUST_PROXY (docs/deployment.md#behind-nginx-several-processes): X-Forwarded-For is the client's address only when
// the connection comes from a named proxy. The test connects from 127.0.0.1, so "127.0.0.1" makes it the proxy.
// The failure limiter (AUTH_FAILURE_LIMIT failed authentications per address a minute) shows which address counted.

describe('the client address behind a proxy (TRUST_PROXY)', () => {
  const lines: string[] = [];
  let trusting: TestServer;
  let direct: TestServer;
  let acme: SeededIntegrator;

  before(async () => {
    ({ server: trusting, tenants: [acme] } = await startTenants('pglite', ['Acme'], { TRUST_PROXY: '127.0.0.1', AUTH_FAILURE_LIMIT: '2' }, { logDestination: { write: (line: string) => void lines.push(line) } }));
    ({ server: direct } = await startTenants('pglite', [], { AUTH_FAILURE_LIMIT: '2' }));
  });
  after(async () => {
    await trusting?.close();
    await direct?.close();
  });

  /** A request whose signature is wrong: a 401 counted against the source address (429 past the limit). */
  async function badSignature(server: TestServer, forwardedFor?: string): Promise<number> {
    const headers = {
      ...signRequest(importPrivateKey(acme.privateKey), String(server.clock.seconds()), 'GET', '/v1/integrator/whoami', ''),
      'X-Signature': '0x3006020101020101',
      ...(forwardedFor === undefined ? {} : { 'X-Forwarded-For': forwardedFor }),
    };
    const res = await fetch(`${server.url}/v1/integrator/whoami`, { headers });
    await res.arrayBuffer();
    return res.status;
  }

  it("from a trusted proxy, X-Forwarded-For's last entry is the client: each client has its own window, and a spoofed earlier entry changes nothing", async () => {
    assert.deepEqual([await badSignature(trusting, '203.0.113.7'), await badSignature(trusting, '203.0.113.7')], [401, 401]);
    assert.equal(await badSignature(trusting, '203.0.113.7'), 429, 'the third failure of 203.0.113.7 in the minute');
    // As nginx forwards a client that sent its own X-Forwarded-For ($proxy_add_x_forwarded_for appends the peer).
    assert.equal(await badSignature(trusting, '198.51.100.1, 203.0.113.7'), 429, 'still 203.0.113.7: the entry a client wrote is not believed');
    assert.equal(await badSignature(trusting, '203.0.113.8'), 401, 'another client behind the same proxy has its own window');
    assert.equal((await acme.client.get('/v1/integrator/whoami')).status, 200);
    const logged = lines.map((line) => JSON.parse(line) as { msg?: string; req?: { remoteAddress?: string } }).filter((line) => line.msg === 'incoming request');
    assert.deepEqual(
      [...new Set(logged.map((line) => line.req?.remoteAddress))],
      ['203.0.113.7', '203.0.113.8', '127.0.0.1'],
      'the log names the client behind the proxy (the last request came without X-Forwarded-For)',
    );
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored: a client cannot leave its window by claiming other addresses', async () => {
    assert.deepEqual([await badSignature(direct, '203.0.113.1'), await badSignature(direct, '203.0.113.2')], [401, 401]);
    assert.equal(await badSignature(direct, '203.0.113.3'), 429, 'all three counted against 127.0.0.1');
    assert.equal(await badSignature(direct), 429);
  });
});
