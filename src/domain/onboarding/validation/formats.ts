/**
 * Format predicates shared by several validators. Each takes a string (callers check the type first)
 * and bounds the input length before any regular expression runs.
 */

// A deliberately sane subset of RFC 5322: dot-atom local part, LDH domain labels, alphabetic or
// punycode TLD. Quoted local parts, IP literals and comments are legal but never seen from real users
// and are rejected; so are non-ASCII (EAI) addresses, which downstream mailers often cannot deliver to.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const TLD = /^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

export function isEmail(value: string): boolean {
  if (value.length > 254) return false;
  const at = value.lastIndexOf('@');
  if (at <= 0) return false;
  const local = value.slice(0, at);
  const labels = value.slice(at + 1).split('.');
  if (local.length > 64 || labels.length < 2) return false;
  return LOCAL_PART.test(local) && labels.every((l) => DOMAIN_LABEL.test(l)) && TLD.test(labels[labels.length - 1] ?? '');
}

/**
 * An absolute http: or https: URL with a host, as WHATWG URL parses it; no embedded credentials. The
 * explicit "//" test matters: WHATWG would otherwise repair "http:example.com" into a valid URL.
 */
export function isHttpUrl(value: string): boolean {
  // Raw whitespace and control characters are never part of a URL as sent (they would be percent-encoded).
  if (value.length > 2048 || !/^https?:\/\//i.test(value) || /[\s\p{Cc}\p{Cs}]/u.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && url.username === '' && url.password === '';
}

/**
 * A `<low>_<high>` range of whole numbers with low < high, written canonically (no sign, no leading
 * zeros except "0") so that equal ranges are equal strings; bounded to safe integers.
 */
export function isIntegerRange(value: string): boolean {
  const match = /^(0|[1-9]\d{0,15})_(0|[1-9]\d{0,15})$/.exec(value);
  if (match === null) return false;
  const low = Number(match[1]);
  const high = Number(match[2]);
  return Number.isSafeInteger(low) && Number.isSafeInteger(high) && low < high;
}
