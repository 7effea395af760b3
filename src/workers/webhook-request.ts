import type { KeyObject } from 'node:crypto';
import { sealContexts } from '../crypto/seal-contexts.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { privateKeyFromRaw, signWebhook, signWebhookHmac } from '../crypto/webhook-signature.js';
import type { Executor } from '../db/database.js';
import { findEventsByIds } from '../db/repositories/events.js';
import type { Claimed } from '../db/repositories/webhook-deliveries.js';
import { findSubscriptionsByIds, signingKeysOf, type SigningKeyRow, type SubscriptionRow } from '../db/repositories/webhook-subscriptions.js';
import { toEventView, type EventView } from '../domain/events/event-view.js';
import { isReservedHeader, openHeaders } from '../domain/webhooks/custom-headers.js';
import { signingOrder } from '../domain/webhooks/signing-keys.js';
import { API_VERSION } from '../version.js';

const USER_AGENT = `IntegratorAPI-Webhooks/${API_VERSION}`;
const KEY_CACHE_LIMIT = 10_000;

/** What one claim loads for its deliveries: one read each for their events, subscriptions and signing keys. */
export interface Batch {
  events: Map<string, EventView>;
  subscriptions: Map<string, SubscriptionRow>;
  keys: Map<string, SigningKeyRow[]>;
}

export async function loadBatch(db: Executor, claimed: Claimed[], now: Date): Promise<Batch> {
  const subscriptionIds = [...new Set(claimed.map((c) => c.subscriptionId))];
  const [eventRows, subscriptionRows, keyRows] = await Promise.all([
    findEventsByIds(db, [...new Set(claimed.map((c) => c.eventId))]),
    findSubscriptionsByIds(db, subscriptionIds),
    signingKeysOf(db, subscriptionIds, now),
  ]);
  const keys = new Map<string, SigningKeyRow[]>();
  for (const k of keyRows) keys.set(k.subscriptionId, [...(keys.get(k.subscriptionId) ?? []), k]);
  return {
    events: new Map(eventRows.map((e) => [e.id, toEventView(e)])),
    subscriptions: new Map(subscriptionRows.map((s) => [s.id, s])),
    keys,
  };
}

/** A claim's event, subscription and signing keys; undefined when any is gone (deleted or purged: the delivery row went with it). */
export function partsOf(batch: Batch, claim: Claimed): { event: EventView; subscription: SubscriptionRow; keys: SigningKeyRow[] } | undefined {
  const event = batch.events.get(claim.eventId);
  const subscription = batch.subscriptions.get(claim.subscriptionId);
  const keys = batch.keys.get(claim.subscriptionId) ?? [];
  return event && subscription && keys.length > 0 ? { event, subscription, keys } : undefined;
}

/** Builds a delivery's headers: the subscription's custom ones (opened), then ours with the signature. */
export class WebhookSigner {
  /**
   * Importing an Ed25519 key costs OpenSSL's DER decoder about a millisecond; a key id's key never changes, so
   * each is opened and imported once per process (bounded: the cache is dropped when it grows past the limit).
   */
  private readonly keyObjects = new Map<string, KeyObject>();
  private readonly hmacSecrets = new Map<string, Buffer>();

  constructor(private readonly secrets: SecretBox) {}

  private hmacSecret(k: SigningKeyRow): Buffer {
    let secret = this.hmacSecrets.get(k.id);
    if (!secret) {
      if (this.hmacSecrets.size >= KEY_CACHE_LIMIT) this.hmacSecrets.clear();
      secret = this.secrets.open(k.sealedPrivateKey, sealContexts.webhookSigningKey(k.id));
      this.hmacSecrets.set(k.id, secret);
    }
    return secret;
  }

  private signingKey(k: SigningKeyRow): KeyObject {
    let key = this.keyObjects.get(k.id);
    if (!key) {
      if (this.keyObjects.size >= KEY_CACHE_LIMIT) this.keyObjects.clear();
      key = privateKeyFromRaw(this.secrets.open(k.sealedPrivateKey, sealContexts.webhookSigningKey(k.id)));
      this.keyObjects.set(k.id, key);
    }
    return key;
  }

  headersFor(subscription: SubscriptionRow, keys: SigningKeyRow[], eventId: string, body: string, now: Date): Record<string, string> {
    const timestamp = Math.floor(now.getTime() / 1000);
    const ordered = signingOrder(keys, subscription.activeSigningKeyId);
    const signature =
      subscription.algorithm === 'hmac-sha256'
        ? signWebhookHmac(
            ordered.map((k) => this.hmacSecret(k)),
            eventId,
            timestamp,
            body,
          )
        : signWebhook(
            ordered.map((k) => this.signingKey(k)),
            eventId,
            timestamp,
            body,
          );
    const headers: Record<string, string> = {};
    // Sealed at rest (a legacy row not yet sealed by maintenance: its clear values).
    for (const [name, value] of Object.entries(openHeaders(this.secrets, subscription))) if (!isReservedHeader(name)) headers[name.toLowerCase()] = value;
    return {
      ...headers,
      'user-agent': headers['user-agent'] ?? USER_AGENT,
      'content-type': 'application/json',
      'webhook-id': eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
    };
  }
}
