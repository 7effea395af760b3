import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * SSRF rules for webhook endpoints: only public unicast addresses may be reached. Checked when a URL is set
 * and again on every connection (the address a name resolves to can change: DNS rebinding).
 */

export interface EndpointSafety {
  checkedAt: string;
  scheme: string;
  host: string;
  port: number;
  /** Every address the host resolved to, with its range (`unicast` is public; else the blocked range it is in, see BLOCKED_RANGES). */
  resolvedAddresses: { address: string; range: string }[];
  allowed: boolean;
  /** Why not, when not allowed. */
  reason?: string;
}

export interface SafetyRules {
  /** Sandbox with WEBHOOK_ALLOW_PRIVATE=1: http and private/loopback addresses allowed. */
  allowPrivate: boolean;
}

export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** The range name of every address a webhook may reach (ipaddr.js's name for public unicast). */
export const PUBLIC_RANGE = 'unicast';

/**
 * A block no webhook may reach. `registry` names its entry where it comes from, so the table can be checked
 * against the IANA registries line by line; `embedsIPv4` marks IPv6 blocks that carry an IPv4 address (refused
 * outright rather than judged by the address inside: one rule, nothing to get wrong per translation scheme);
 * `globallyReachable` marks the entries the registry says are reachable from the Internet, refused all the same
 * (anycast relays, AS112 sinks, AMT, ORCHID identifiers: nothing a webhook receiver lives on).
 */
export interface BlockedRange {
  cidr: string;
  /** Short class name reported in endpointSafetyMetadata and errors. */
  range: string;
  registry: string;
  embedsIPv4?: true;
  globallyReachable?: true;
}

const IPV4_SPECIAL = 'IANA IPv4 Special-Purpose Address Registry';
const IPV4_SPACE = 'IANA IPv4 Address Space Registry';
const IPV6_SPECIAL = 'IANA IPv6 Special-Purpose Address Registry';
const IPV6_SPACE = 'IANA IPv6 Address Space Registry';

export const BLOCKED_RANGES: readonly BlockedRange[] = [
  // IPv4: every block of the special-purpose registry, plus multicast from the address space registry.
  { cidr: '0.0.0.0/8', range: 'unspecified', registry: `${IPV4_SPECIAL}: "This network" (RFC 791 §3.2)` },
  { cidr: '0.0.0.0/32', range: 'unspecified', registry: `${IPV4_SPECIAL}: "This host on this network" (RFC 1122 §3.2.1.3)` },
  { cidr: '10.0.0.0/8', range: 'private', registry: `${IPV4_SPECIAL}: Private-Use (RFC 1918)` },
  { cidr: '100.64.0.0/10', range: 'carrierGradeNat', registry: `${IPV4_SPECIAL}: Shared Address Space (RFC 6598)` },
  { cidr: '127.0.0.0/8', range: 'loopback', registry: `${IPV4_SPECIAL}: Loopback (RFC 1122 §3.2.1.3)` },
  { cidr: '169.254.0.0/16', range: 'linkLocal', registry: `${IPV4_SPECIAL}: Link Local (RFC 3927)` },
  { cidr: '172.16.0.0/12', range: 'private', registry: `${IPV4_SPECIAL}: Private-Use (RFC 1918)` },
  { cidr: '192.0.0.0/24', range: 'ietfProtocolAssignments', registry: `${IPV4_SPECIAL}: IETF Protocol Assignments (RFC 6890 §2.1)` },
  { cidr: '192.0.0.0/29', range: 'serviceContinuity', registry: `${IPV4_SPECIAL}: IPv4 Service Continuity Prefix (RFC 7335)` },
  { cidr: '192.0.0.8/32', range: 'dummy', registry: `${IPV4_SPECIAL}: IPv4 dummy address (RFC 7600)` },
  { cidr: '192.0.0.9/32', range: 'anycast', registry: `${IPV4_SPECIAL}: Port Control Protocol Anycast (RFC 7723)`, globallyReachable: true },
  { cidr: '192.0.0.10/32', range: 'anycast', registry: `${IPV4_SPECIAL}: Traversal Using Relays around NAT Anycast (RFC 8155)`, globallyReachable: true },
  { cidr: '192.0.0.170/32', range: 'nat64Discovery', registry: `${IPV4_SPECIAL}: NAT64/DNS64 Discovery (RFC 8880, RFC 7050 §2.2)` },
  { cidr: '192.0.0.171/32', range: 'nat64Discovery', registry: `${IPV4_SPECIAL}: NAT64/DNS64 Discovery (RFC 8880, RFC 7050 §2.2)` },
  { cidr: '192.0.2.0/24', range: 'documentation', registry: `${IPV4_SPECIAL}: Documentation (TEST-NET-1) (RFC 5737)` },
  { cidr: '192.31.196.0/24', range: 'as112', registry: `${IPV4_SPECIAL}: AS112-v4 (RFC 7535)`, globallyReachable: true },
  { cidr: '192.52.193.0/24', range: 'amt', registry: `${IPV4_SPECIAL}: AMT (RFC 7450)`, globallyReachable: true },
  { cidr: '192.88.99.0/24', range: '6to4Relay', registry: `${IPV4_SPECIAL}: Deprecated (6to4 Relay Anycast) (RFC 7526)` },
  { cidr: '192.88.99.2/32', range: '6a44Relay', registry: `${IPV4_SPECIAL}: 6a44-relay anycast address (RFC 6751)`, globallyReachable: true },
  { cidr: '192.168.0.0/16', range: 'private', registry: `${IPV4_SPECIAL}: Private-Use (RFC 1918)` },
  { cidr: '192.175.48.0/24', range: 'as112', registry: `${IPV4_SPECIAL}: Direct Delegation AS112 Service (RFC 7534)`, globallyReachable: true },
  { cidr: '198.18.0.0/15', range: 'benchmarking', registry: `${IPV4_SPECIAL}: Benchmarking (RFC 2544)` },
  { cidr: '198.51.100.0/24', range: 'documentation', registry: `${IPV4_SPECIAL}: Documentation (TEST-NET-2) (RFC 5737)` },
  { cidr: '203.0.113.0/24', range: 'documentation', registry: `${IPV4_SPECIAL}: Documentation (TEST-NET-3) (RFC 5737)` },
  { cidr: '240.0.0.0/4', range: 'reserved', registry: `${IPV4_SPECIAL}: Reserved (RFC 1112 §4)` },
  { cidr: '255.255.255.255/32', range: 'broadcast', registry: `${IPV4_SPECIAL}: Limited Broadcast (RFC 8190, RFC 919 §7)` },
  { cidr: '224.0.0.0/4', range: 'multicast', registry: `${IPV4_SPACE}: Multicast (RFC 5771)` },

  // IPv6: every block of the special-purpose registry …
  { cidr: '::1/128', range: 'loopback', registry: `${IPV6_SPECIAL}: Loopback Address (RFC 4291)` },
  { cidr: '::/128', range: 'unspecified', registry: `${IPV6_SPECIAL}: Unspecified Address (RFC 4291)` },
  { cidr: '::ffff:0:0/96', range: 'ipv4Mapped', registry: `${IPV6_SPECIAL}: IPv4-mapped Address (RFC 4291)`, embedsIPv4: true },
  { cidr: '64:ff9b::/96', range: 'nat64', registry: `${IPV6_SPECIAL}: IPv4-IPv6 Translat. (RFC 6052)`, embedsIPv4: true, globallyReachable: true },
  { cidr: '64:ff9b:1::/48', range: 'nat64', registry: `${IPV6_SPECIAL}: IPv4-IPv6 Translat. (RFC 8215)`, embedsIPv4: true },
  { cidr: '100::/64', range: 'discard', registry: `${IPV6_SPECIAL}: Discard-Only Address Block (RFC 6666)` },
  { cidr: '100:0:0:1::/64', range: 'dummy', registry: `${IPV6_SPECIAL}: Dummy IPv6 Prefix (RFC 9780)` },
  { cidr: '2001::/23', range: 'ietfProtocolAssignments', registry: `${IPV6_SPECIAL}: IETF Protocol Assignments (RFC 2928)` },
  { cidr: '2001::/32', range: 'teredo', registry: `${IPV6_SPECIAL}: TEREDO (RFC 4380, RFC 8190)`, embedsIPv4: true },
  { cidr: '2001:1::1/128', range: 'anycast', registry: `${IPV6_SPECIAL}: Port Control Protocol Anycast (RFC 7723)`, globallyReachable: true },
  { cidr: '2001:1::2/128', range: 'anycast', registry: `${IPV6_SPECIAL}: Traversal Using Relays around NAT Anycast (RFC 8155)`, globallyReachable: true },
  { cidr: '2001:1::3/128', range: 'anycast', registry: `${IPV6_SPECIAL}: DNS-SD Service Registration Protocol Anycast (RFC 9665)`, globallyReachable: true },
  { cidr: '2001:2::/48', range: 'benchmarking', registry: `${IPV6_SPECIAL}: Benchmarking (RFC 5180)` },
  { cidr: '2001:3::/32', range: 'amt', registry: `${IPV6_SPECIAL}: AMT (RFC 7450)`, globallyReachable: true },
  { cidr: '2001:4:112::/48', range: 'as112', registry: `${IPV6_SPECIAL}: AS112-v6 (RFC 7535)`, globallyReachable: true },
  { cidr: '2001:10::/28', range: 'orchid', registry: `${IPV6_SPECIAL}: Deprecated (previously ORCHID) (RFC 4843)` },
  { cidr: '2001:20::/28', range: 'orchid2', registry: `${IPV6_SPECIAL}: ORCHIDv2 (RFC 7343)`, globallyReachable: true },
  { cidr: '2001:30::/28', range: 'droneRemoteId', registry: `${IPV6_SPECIAL}: Drone Remote ID Protocol Entity Tags (DETs) Prefix (RFC 9374)`, globallyReachable: true },
  { cidr: '2001:db8::/32', range: 'documentation', registry: `${IPV6_SPECIAL}: Documentation (RFC 3849)` },
  { cidr: '2002::/16', range: '6to4', registry: `${IPV6_SPECIAL}: 6to4 (RFC 3056)`, embedsIPv4: true },
  { cidr: '2620:4f:8000::/48', range: 'as112', registry: `${IPV6_SPECIAL}: Direct Delegation AS112 Service (RFC 7534)`, globallyReachable: true },
  { cidr: '3fff::/20', range: 'documentation', registry: `${IPV6_SPECIAL}: Documentation (RFC 9637)` },
  { cidr: '5f00::/16', range: 'segmentRouting', registry: `${IPV6_SPECIAL}: Segment Routing (SRv6) SIDs (RFC 9602)` },
  { cidr: 'fc00::/7', range: 'uniqueLocal', registry: `${IPV6_SPECIAL}: Unique-Local (RFC 4193, RFC 8190)` },
  { cidr: 'fe80::/10', range: 'linkLocal', registry: `${IPV6_SPECIAL}: Link-Local Unicast (RFC 4291)` },
  // … and what only the address architecture or the address space registry names.
  { cidr: '::/96', range: 'ipv4Compatible', registry: `${IPV6_SPACE}: IPv4-compatible, deprecated (RFC 4291 §2.5.5.1)`, embedsIPv4: true },
  { cidr: '::ffff:0:0:0/96', range: 'ipv4Translated', registry: 'IPv4-translated (RFC 2765 §2.1, obsoleted; SIIT)', embedsIPv4: true },
  { cidr: 'fec0::/10', range: 'deprecatedSiteLocal', registry: `${IPV6_SPACE}: Site-local, deprecated (RFC 3879)` },
  { cidr: 'ff00::/8', range: 'multicast', registry: `${IPV6_SPACE}: Multicast (RFC 4291)` },
];

/** Everything outside it is reserved by the IETF or special-use: the only block allocated for global unicast. */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

const PARSED = BLOCKED_RANGES.map((b) => ({ ...b, net: ipaddr.parseCIDR(b.cidr) })).sort((a, b) => b.net[1] - a.net[1]);

/**
 * The textual form parsed for classification. IPv4 must be a plain dotted quad (node's isIP), never a form
 * ipaddr.js would also read (`0x7f.1`). IPv6 goes through the WHATWG serialiser first: ipaddr.js reads
 * `::1.2.3.4` (IPv4-compatible) as `::ffff:1.2.3.4` (mapped), and the canonical form has no dotted part.
 */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const family = isIP(address);
  if (family === 4) return ipaddr.IPv4.parse(address);
  if (family !== 6) return undefined;
  try {
    return ipaddr.IPv6.parse(new URL(`http://[${address}]/`).hostname.slice(1, -1));
  } catch {
    // A zone id (fe80::1%eth0) is not a URL host: only non-global addresses carry one.
    return undefined;
  }
}

