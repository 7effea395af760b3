import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { getAddress, serializeTransaction } from 'viem';
import { SoftwareAuthenticator } from './authenticator.js';
import { eventually } from './eventually.js';
import { californian, personDocs, signedAt } from './fixtures.js';
import type { SeededIntegrator, TestServer } from './server.js';

export const ETH = 10n ** 18n;

/** An individual custodial account of one integrator, with a registered passkey. */
export interface Customer {
  accountId: string;
  userId: string;
  organizationId: string;
  walletAddress: string;
  email: string;
  passkey: SoftwareAuthenticator;
}

let emails = 0;

/**
 * Creates an individual account with a software passkey, approved (active) unless told otherwise: custodial, or
 * self-custodial on `walletAddress` when given (the customer's own wallet, which we never sign for).
 */
export async function createCustomer(
  server: TestServer,
  who: SeededIntegrator,
  options: { approve?: boolean; email?: string; passkey?: SoftwareAuthenticator; walletAddress?: string } = {},
): Promise<Customer> {
  const passkey = options.passkey ?? new SoftwareAuthenticator();
  const email = options.email ?? `customer${++emails}.${process.pid}@example.com`;
  server.clock.advance(1000);
  const created = await who.client.post('/v1/submit/create-individual-account', {
    userInfo: californian({ email }),
    serviceTermsSignedAt: signedAt(),
    verificationDocuments: personDocs(),
    ...(options.walletAddress ? { walletAddress: options.walletAddress } : {}),
    authenticators: [passkey.authenticator()],
  });
  assert.equal(created.status, 201, created.text);
  // A self-custodial account has no wallet of ours, so no organization signs for it.
  assert.ok(options.walletAddress ? created.body.accountId : created.body.organizationId && created.body.walletAddress, created.text);
  if (options.approve !== false) {
    server.clock.advance(1000);
    const approved = await who.client.post('/v1/sandbox/simulate-verification', { accountId: created.body.accountId, outcome: 'approve' });
    assert.equal(approved.body.verificationStatus, 'active', approved.text);
  }
  return { accountId: created.body.accountId, userId: created.body.userId, organizationId: created.body.organizationId ?? '', walletAddress: created.body.walletAddress ?? options.walletAddress, email, passkey };
}

/**
 * A fresh address nobody holds a key for: 20 random bytes, checksummed. Deriving it from a fresh key cost the
 * transactions bench's load generator a secp256k1 multiplication per submission, half its CPU.
 */
export const recipient = () => getAddress(`0x${randomBytes(20).toString('hex')}`);

/** A serialized unsigned EIP-1559 transfer, as a wallet front end would hand it to the end user. */
export const unsignedTransfer = (chainId: number, nonce: number, to: string = recipient(), value = 10n ** 15n) =>
  serializeTransaction({ chainId, type: 'eip1559', nonce, to: to as `0x${string}`, value, gas: 21_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n });

/** A serialized unsigned EIP-1559 call (a token's transfer, approve, …) with no coin sent, gas enough for a token call. */
export const unsignedCall = (chainId: number, nonce: number, to: string, data: `0x${string}`) =>
  serializeTransaction({ chainId, type: 'eip1559', nonce, to: to as `0x${string}`, value: 0n, data, gas: 100_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n });

/** The Turnkey-shaped signedBody for a customer's transfer, timestamped by the server's clock. */
export const signedBody = (
  server: TestServer,
  who: Pick<Customer, 'organizationId' | 'walletAddress'>,
  unsignedTransaction: string,
  overrides: { timestampMs?: string; organizationId?: string; signWith?: string } = {},
) => ({
  type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
  timestampMs: overrides.timestampMs ?? String(server.clock.now().getTime()),
  organizationId: overrides.organizationId ?? who.organizationId,
  parameters: { signWith: overrides.signWith ?? who.walletAddress, unsignedTransaction, type: 'TRANSACTION_TYPE_ETHEREUM' },
});

/** Reads a transaction until it leaves `status` (processing by default), through the API. */
export async function settled(who: SeededIntegrator, transactionId: string, leaving: string = 'processing') {
  const res = await eventually(
    () => who.client.get(`/v1/query/get-transaction?transactionId=${transactionId}`),
    (r) => r.status !== 200 || r.body.status !== leaving,
    `the transaction to leave ${leaving}`,
    15_000,
  );
  assert.equal(res.status, 200, res.text);
  return res.body;
}
