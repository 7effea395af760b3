import type { SubscriptionRow } from '../../db/repositories/webhook-subscriptions.js';
import { PUBLIC_KEY_PREFIX } from '../../crypto/webhook-signature.js';
import { maskHeaders } from './custom-headers.js';
import type { EndpointSafety } from './url-safety.js';

import type { SigningAlgorithm } from './signing-keys.js';

export interface SubscriptionView {
  id: string;
  integratorId: string;
  url: string;
  enabled: boolean;
  eventTypes: string[];
  endpointSafetyMetadata: EndpointSafety;
  httpHeaders: Record<string, string>;
  createdAt: string;
  updatedAt: string;
  name: string;
  activeSigningKeyId: string;
}

/**
 * The spec's listing item: the subscription with its active public key and algorithm. An HMAC subscription has no
 * public key (`publicKey` is empty); its secret is in `signingSecret`, in the answers of create and rotate-key only.
 */
export interface SubscriptionListing {
  subscription: SubscriptionView;
  publicKey: string;
  algorithm: SigningAlgorithm;
  signingSecret?: string;
}

/**
 * The subscription as the API and events show it. Custom header values are always masked: they often hold a
 * receiver's secret, and are stored only sealed (a legacy row not yet sealed is masked here all the same).
 */
export function toSubscriptionView(row: SubscriptionRow): SubscriptionView {
  return {
    id: row.id,
    integratorId: row.integratorId,
    url: row.url,
    enabled: row.enabled,
    eventTypes: row.eventTypes,
    endpointSafetyMetadata: row.endpointSafetyMetadata as EndpointSafety,
    httpHeaders: maskHeaders(row.httpHeaders),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    name: row.name,
    activeSigningKeyId: row.activeSigningKeyId,
  };
}

export function toSubscriptionListing(row: SubscriptionRow, publicKey: string, signingSecret?: string): SubscriptionListing {
  const listing: SubscriptionListing = { subscription: toSubscriptionView(row), publicKey: row.algorithm === 'ed25519' ? `${PUBLIC_KEY_PREFIX}${publicKey}` : '', algorithm: row.algorithm };
  if (signingSecret) listing.signingSecret = signingSecret;
  return listing;
}