/**
 * The address's class: `unicast` for a public address, else the most specific blocked range it falls in
 * (BLOCKED_RANGES), `reserved` for IPv6 outside 2000::/3, and whatever else ipaddr.js's own classification
 * knows as a last line, should its next version learn a block this table lacks.
 */
export function addressRange(address: string): string {
  const parsed = parseAddress(address);
  if (!parsed) return 'invalid';
  const blocked = PARSED.find((b) => b.net[0].kind() === parsed.kind() && parsed.match(b.net));
  if (blocked) return blocked.range;
  if (parsed.kind() === 'ipv6' && !parsed.match(IPV6_GLOBAL_UNICAST)) return 'reserved';
  return parsed.range();
}

/** Public unicast only: no IANA special-purpose block, no IPv6 carrying an IPv4 address, nothing reserved. */
export function isPublicAddress(address: string): boolean {
  return addressRange(address) === PUBLIC_RANGE;
}

/** Why a URL can never be a webhook endpoint, before any DNS: undefined when its form is acceptable. */
export function urlFormProblem(url: URL, rules: SafetyRules): string | undefined {
  if (url.protocol !== 'https:' && !(rules.allowPrivate && url.protocol === 'http:')) {
    return rules.allowPrivate ? 'the scheme must be https or http' : 'the scheme must be https';
  }
  if (url.username || url.password) return 'credentials in the URL are not allowed (use httpHeaders)';
  if (url.hash) return 'a fragment is not allowed';
  return undefined;
}

