import type { SigningKeyRow } from '../../db/repositories/webhook-subscriptions.js';
import { sealContexts } from '../../crypto/seal-contexts.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { generateEd25519KeyPair } from '../../crypto/webhook-signature.js';
import { newId } from '../ids.js';

/** After a rotation the previous key keeps signing this long, so receivers can switch without a gap. */
export const ROTATION_GRACE_MS = 24 * 3600 * 1000;

/** A fresh Ed25519 key for the subscription: its row (private key sealed under its own id) and public key. */
export function newSigningKey(secrets: SecretBox, subscriptionId: string, now: Date) {
  const pair = generateEd25519KeyPair();
  const id = newId();
  return {
    row: { id, subscriptionId, publicKey: pair.publicKey, sealedPrivateKey: secrets.seal(pair.privateKey, sealContexts.webhookSigningKey(id)), createdAt: now },
    publicKey: pair.publicKey,
  };
}

/** The keys a delivery is signed with, in header order: the active key first, then any still in its grace period. */
export function signingOrder<K extends Pick<SigningKeyRow, 'id'>>(keys: readonly K[], activeSigningKeyId: string): K[] {
  return [...keys].sort((a, b) => (a.id === activeSigningKeyId ? -1 : b.id === activeSigningKeyId ? 1 : 0));
}
