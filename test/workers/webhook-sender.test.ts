import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Resolver } from '../../src/domain/webhooks/url-safety.js';
import { attemptFields, type SendOutcome } from '../../src/domain/webhooks/attempt-outcome.js';
import { WebhookSender } from '../../src/workers/webhook-sender.js';
import { startReceiver, type Receiver } from '../harness/receiver.js';
import { rows } from '../harness/table.js';

/** A resolver for made-up names only: the system DNS is never asked, so these tests run offline. */
function fakeDns(table: Record<string, string[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (host: string) => {
    asked.push(host);
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses;
  };
  return Object.assign(resolve, { asked });
}

/** The error an attempt with this outcome records (null when the receiver answered). */
const errorOf = (o: SendOutcome): string | null => attemptFields(o).error;

const HEADERS = { 'content-type': 'application/json', 'webhook-id': 'evt_1' };

describe('WebhookSender connect-time address check', () => {
  let receiver: Receiver;
  const senders: WebhookSender[] = [];
  const sender = (allowPrivate: boolean, resolve?: Resolver) => {
    const s = new WebhookSender({ timeoutMs: 5000, allowPrivate, ...(resolve ? { resolve } : {}) });
    senders.push(s);
    return s;
  };

  before(async () => {
    receiver = await startReceiver();
  });
  afterEach(() => {
    for (const s of senders.splice(0)) s.close();
  });
  after(() => receiver.close());

  it('refuses a host name that (re-)resolves to 127.0.0.1 (DNS rebinding): nothing reaches the receiver', async () => {
    const dns = fakeDns({ 'rebind.test': ['127.0.0.1'] });
    const before = receiver.requests.length;
    const result = await sender(false, dns).send(`https://rebind.test:${receiver.port}/hook`, HEADERS, '{"a":1}');
    assert.equal(result.kind, 'refused_address');
    assert.ok(errorOf(result)?.startsWith('blocked_address'), errorOf(result) ?? 'no error');
    assert.match(errorOf(result)!, /127\.0\.0\.1 is a loopback address/);
    assert.deepEqual(dns.asked, ['rebind.test'], 'the check happened at connect time, through the injected resolver');
    assert.equal(receiver.requests.length, before, 'the receiver got nothing');
  });

  it('refuses when any resolved address is private, even next to a public one', async () => {
    const dns = fakeDns({ 'mixed.test': ['93.184.216.34', '10.1.2.3'], 'meta.test': ['169.254.169.254'], 'v6.test': ['::1'] });
    const s = sender(false, dns);
    for (const [host, range] of rows(`
      mixed.test | private
      meta.test  | linkLocal
      v6.test    | loopback
    `, 2)) {
      const result = await s.send(`https://${host}:${receiver.port}/hook`, HEADERS, '{}');
      assert.equal(result.kind, 'refused_address', host);
      assert.ok(errorOf(result)?.startsWith('blocked_address'), `${host}: ${errorOf(result)}`);
      assert.ok(errorOf(result)!.includes(`a ${range} address`), `${host}: ${errorOf(result)}`);
    }
    assert.equal(receiver.requests.length, 0);
  });

  it('refuses IP literals of non-public ranges before connecting (IPv4, IPv6, IPv4-mapped), whatever the scheme', async () => {
    const dns = fakeDns({});
    const s = sender(false, dns);
    for (const url of [
      `https://127.0.0.1:${receiver.port}/hook`,
      `http://127.0.0.1:${receiver.port}/hook`,
      `https://[::1]:${receiver.port}/hook`,
      `https://[::ffff:127.0.0.1]:${receiver.port}/hook`,
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      // IPv6 forms carrying 127.0.0.1: IPv4-compatible, NAT64, 6to4, Teredo (client 127.0.0.1, obfuscated).
      `https://[::127.0.0.1]:${receiver.port}/hook`,
      `https://[64:ff9b::127.0.0.1]:${receiver.port}/hook`,
      `https://[2002:7f00:1::1]:${receiver.port}/hook`,
      `https://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${receiver.port}/hook`,
    ]) {
      const result = await s.send(url, HEADERS, '{}');
      assert.equal(result.kind, 'refused_address', url);
      assert.ok(errorOf(result)?.startsWith('blocked_address'), `${url}: ${errorOf(result)}`);
    }
    assert.deepEqual(dns.asked, [], 'literals are judged without any lookup');
    assert.equal(receiver.requests.length, 0);
  });

  it('refuses a name resolving to an IPv6 address that embeds an IPv4 address (IPv4-compatible, NAT64, 6to4), at connect time', async () => {
    const dns = fakeDns({ 'compat.test': ['::7f00:1'], 'nat64.test': ['64:ff9b::a9fe:a9fe'], 'sixtofour.test': ['2002:7f00:1::1'], 'special.test': ['192.0.0.9'] });
    const s = sender(false, dns);
    for (const [host, range] of rows(`
      compat.test    | ipv4Compatible
      nat64.test     | nat64
      sixtofour.test | 6to4
      special.test   | anycast
    `, 2)) {
      const result = await s.send(`https://${host}:${receiver.port}/hook`, HEADERS, '{}');
      assert.equal(result.kind, 'refused_address', host);
      assert.ok(errorOf(result)?.startsWith('blocked_address') && errorOf(result)!.includes(`a ${range} address`), `${host}: ${errorOf(result)}`);
    }
    assert.deepEqual(dns.asked, ['compat.test', 'nat64.test', 'sixtofour.test', 'special.test']);
    assert.equal(receiver.requests.length, 0);
  });

  it('refuses http and other schemes when private addresses are not allowed', async () => {
    const dns = fakeDns({ 'rebind.test': ['127.0.0.1'] });
    const s = sender(false, dns);
    const plain = await s.send(`http://rebind.test:${receiver.port}/hook`, HEADERS, '{}');
    assert.deepEqual([plain.kind, errorOf(plain)], ['refused_url', 'scheme_not_allowed: http:']);
    const ftp = await s.send(`ftp://rebind.test:${receiver.port}/hook`, HEADERS, '{}');
    assert.deepEqual([ftp.kind, errorOf(ftp)], ['refused_url', 'scheme_not_allowed: ftp:']);
    const invalid = await s.send('not a url', HEADERS, '{}');
    assert.deepEqual([invalid.kind, errorOf(invalid)], ['refused_url', 'invalid_url']);
    assert.equal(receiver.requests.length, 0);
  });

  it('with allowPrivate, connects through the injected resolver and sends the exact body and headers', async () => {
    const dns = fakeDns({ 'rebind.test': ['127.0.0.1'] });
    receiver.respond({ status: 202, headers: { 'retry-after': '7' }, body: 'accepted' });
    const body = JSON.stringify({ hello: 'wörld', n: 1 });
    const sent = sender(true, dns).send(`http://rebind.test:${receiver.port}/hook?x=1`, { ...HEADERS, 'x-custom': 'v' }, body);
    const got = await receiver.next();
    const result = await sent;
    assert.deepEqual(dns.asked, ['rebind.test']);
    assert.equal(got.method, 'POST');
    assert.equal(got.path, '/hook?x=1');
    assert.ok(got.rawBody.equals(Buffer.from(body, 'utf8')));
    assert.equal(got.header('content-length'), String(Buffer.byteLength(body)));
    assert.equal(got.header('content-type'), 'application/json');
    assert.equal(got.header('x-custom'), 'v');
    assert.equal(got.header('host'), `rebind.test:${receiver.port}`);
    assert.deepEqual(result, { kind: 'delivered', status: 202, body: 'accepted', durationMs: result.durationMs });
    assert.ok(Number.isInteger(result.durationMs) && result.durationMs >= 0);
  });

  it('keeps only the first 1 KiB of a response and does not follow redirects', async () => {
    const s = sender(true);
    receiver.respond({ status: 500, headers: { 'retry-after': '7' }, body: 'x'.repeat(5000) }, { status: 302, headers: { location: `${receiver.url}/elsewhere` }, body: '' });
    const big = s.send(`${receiver.url}/big`, HEADERS, '{}');
    await receiver.next();
    const bigResult = await big;
    assert.deepEqual(bigResult, { kind: 'http_error', status: 500, body: 'x'.repeat(1024), retryAfter: '7', durationMs: bigResult.durationMs });

    const count = receiver.requests.length;
    const redirected = s.send(`${receiver.url}/redirect`, HEADERS, '{}');
    await receiver.next();
    const redirectResult = await redirected;
    assert.equal(redirectResult.kind, 'http_error');
    assert.equal(attemptFields(redirectResult).responseStatus, 302);
    assert.equal(receiver.requests.length, count + 1, 'the Location was not followed');
  });

  it('reports a refused connection as an error, not a status', async () => {
    const closed = await startReceiver();
    const url = `${closed.url}/hook`;
    await closed.close();
    const result = await sender(true).send(url, HEADERS, '{}');
    assert.equal(result.kind, 'network_error');
    assert.match(errorOf(result) ?? '', /^ECONNREFUSED/);
  });
});
