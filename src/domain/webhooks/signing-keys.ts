import type { SigningKeyRow } from '../../db/repositories/webhook-subscriptions.js';
import { sealContexts } from '../../crypto/seal-contexts.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { generateEd25519KeyPair, generateHmacSecret, SECRET_PREFIX } from '../../crypto/webhook-signature.js';
import { newId } from '../ids.js';

/** After a rotation the previous key keeps signing this long, so receivers can switch without a gap. */
export const ROTATION_GRACE_MS = 24 * 3600 * 1000;

/** How a subscription's deliveries are signed (docs/webhooks.md#signatures). */
export const SIGNING_ALGORITHMS = ['ed25519', 'hmac-sha256'] as const;
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number];

/**
 * A fresh key for the subscription: its row (the private key or HMAC secret sealed under the key's own id), its
 * public key (Ed25519; empty for HMAC), and for HMAC the secret as `whsec_<base64>`, to show once and never again.
 */
export function newSigningKey(secrets: SecretBox, subscriptionId: string, now: Date, algorithm: SigningAlgorithm = 'ed25519') {
  const id = newId();
  if (algorithm === 'hmac-sha256') {
    const secret = generateHmacSecret();
    return {
      row: { id, subscriptionId, publicKey: '', sealedPrivateKey: secrets.seal(secret, sealContexts.webhookSigningKey(id)), createdAt: now },
      publicKey: '',
      signingSecret: `${SECRET_PREFIX}${secret.toString('base64')}`,
    };
  }
  const pair = generateEd25519KeyPair();
  return {
    row: { id, subscriptionId, publicKey: pair.publicKey, sealedPrivateKey: secrets.seal(pair.privateKey, sealContexts.webhookSigningKey(id)), createdAt: now },
    publicKey: pair.publicKey,
    signingSecret: undefined,
  };
}

/** The keys a delivery is signed with, in header order: the active key first, then any still in its grace period. */
export function signingOrder<K extends Pick<SigningKeyRow, 'id'>>(keys: readonly K[], activeSigningKeyId: string): K[] {
  return [...keys].sort((a, b) => (a.id === activeSigningKeyId ? -1 : b.id === activeSigningKeyId ? 1 : 0));
}
