import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SecretBox } from '../../crypto/secret-box.js';

/** docs/invitations.md: an invitation is valid 7 days; a token is `inv_` and 32 random bytes in base64url. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const INVITATION_TOKEN_PREFIX = 'inv_';
/** The shape of a token, checked before any lookup (a path or body holding anything else is a plain 404 / 400). */
export const INVITATION_TOKEN_PATTERN = '^inv_[A-Za-z0-9_-]{43}$';
const TOKEN = new RegExp(INVITATION_TOKEN_PATTERN);

export function newInvitationToken(): string {
  return `${INVITATION_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export const isInvitationToken = (value: string): boolean => TOKEN.test(value);

/**
 * The only form a token is kept in: a keyed hash (HMAC under the fingerprint key). A leaked table of hashes
 * cannot be turned back into working links, and without ENCRYPTION_KEY nobody can compute a hash to look one up.
 */
export function invitationTokenHash(secrets: SecretBox, token: string): string {
  return secrets.fingerprint(token, 'invitation-token');
}

/** How long a registration challenge of the hosted page is good for. */
export const CHALLENGE_TTL_MS = 10 * 60 * 1000;

/**
 * A WebAuthn registration challenge for the hosted page, stateless: the issue time and a MAC binding it to the
 * invitation's current token hash (a resend, which changes the hash, voids earlier challenges). Nothing is stored;
 * the challenge is checked again when the page accepts (`challengeValid`).
 */
export function registrationChallenge(secrets: SecretBox, tokenHash: string, at: Date): string {
  const time = Buffer.alloc(8);
  time.writeBigUInt64BE(BigInt(at.getTime()));
  return Buffer.concat([time, mac(secrets, tokenHash, time)]).toString('base64url');
}

export function challengeValid(secrets: SecretBox, tokenHash: string, challenge: string, now: Date): boolean {
  const bytes = Buffer.from(challenge, 'base64url');
  if (bytes.length !== 40 || bytes.toString('base64url') !== challenge) return false;
  const time = bytes.subarray(0, 8);
  const issued = Number(time.readBigUInt64BE());
  if (!(issued <= now.getTime() && now.getTime() - issued <= CHALLENGE_TTL_MS)) return false;
  return timingSafeEqual(bytes.subarray(8), mac(secrets, tokenHash, time));
}

function mac(secrets: SecretBox, tokenHash: string, time: Buffer): Buffer {
  // The fingerprint key is the server's one MAC key; the purpose keeps this use apart from the others.
  return createHmac('sha256', Buffer.from(secrets.fingerprint(tokenHash, 'invitation-challenge'), 'hex'))
    .update(time)
    .digest();
}
