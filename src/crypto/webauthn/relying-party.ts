import { createHash } from 'node:crypto';

/**
 * Which relying parties and origins a WebAuthn ceremony may come from (WEBAUTHN_RP_IDS, WEBAUTHN_ORIGINS).
 * An origin entry is a serialized origin (`https://wallet.example`, `http://localhost:3000`), the same
 * with `:*` for any port (`http://localhost:*`), or an Android app's `android:apk-key-hash:<base64url>`.
 */
export interface RelyingPartyPolicy {
  rpIds: readonly string[];
  origins: readonly string[];
}

const DOMAIN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const ANDROID = /^android:apk-key-hash:[A-Za-z0-9_-]{43}$/;

/** A relying-party id is a lower-case domain name (browsers refuse IP addresses as rp ids). */
export function rpIdProblem(rpId: string): string | null {
  if (!DOMAIN.test(rpId)) return 'must be a lower-case domain name without scheme or port';
  if (/^[\d.]+$/.test(rpId)) return 'must be a domain name, not an IP address';
  return null;
}

/** Why an allowed-origin entry is unusable, or null. `httpsOnly` refuses http (production). */
export function originPatternProblem(pattern: string, httpsOnly: boolean): string | null {
  if (ANDROID.test(pattern)) return null;
  const base = pattern.endsWith(':*') ? pattern.slice(0, -2) : pattern;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return 'must be an origin like https://wallet.example';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http(s) origin or android:apk-key-hash:<sha256 base64url>';
  if (url.origin !== base) return 'must be an origin: scheme, lower-case host and optional port, no path or trailing slash';
  if (base !== pattern && url.port !== '') return 'must not give a port before :*';
  if (httpsOnly && url.protocol !== 'https:') return 'must be https in production';
  return null;
}

/** Whether clientData.origin is one of the allowed origins; `:*` entries match the same scheme and host on any port. */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  for (const pattern of allowed) {
    if (origin === pattern) return true;
    if (!pattern.endsWith(':*')) continue;
    const base = pattern.slice(0, -2);
    if (origin === base) return true;
    const port = origin.startsWith(`${base}:`) ? origin.slice(base.length + 1) : '';
    if (/^[1-9]\d{0,4}$/.test(port) && Number(port) <= 65_535) return true;
  }
  return false;
}

export function rpIdHash(rpId: string): Buffer {
  return createHash('sha256').update(rpId, 'utf8').digest();
}
