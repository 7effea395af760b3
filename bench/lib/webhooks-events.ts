/** The webhooks bench's events: user.updated written as the API writes them, and the bare loop's look-alike deliveries. */
import { randomBytes } from 'node:crypto';
import type { Executor } from '../../src/db/database.js';
import { recordEvent } from '../../src/domain/events/record-event.js';
import { newId } from '../../src/domain/ids.js';
import { API_VERSION } from '../../src/version.js';
import type { DeliveryPath, Setup } from './webhooks-types.js';

/** A user as the API shows it (about 1 KB of JSON with its event envelope, like a real user.updated). */
export function userObject(userId: string, i: number) {
  return {
    userId,
    userInfo: {
      email: `maria.garcia+${i}@example.com`,
      phone: '+14155550123',
      lastName: 'Garcia',
      birthDate: '1988-04-12',
      firstName: 'Maria',
      middleName: 'Elena',
      nationality: 'USA',
      countryOfBirth: 'USA',
      profilePictureUrl: 'https://example.com/maria.png',
      residentialAddress: { city: 'San Francisco', line1: '1 Market St', line2: 'Suite 300', postalCode: '94105', stateProvinceRegion: 'CA', country: 'USA' },
      taxIdentificationNumberLast4: '6789',
    },
    verificationStatus: 'approved',
    documents: [{ documentId: newId(), kind: 'proof_of_address', contentType: 'application/pdf', sizeBytes: 48_213 }],
    createdAt: '2026-11-22T05:22:23.410Z',
    updatedAt: new Date().toISOString(),
  };
}

export const previousAttributes = (i: number) => ({ userInfo: { email: `maria.garcia+old${i}@example.com` } });

/**
 * A subscription id no subscription has: events the peer delivers are written by the same recordEvent statement,
 * whose outbox part then queues nothing (the peer's jobs replace our outbox rows).
 */
const NO_OUTBOX = newId();

let eventCounter = 0;

/** Writes `n` events, `perTransaction` in each; returns id → createdAt (ms). */
export async function writeEvents(s: Setup, n: number, perTransaction: number, created: Map<string, number>, path?: DeliveryPath): Promise<void> {
  for (let done = 0; done < n; done += perTransaction) {
    await s.database.db.transaction(async (tx) => {
      for (let j = done; j < Math.min(n, done + perTransaction); j++) await writeOne(tx, s, created, path);
    });
  }
}

export async function writeOne(tx: Executor, s: Setup, created: Map<string, number>, path?: DeliveryPath): Promise<void> {
  const i = eventCounter++;
  const userId = newId();
  const at = new Date();
  const type = 'user.updated';
  const { id } = await recordEvent(tx, {
    integratorId: s.integratorId,
    type,
    objectType: 'user',
    objectId: userId,
    object: userObject(userId, i),
    previousAttributes: previousAttributes(i),
    at,
    ...(path?.enqueue ? { onlySubscriptionId: NO_OUTBOX } : {}),
  });
  await path?.enqueue?.(tx, { id, integratorId: s.integratorId, type });
  created.set(id, at.getTime());
}

/** What the worker sends for an event like the ones above: the same envelope, body size and headers. */
export function bareDelivery(): { headers: Record<string, string>; body: string } {
  const id = newId();
  const userId = newId();
  const i = eventCounter++;
  const body = JSON.stringify({
    id,
    type: 'user.updated',
    objectType: 'user',
    objectId: userId,
    sequence: 1,
    apiVersion: API_VERSION,
    createdAt: new Date().toISOString(),
    data: { object: userObject(userId, i), previousAttributes: previousAttributes(i) },
  });
  return {
    body,
    headers: {
      'user-agent': `IntegratorAPI-Webhooks/${API_VERSION}`,
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      'webhook-signature': `v1a,${randomBytes(64).toString('base64')}`,
    },
  };
}
