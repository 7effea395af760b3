import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { addressRange, BLOCKED_RANGES, checkEndpoint, isPublicAddress, type Resolver } from '../../../src/domain/webhooks/url-safety.js';
import { rows } from '../../harness/table.js';

/**
 * The IANA registries as this test reads them (iana-ipv4-special-registry, iana-ipv6-special-registry, and the
 * address space registries' multicast and deprecated blocks), written here independently of the source table.
 */
const IPV4_REGISTRY = [
  '0.0.0.0/8',
  '0.0.0.0/32',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.0.0/29',
  '192.0.0.8/32',
  '192.0.0.9/32',
  '192.0.0.10/32',
  '192.0.0.170/32',
  '192.0.0.171/32',
  '192.0.2.0/24',
  '192.31.196.0/24',
  '192.52.193.0/24',
  '192.88.99.0/24',
  '192.88.99.2/32',
  '192.168.0.0/16',
  '192.175.48.0/24',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '240.0.0.0/4',
  '255.255.255.255/32',
];
const IPV4_OTHER = ['224.0.0.0/4'];
const IPV6_REGISTRY = [
  '::1/128',
  '::/128',
  '::ffff:0:0/96',
  '64:ff9b::/96',
  '64:ff9b:1::/48',
  '100::/64',
  '100:0:0:1::/64',
  '2001::/23',
  '2001::/32',
  '2001:1::1/128',
  '2001:1::2/128',
  '2001:1::3/128',
  '2001:2::/48',
  '2001:3::/32',
  '2001:4:112::/48',
  '2001:10::/28',
  '2001:20::/28',
  '2001:30::/28',
  '2001:db8::/32',
  '2002::/16',
  '2620:4f:8000::/48',
  '3fff::/20',
  '5f00::/16',
  'fc00::/7',
  'fe80::/10',
];
const IPV6_OTHER = ['::/96', '::ffff:0:0:0/96', 'fec0::/10', 'ff00::/8'];

