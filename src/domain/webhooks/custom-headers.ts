import { ApiError, type FieldError } from '../errors.js';

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
    const pointer = `/httpHeaders/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
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
  if (errors.length > 0) throw new ApiError('validation_failed', `${errors.length} field(s) failed validation`, { errors });
}
