import { randomBytes } from 'node:crypto';
import type { SecretBox } from '../../crypto/secret-box.js';

/**
 * docs/onboarding-links.md: a link's token is `obl_` and 32 random bytes (256 bits) in base64url, shown once (in
 * the create answer's url) and kept only as a keyed hash, like an invitation's.
 */
export const LINK_TOKEN_PREFIX = 'obl_';
export const LINK_TOKEN_PATTERN = '^obl_[A-Za-z0-9_-]{43}$';
const TOKEN = new RegExp(LINK_TOKEN_PATTERN);

/** docs/onboarding-links.md: a link lives 60 s to 24 h (expiresInSeconds), ONBOARDING_LINK_TTL_SECONDS by default. */
export const MIN_LINK_TTL_SECONDS = 60;
export const MAX_LINK_TTL_SECONDS = 24 * 60 * 60;
export const DEFAULT_LINK_TTL_SECONDS = 3_600;

export function newLinkToken(): string {
  return `${LINK_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export const isLinkToken = (value: string): boolean => TOKEN.test(value);

/** The only form a token is kept in: HMAC under the fingerprint key, with its own purpose. */
export function linkTokenHash(secrets: SecretBox, token: string): string {
  return secrets.fingerprint(token, 'onboarding-link-token');
}

/** The hosted page, on the invitation page's base URL (INVITATION_BASE_URL). */
export function onboardingLinkUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/onboarding/${token}`;
}