// Address arithmetic on plain numbers, so the test does not lean on the library the source uses.
const v4 = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
const v4Number = (s: string) => s.split('.').reduce((n, o) => n * 256 + Number(o), 0);
const v6 = (n: bigint) => Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');
function v6Number(s: string): bigint {
  const [head, tail] = s.includes('::') ? s.split('::') : [s, undefined];
  const groups = (g: string | undefined) => (g ? g.split(':') : []);
  const all = tail === undefined ? groups(head) : [...groups(head), ...Array(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)];
  return all.reduce((n, g) => (n << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** First, last and a middle address of a block. */
function samples(cidr: string): string[] {
  const [base, bits] = cidr.split('/') as [string, string];
  if (base.includes(':')) {
    const size = 1n << BigInt(128 - Number(bits));
    const first = v6Number(base);
    return [first, first + size / 2n, first + size - 1n].map(v6);
  }
  const size = 2 ** (32 - Number(bits));
  const first = v4Number(base);
  return [first, first + Math.floor(size / 2), first + size - 1].map(v4);
}

/** Every way an IPv6 address can carry the IPv4 address `n` (text forms with a dotted tail where the form has one). */
function embeddings(n: number, r: number): string[] {
  const dotted = v4(n);
  const hi = (n >>> 16).toString(16);
  const lo = (n & 0xffff).toString(16);
  const [a, b, c, d] = dotted.split('.').map(Number) as [number, number, number, number];
  const rand = (shift: number) => ((r >>> shift) & 0xffff).toString(16);
  const h = (x: number) => x.toString(16);
  return [
    `::${dotted}`, // IPv4-compatible
    `::${hi}:${lo}`,
    `::ffff:${dotted}`, // IPv4-mapped
    `::ffff:${hi}:${lo}`,
    `::ffff:0:${dotted}`, // IPv4-translated
    `::ffff:0:${hi}:${lo}`,
    `64:ff9b::${dotted}`, // NAT64 well-known prefix
    `64:ff9b::${hi}:${lo}`,
    `64:ff9b:1:${h((a << 8) | b)}:${h(c)}:${h(d << 8)}:${rand(0)}:${rand(16)}`, // NAT64 local-use /48 (RFC 6052 §2.2 layout)
    `2002:${hi}:${lo}::`, // 6to4
    `2002:${hi}:${lo}:${rand(0)}:${rand(16)}::1`,
    `2001:0:${hi}:${lo}:0:${rand(0)}:${rand(8)}:${rand(16)}`, // Teredo: IPv4 as the server
    `2001:0:4136:e378:8000:${rand(0)}:${h(~n >>> 16 & 0xffff)}:${h(~n & 0xffff)}`, // Teredo: IPv4 as the (obfuscated) client
  ];
}

const arbitraryBlock = (cidrs: string[]) =>
  fc.constantFrom(...cidrs).chain((cidr) => {
    const [base, bits] = cidr.split('/') as [string, string];
    return fc.integer({ min: 0, max: 2 ** (32 - Number(bits)) - 1 }).map((offset) => v4Number(base) + offset);
  });

// First octets in which the IPv4 registries reserve nothing: an oracle for "public" independent of the source.
const PUBLIC_FIRST_OCTETS = Array.from({ length: 223 }, (_, i) => i + 1).filter((o) => ![10, 100, 127, 169, 172, 192, 198, 203].includes(o));
const publicIPv4 = fc.tuple(fc.constantFrom(...PUBLIC_FIRST_OCTETS), fc.integer({ min: 0, max: 0xffffff })).map(([o, rest]) => v4(o * 2 ** 24 + rest));
// 2000::/3 without the hextets holding special-purpose blocks (2001::/23, 2002::/16, 2620:4f:8000::/48, 3fff::/20).
const publicIPv6 = fc
  .tuple(fc.integer({ min: 0x2000, max: 0x3ffe }).filter((g) => ![0x2001, 0x2002, 0x2620].includes(g)), fc.bigInt({ min: 0n, max: (1n << 112n) - 1n }))
  .map(([g, rest]) => v6((BigInt(g) << 112n) | rest));

const noDns: Resolver & { asked: string[] } = Object.assign(
  async (host: string): Promise<string[]> => {
    noDns.asked.push(host);
    throw new Error(`no DNS in this test (${host})`);
  },
  { asked: [] as string[] },
);
const NOW = new Date('2026-11-22T12:00:00Z');
const STRICT = { allowPrivate: false };

describe('webhook URL safety: address classification', () => {
  for (const [registry, cidrs] of [
    ['IANA IPv4 Special-Purpose Address Registry', IPV4_REGISTRY],
    ['IANA IPv4 Address Space (multicast)', IPV4_OTHER],
    ['IANA IPv6 Special-Purpose Address Registry', IPV6_REGISTRY],
    ['IPv6 address architecture / address space (IPv4-compatible, IPv4-translated, site-local, multicast)', IPV6_OTHER],
  ] as const) {
    for (const cidr of cidrs) {
      it(`${registry}: ${cidr} is refused (first, middle and last address) and listed in the source table`, () => {
        for (const address of samples(cidr)) {
          const range = addressRange(address);
          assert.ok(range !== 'unicast' && range !== 'invalid', `${address} (${cidr}) classified as ${range}`);
          assert.equal(isPublicAddress(address), false, address);
        }
        assert.ok(
          BLOCKED_RANGES.some((b) => b.cidr === cidr),
          `${cidr} is written in BLOCKED_RANGES with its registry name`,
        );
      });
    }
  }

  it('the review: IPv4-compatible, NAT64, 6to4 and Teredo forms of loopback and metadata are refused', () => {
    for (const [address, range] of rows(`
      ::127.0.0.1                          | ipv4Compatible
      ::7f00:1                             | ipv4Compatible
      ::a9fe:a9fe                          | ipv4Compatible
      ::ffff:127.0.0.1                     | ipv4Mapped
      ::ffff:7f00:1                        | ipv4Mapped
      ::ffff:0:7f00:1                      | ipv4Translated
      64:ff9b::7f00:1                      | nat64
      64:ff9b::169.254.169.254             | nat64
      64:ff9b:1:7f00:0:100::               | nat64
      2002:7f00:1::                        | 6to4
      2002:a9fe:a9fe::1                    | 6to4
      2001:0:4136:e378:8000:63bf:80ff:fffe | teredo
      2001::1                              | teredo
    `, 2)) {
      assert.equal(addressRange(address), range, address);
    }
  });

  it('also refuses IPv6 outside 2000::/3, and is exact at block edges: the neighbours of a block stay public', () => {
    for (const address of ['::2', '4000::1', '100:1::1', 'e000::1', '1::1']) assert.notEqual(addressRange(address), 'unicast', address);
    for (const address of ['100.63.255.255', '100.128.0.0', '172.15.255.255', '172.32.0.0', '198.17.255.255', '198.20.0.0', '192.0.1.255', '192.0.3.0', '223.255.255.255', '9.255.255.255', '11.0.0.0', '1.1.1.1', '8.8.8.8']) {
      assert.equal(addressRange(address), 'unicast', address);
    }
    for (const address of ['2001:200::1', '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db9::', '2003::1', '2620:4f:7fff::1', '2620:4f:8001::1', '3ffe:ffff::1', '2606:4700:4700::1111']) {
      assert.equal(addressRange(address), 'unicast', address);
    }
  });

  it('refuses what is not an address at all rather than guessing (forms only a URL parser should normalise, zone ids)', () => {
    for (const text of ['0x7f.1', '2130706433', '127.1', 'fe80::1%eth0', 'localhost', '']) assert.equal(addressRange(text), 'invalid', text);
  });

  it('property: every IPv6 embedding of an IPv4 address in a special range is refused, as is the address itself', () => {
    fc.assert(
      fc.property(arbitraryBlock([...IPV4_REGISTRY, ...IPV4_OTHER]), fc.nat(), (n, r) => {
        assert.equal(isPublicAddress(v4(n)), false, v4(n));
        for (const address of embeddings(n, r)) assert.equal(isPublicAddress(address), false, `${address} (carries ${v4(n)})`);
      }),
      { numRuns: 500 },
    );
  });

  it('property: an IPv6 address carrying any IPv4 address, even a public one, is refused', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.nat(), (n, r) => {
        for (const address of embeddings(n, r)) assert.equal(isPublicAddress(address), false, `${address} (carries ${v4(n)})`);
      }),
      { numRuns: 500 },
    );
  });

  it('property: random public IPv4 and global unicast IPv6 addresses are accepted', () => {
    fc.assert(fc.property(publicIPv4, (address) => assert.equal(addressRange(address), 'unicast', address)), { numRuns: 1000 });
    fc.assert(fc.property(publicIPv6, (address) => assert.equal(addressRange(address), 'unicast', address)), { numRuns: 1000 });
  });
});