function hostOf(url: URL): string {
  // URL keeps IPv6 literals in brackets.
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Resolves the URL's host and judges every address it may connect to. */
export async function checkEndpoint(url: URL, rules: SafetyRules, now: Date, resolve: Resolver = systemResolver): Promise<EndpointSafety> {
  const host = hostOf(url);
  const base = {
    checkedAt: now.toISOString(),
    scheme: url.protocol.slice(0, -1),
    host,
    port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80,
  };
  const formProblem = urlFormProblem(url, rules);
  if (formProblem) return { ...base, resolvedAddresses: [], allowed: false, reason: formProblem };

  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return { ...base, resolvedAddresses: [], allowed: false, reason: `the host ${host} does not resolve` };
  }
  if (addresses.length === 0) return { ...base, resolvedAddresses: [], allowed: false, reason: `the host ${host} does not resolve` };
  const resolvedAddresses = addresses.map((address) => ({ address, range: addressRange(address) }));
  const blocked = rules.allowPrivate ? undefined : resolvedAddresses.find((a) => a.range !== PUBLIC_RANGE);
  if (blocked) {
    return { ...base, resolvedAddresses, allowed: false, reason: `${blocked.address} is a ${blocked.range} address; only public addresses are allowed` };
  }
  return { ...base, resolvedAddresses, allowed: true };
}
