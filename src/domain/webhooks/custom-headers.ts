import type { SecretBox } from '../../crypto/secret-box.js';
import { invalidFields, type FieldError } from '../errors.js';
import { joinPointer } from '../json-pointer.js';
import { sealContexts } from '../../crypto/seal-contexts.js';

/**
 * Custom headers sent with every delivery. They can never replace what the delivery itself depends on: the
 * Standard Webhooks headers, the body's framing and type, the target host, or hop-by-hop headers.
 */
const RESERVED = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'host',
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Visible ASCII, space and tab: no CR/LF (header injection), no bytes Node would refuse to send.
const VALUE = /^[\t\x20-\x7e]*$/;
export const MAX_CUSTOM_HEADERS = 20;

export function isReservedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return RESERVED.has(lower) || lower.startsWith('webhook-');
}

/** Every problem with the headers at once, as field errors under `/httpHeaders`. */
export function customHeaderErrors(headers: Record<string, string>): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const names = Object.keys(headers);
  if (names.length > MAX_CUSTOM_HEADERS) {
    errors.push({ pointer: '/httpHeaders', code: 'too_many_properties', detail: `at most ${MAX_CUSTOM_HEADERS} headers` });
  }
  for (const name of names) {
    const pointer = joinPointer('/httpHeaders', name);
    const value = headers[name]!;
    if (name.length === 0 || name.length > 100 || !TOKEN.test(name)) {
      errors.push({ pointer, code: 'invalid_header_name', detail: 'a header name is 1 to 100 token characters (RFC 9110)' });
      continue;
    }
    if (isReservedHeader(name)) {
      errors.push({ pointer, code: 'reserved_header', detail: `${name} is set by the delivery itself and cannot be overridden` });
      continue;
    }
    if (seen.has(name.toLowerCase())) errors.push({ pointer, code: 'duplicate_header', detail: 'header names are case-insensitive; this one is given twice' });
    seen.add(name.toLowerCase());
    if (typeof value !== 'string' || value.length > 1000 || !VALUE.test(value)) {
      errors.push({ pointer, code: 'invalid_header_value', detail: 'a header value is at most 1000 visible ASCII characters, spaces or tabs' });
    }
  }
  return errors;
}

export function assertCustomHeaders(headers: Record<string, string>): void {
  const errors = customHeaderErrors(headers);
  if (errors.length > 0) throw invalidFields(errors);
}

/** What views and events show instead of a header's value: values often hold a receiver's secret. */
export const MASKED = '[redacted]';

export function maskHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(headers).map((k) => [k, MASKED]));
}

/** The two columns that store custom headers: names with masked values in clear, the values only sealed. */
export interface StoredHeaders {
  httpHeaders: Record<string, string>;
  httpHeadersSealed: string | null;
}

export function sealHeaders(secrets: SecretBox, subscriptionId: string, headers: Record<string, string>): StoredHeaders {
  const none = Object.keys(headers).length === 0;
  return { httpHeaders: maskHeaders(headers), httpHeadersSealed: none ? null : secrets.seal(JSON.stringify(headers), sealContexts.webhookHeaders(subscriptionId)) };
}

/**
 * The headers with their real values. A row written before sealing (sealed null) still has them in clear
 * until maintenance seals it (sealLegacyWebhookHeaders), so those are read as they are.
 */
export function openHeaders(secrets: SecretBox, row: { id: string } & StoredHeaders): Record<string, string> {
  if (row.httpHeadersSealed === null) return row.httpHeaders;
  return JSON.parse(secrets.open(row.httpHeadersSealed, sealContexts.webhookHeaders(row.id)).toString('utf8')) as Record<string, string>;
}

/**
 * Views show values masked, so a client that sends back what it read would overwrite its secrets with the
 * mask: a masked value for a header the subscription already has keeps that header's current value.
 */
export function keepMaskedValues(next: Record<string, string>, current: Record<string, string>): Record<string, string> {
  const byName = new Map(Object.entries(current).map(([k, v]) => [k.toLowerCase(), v]));
  return Object.fromEntries(Object.entries(next).map(([k, v]) => [k, v === MASKED ? (byName.get(k.toLowerCase()) ?? v) : v]));
}

/** Same names and values, in whatever order (jsonb does not keep the order a client sent). */
export function sameHeaders(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && b[k] === a[k]);
}
