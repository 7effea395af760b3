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
  /** Every address the host resolved to, with its range as ipaddr.js names it (`unicast` is public). */
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

/** The address's range; IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry. */
export function addressRange(address: string): string {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range();
}

/** Public unicast only: not loopback, private, link-local (cloud metadata), CGNAT, multicast, reserved… */
export function isPublicAddress(address: string): boolean {
  return addressRange(address) === 'unicast';
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
  const blocked = rules.allowPrivate ? undefined : resolvedAddresses.find((a) => a.range !== 'unicast');
  if (blocked) {
    return { ...base, resolvedAddresses, allowed: false, reason: `${blocked.address} is a ${blocked.range} address; only public addresses are allowed` };
  }
  return { ...base, resolvedAddresses, allowed: true };
}
