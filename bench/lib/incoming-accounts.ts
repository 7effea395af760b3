/**
 * bench/incoming.ts's accounts and what it reads back: the accounts made through the API, the completion webhooks the
 * receiver got, and each account's incoming transactions as the API lists them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { getAddress, type Address } from 'viem';
import { californian, signedAt } from '../../test/harness/fixtures.js';
import type { Receiver } from '../../test/harness/receiver.js';
import type { Backend } from './backend.js';
import { postJson, signedGetHeaders } from './signing.js';

export interface Seeded {
  accountId: string;
  walletAddress: Address;
  custodial: boolean;
}

/** Accounts made through the API, `concurrency` at a time: self-custodial with a random address, every `custodialEvery`-th custodial. */
export async function seedAccounts(backend: Backend, count: number, concurrency: number, custodialEvery: number): Promise<Seeded[]> {
  const seeded: Seeded[] = [];
  let next = 0;
  let lastReport = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const custodial = i % custodialEvery === 0;
        const walletAddress = custodial ? undefined : getAddress(`0x${randomBytes(20).toString('hex')}`);
        const created = await postJson<{ accountId: string; walletAddress: string }>(backend.baseUrl, backend.key, '/v1/submit/create-individual-account', {
          userInfo: californian({ email: `bench.incoming.${i}.${randomUUID()}@example.com` }),
          serviceTermsSignedAt: signedAt(),
          ...(walletAddress ? { walletAddress } : {}),
        });
        seeded.push({ accountId: created.accountId, walletAddress: getAddress(created.walletAddress), custodial });
        if (Date.now() - lastReport > 15_000) {
          lastReport = Date.now();
          console.error(`  ${seeded.length} of ${count} accounts`);
        }
      }
    }),
  );
  return seeded;
}

export interface Delivered {
  transactionHash: string;
  accountId: string;
  kind: string;
  receivedAt: number;
  createdAt: number;
}

export function deliveriesOf(receiver: Receiver): Map<string, Delivered> {
  // At least once: the first delivery of each transaction counts (deduplicated on the transaction, so a redelivery
  // is not mistaken for a second record; doubles are counted from the API's list instead).
  const byHash = new Map<string, Delivered>();
  for (const request of receiver.requests) {
    const event = request.json<{ type: string; createdAt: string; data: { object: { kind: string; accountId: string; transactionHash: string | null } } }>();
    if (event.type !== 'transaction.completed' || event.data.object.kind !== 'incoming' || !event.data.object.transactionHash) continue;
    const key = `${event.data.object.accountId}:${event.data.object.transactionHash.toLowerCase()}`;
    if (!byHash.has(key)) byHash.set(key, { transactionHash: event.data.object.transactionHash.toLowerCase(), accountId: event.data.object.accountId, kind: event.data.object.kind, receivedAt: request.receivedAt, createdAt: Date.parse(event.createdAt) });
  }
  return byHash;
}

/** Every incoming transaction of one account, through the API (list-transactions, pages of 100). */
export async function incomingOf(backend: Backend, accountId: string): Promise<{ transactionHash: string | null; status: string }[]> {
  const rows: { transactionHash: string | null; status: string; kind: string; transactionId: string }[] = [];
  let after: string | undefined;
  for (;;) {
    const path = `/v1/query/list-transactions?accountId=${accountId}&limit=100${after ? `&startingAfter=${after}` : ''}`;
    const res = await fetch(`${backend.baseUrl}${path}`, { headers: signedGetHeaders(backend.key, path), signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${text.slice(0, 500)}`);
    const page = JSON.parse(text) as { data: typeof rows; hasMore: boolean };
    rows.push(...page.data);
    if (!page.hasMore || page.data.length === 0) break;
    after = page.data[page.data.length - 1]!.transactionId;
  }
  return rows.filter((r) => r.kind === 'incoming');
}

