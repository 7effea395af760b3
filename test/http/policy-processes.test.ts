import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { and, eq, isNull } from 'drizzle-orm';
import { policyReservations } from '../../src/db/schema/index.js';
import type { Anvil } from '../harness/anvil.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { postgresUrl } from '../harness/backends.js';
import { createCustomer, ETH, recipient, signedBody, unsignedTransfer } from '../harness/customers.js';
import { startTenantsOnChain } from '../harness/tenants.js';
import type { PeerServer, SeededIntegrator, TestServer } from '../harness/server.js';

/*
 * A 24-hour cap under concurrent transfers sent to two servers on one PostgreSQL database, each with its own
 * connection pool as two processes of a deployment have (docs/policies.md#enforcement: the account's checks are
 * serialized by a transaction-scoped advisory lock in the database, not in a process). PostgreSQL only: an embedded
 * database belongs to one process.
 */
const CHAIN = 8453;
const MILLI = 10n ** 15n;

describe('spending policies: a 24h cap across two servers on one PostgreSQL database', { skip: !postgresUrl() && 'no PostgreSQL server (TEST_DATABASE_URL)' }, () => {
  let server: TestServer;
  let peer: PeerServer;
  let chain: Anvil;
  let acme: SeededIntegrator;

  before(async () => {
    ({ server, chain, tenants: [acme] } = await startTenantsOnChain('postgres', CHAIN, ['Acme']));
    peer = await server.startPeer();
  });
  after(async () => {
    await peer?.close();
    await server?.close();
  });

  it('never exceeds the cap together, and every transfer within it goes', async () => {
    // A synced passkey keeps no counter: concurrent stamps are not refused as out of order.
    const who = await createCustomer(server, acme, { passkey: new SoftwareAuthenticator({ counterStep: 0 }) });
    await chain.setBalance(who.walletAddress, ETH);
    const cap = 5;
    const attempts = Number(process.env.POLICY_CONCURRENCY ?? 50);
    server.clock.advance(1000);
    const created = await acme.client.post('/v1/policies', { accountId: who.accountId, rules: [{ type: 'max_amount', asset: 'ETH', chainId: CHAIN, amount: `0.00${cap}`, window: '24h' }] });
    assert.equal(created.status, 201, created.text);
    const clients = [acme.client, peer.clientFor(acme.privateKey)];
    const results = await Promise.all(
      Array.from({ length: attempts }, (_, i) => {
        const body = signedBody(server, who, unsignedTransfer(CHAIN, i, recipient(), MILLI));
        return clients[i % 2]!.post(`/v1/submit/send-transaction-passkey?chain_id=${CHAIN}`, { transactionId: randomUUID(), signedBody: body, webAuthnStamp: who.passkey.stamp(JSON.stringify(body)) });
      }),
    );
    const codes = results.map((r) => (r.status === 201 ? 'sent' : r.body.code));
    const sent = codes.filter((c) => c === 'sent').length;
    assert.equal(sent, cap, `sent ${sent} of ${attempts}: ${codes.join(', ')}`);
    assert.equal(codes.filter((c) => c === 'policy_denied').length, attempts - sent, codes.join(', '));
    const sentBy = [0, 1].map((k) => results.filter((r, i) => i % 2 === k && r.status === 201).length);
    const refusedBy = [0, 1].map((k) => results.filter((r, i) => i % 2 === k && r.status === 403).length);
    assert.ok(refusedBy.every((n) => n > 0), `both servers judged: sent ${sentBy}, refused ${refusedBy}`);
    const held = await server.database.db.select().from(policyReservations).where(and(eq(policyReservations.accountId, who.accountId), isNull(policyReservations.releasedAt)));
    assert.equal(held.reduce((s, r) => s + BigInt(r.amount), 0n), BigInt(cap) * MILLI);
  });
});