describe('webhook URL safety: URLs', () => {
  it('IP literals in odd forms are normalised by the URL parser and judged without DNS', async () => {
    noDns.asked.length = 0;
    for (const [url, address, range] of rows(`
      https://0x7f.1/hook                          | 127.0.0.1          | loopback
      https://2130706433/hook                      | 127.0.0.1          | loopback
      https://0177.0.0.1/hook                      | 127.0.0.1          | loopback
      https://127.1/hook                           | 127.0.0.1          | loopback
      https://0xa9.0xfe.0xa9.0xfe/latest/meta-data | 169.254.169.254    | linkLocal
      https://[::ffff:7f00:1]/hook                 | ::ffff:7f00:1      | ipv4Mapped
      https://[::ffff:127.0.0.1]/hook              | ::ffff:7f00:1      | ipv4Mapped
      https://[::127.0.0.1]/hook                   | ::7f00:1           | ipv4Compatible
      https://[0:0:0:0:0:0:7f00:1]/hook            | ::7f00:1           | ipv4Compatible
      https://[64:ff9b::169.254.169.254]/hook      | 64:ff9b::a9fe:a9fe | nat64
      https://[2002:7f00:1::]/hook                 | 2002:7f00:1::      | 6to4
      https://[2001::7f00:1]/hook                  | 2001::7f00:1       | teredo
    `, 3)) {
      const safety = await checkEndpoint(new URL(url), STRICT, NOW, noDns);
      assert.equal(safety.allowed, false, url);
      assert.deepEqual(safety.resolvedAddresses, [{ address, range }], url);
      assert.equal(safety.reason, `${address} is a ${range} address; only public addresses are allowed`, url);
    }
    // The same hosts over http are refused before any address is looked at.
    for (const url of ['http://0x7f.1/', 'http://2130706433/', 'http://[::ffff:7f00:1]/']) {
      const safety = await checkEndpoint(new URL(url), STRICT, NOW, noDns);
      assert.deepEqual([safety.allowed, safety.reason], [false, 'the scheme must be https'], url);
    }
    assert.deepEqual(noDns.asked, [], 'literals never reach the resolver');
  });

  it('a name is refused when any address it resolves to embeds an IPv4 address or is special-purpose', async () => {
    for (const addresses of [['93.184.216.34', '::7f00:1'], ['64:ff9b::a9fe:a9fe'], ['2606:4700::1', '2002:a00:1::1'], ['192.0.0.9'], ['2001:20::1']]) {
      const safety = await checkEndpoint(new URL('https://hooks.example.test/x'), STRICT, NOW, async () => addresses);
      assert.equal(safety.allowed, false, addresses.join());
    }
    const ok = await checkEndpoint(new URL('https://hooks.example.test/x'), STRICT, NOW, async () => ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
    assert.equal(ok.allowed, true);
  });

  it('WEBHOOK_ALLOW_PRIVATE (sandbox) still allows http and any address, with its range recorded', async () => {
    const rules = { allowPrivate: true };
    const literal = await checkEndpoint(new URL('http://0x7f.1:8080/hook'), rules, NOW, noDns);
    assert.deepEqual([literal.allowed, literal.resolvedAddresses], [true, [{ address: '127.0.0.1', range: 'loopback' }]]);
    const named = await checkEndpoint(new URL('http://receiver.test/hook'), rules, NOW, async () => ['::7f00:1']);
    assert.deepEqual([named.allowed, named.resolvedAddresses], [true, [{ address: '::7f00:1', range: 'ipv4Compatible' }]]);
  });
});

describe('the refusal of a webhook URL names the sandbox switch, in sandbox only', () => {
  it('says WEBHOOK_ALLOW_PRIVATE=1 on a sandbox without it; never in production', async () => {
    const { safeEndpoint } = await import('../../../src/domain/webhooks/subscription-input.js');
    const now = new Date();
    const refusal = async (sandbox: boolean) => {
      try {
        await safeEndpoint('http://127.0.0.1:3000/hook', { rules: { allowPrivate: false }, sandbox }, now);
      } catch (err) {
        return (err as { code: string; detail: string }).detail;
      }
      throw new Error('not refused');
    };
    assert.match(await refusal(true), /WEBHOOK_ALLOW_PRIVATE=1/);
    assert.doesNotMatch(await refusal(false), /WEBHOOK_ALLOW_PRIVATE/);
  });
});
