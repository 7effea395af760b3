import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { and, eq, isNull } from 'drizzle-orm';
import type { Address } from 'viem';
import { encodeTransfer } from '../../src/chain/erc20.js';
import { policyReservations, transactions } from '../../src/db/schema/index.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, recipient, signedBody, unsignedCall, unsignedTransfer, type Customer } from '../harness/customers.js';
import { eventsFor } from '../harness/db.js';
import { asMember, post, seatMember, teamAccount } from '../harness/members.js';
import { verifiedBankAccount, withdrawalInTransfer } from '../harness/money.js';
import { useTenantsWithToken } from '../harness/tokens.js';

/*
 * Spending policies enforced before signing (docs/policies.md#enforcement), on anvil: a cap per transaction and over
 * 24 hours (equal allowed, one base unit over refused), allowed destinations (the token contract itself need not be
 * listed), a new destination's delay (first use enters it in the address book; used before the policy, it stays
 * usable), a withdrawal's approval judged too, and concurrent transfers never exceeding a window together.
 */
const CHAIN = 8453;
const MILLI = 10n ** 15n;
const USDC = 1_000_000n;

for (const backend of backends()) {
  describe(`spending policies enforced [${backend}]`, () => {
    const { server, chain, tenants: [acme], token } = useTenantsWithToken(backend, CHAIN, ['Acme']);

    async function funded(usdc = 0n, passkey?: SoftwareAuthenticator): Promise<Customer> {
      const customer = await createCustomer(server, acme, passkey ? { passkey } : {});
      await chain.setBalance(customer.walletAddress, ETH);
      if (usdc > 0n) await token.mint(customer.walletAddress, usdc);
      return customer;
    }
    const policy = async (accountId: string, rules: unknown[]) => {
      server.clock.advance(1000);
      const res = await acme.client.post('/v1/policies', { accountId, rules });
      assert.equal(res.status, 201, res.text);
      return res.body.policyId as string;
    };
    const send = (who: Customer, unsignedTransaction: string, transactionId = randomUUID()) => {
      const body = signedBody(server, who, unsignedTransaction);
      return acme.client.post(`/v1/submit/send-transaction-passkey?chain_id=${CHAIN}`, { transactionId, signedBody: body, webAuthnStamp: who.passkey.stamp(JSON.stringify(body)) });
    };
    const tokenTransfer = (nonce: number, to: string, raw: bigint) =>
      unsignedCall(CHAIN, nonce, token.address, encodeTransfer(to as Address, raw));
    const transaction = async (transactionId: string) => (await acme.client.get(`/v1/query/get-transaction?transactionId=${transactionId}`)).body;

    /** A refusal: 403 policy_denied naming the policy, the rule and the transaction, whose record reads failed and was never signed. */
    async function assertDenied(res: { status: number; body: any; text: string }, policyId: string, ruleType: string, lastEvents = ['transaction.created', 'transaction.status.changed', 'transaction.failed']) {
      assert.equal(res.status, 403, res.text);
      assert.equal(res.body.code, 'policy_denied');
      assert.equal(res.body.policyId, policyId);
      assert.equal(res.body.ruleType, ruleType);
      const record = await transaction(res.body.transactionId);
      assert.equal(record.status, 'failed');
      assert.equal(record.failureReason, 'policy_denied');
      assert.equal(record.transactionHash, null, 'nothing was signed');
      const events = await eventsFor(server.database, await rowIdOf(res.body.transactionId));
      assert.deepEqual(events.map((e) => e.type).slice(-lastEvents.length), lastEvents);
    }
    const rowIdOf = async (transactionId: string) => {
      const [row] = await server.database.db.select({ id: transactions.id }).from(transactions).where(and(eq(transactions.integratorId, acme.integratorId), eq(transactions.transactionId, transactionId)));
      return row!.id;
    };

    it('max_amount per transaction: the cap itself is allowed, one wei over is refused and recorded failed', async () => {
      const who = await funded();
      const policyId = await policy(who.accountId, [{ type: 'max_amount', asset: 'ETH', chainId: CHAIN, amount: '0.001', window: 'transaction' }]);
      assert.equal((await send(who, unsignedTransfer(CHAIN, 0, recipient(), MILLI))).status, 201);
      await assertDenied(await send(who, unsignedTransfer(CHAIN, 1, recipient(), MILLI + 1n)), policyId, 'max_amount');
    });

    it('the same refused request twice at once: one records the refusal, the other is answered with it (never a 500)', async () => {
      const who = await funded();
      const policyId = await policy(who.accountId, [{ type: 'max_amount', asset: 'ETH', chainId: CHAIN, amount: '0.001', window: 'transaction' }]);
      const body = signedBody(server, who, unsignedTransfer(CHAIN, 0, recipient(), 2n * MILLI));
      // The same transactionId and approval, its stamp once as JSON and once as base64 of it: two signed requests.
      const stamp = who.passkey.stamp(JSON.stringify(body));
      const transactionId = randomUUID();
      const requests = [stamp, Buffer.from(stamp).toString('base64')].map((webAuthnStamp) => ({ transactionId, signedBody: body, webAuthnStamp }));
      const answers = await Promise.all(requests.map((request) => acme.client.post(`/v1/submit/send-transaction-passkey?chain_id=${CHAIN}`, request)));
      for (const res of answers) {
        assert.notEqual(res.status, 500, res.text);
        if (res.status === 403) assert.deepEqual([res.body.code, res.body.policyId], ['policy_denied', policyId]);
        else if (res.status === 409) assert.equal(res.body.code, 'transaction_id_reused', res.text);
        else assert.deepEqual([res.status, res.body.status, res.body.failureReason], [200, 'failed', 'policy_denied'], res.text);
      }
      assert.ok(answers.some((r) => r.status === 403), answers.map((r) => r.status).join(', '));
    });

    it('max_amount over 24h in a token: reserved as sent, refused past the cap, usable again once the window moved on', async () => {
      const who = await funded(100n * USDC);
      const policyId = await policy(who.accountId, [{ type: 'max_amount', asset: 'USDC', chainId: CHAIN, amount: '10', window: '24h' }]);
      assert.equal((await send(who, tokenTransfer(0, recipient(), 6n * USDC))).status, 201);
      await assertDenied(await send(who, tokenTransfer(1, recipient(), 4n * USDC + 1n)), policyId, 'max_amount');
      assert.equal((await send(who, tokenTransfer(1, recipient(), 4n * USDC))).status, 201, 'up to the cap exactly');
      server.clock.advance(24 * 3_600_000 + 60_000);
      assert.equal((await send(who, tokenTransfer(2, recipient(), 10n * USDC))).status, 201, 'a new window');
    });

    it('allowed_destinations: a coin payment or a token transfer elsewhere is refused; the token contract itself need not be listed', async () => {
      const who = await funded(10n * USDC);
      const friend = recipient();
      const policyId = await policy(who.accountId, [{ type: 'allowed_destinations', addresses: [friend] }]);
      await assertDenied(await send(who, unsignedTransfer(CHAIN, 0, recipient(), MILLI)), policyId, 'allowed_destinations');
      await assertDenied(await send(who, tokenTransfer(0, recipient(), USDC)), policyId, 'allowed_destinations');
      assert.equal((await send(who, unsignedTransfer(CHAIN, 0, friend, MILLI))).status, 201);
      assert.equal((await send(who, tokenTransfer(1, friend, USDC))).status, 201);
    });

    it('new_destination_delay: a destination used before the policy stays usable; a new one is refused, entered in the address book, usable after the delay', async () => {
      const who = await funded();
      const old = recipient();
      assert.equal((await send(who, unsignedTransfer(CHAIN, 0, old, MILLI))).status, 201);
      const policyId = await policy(who.accountId, [{ type: 'new_destination_delay', hours: 24 }]);
      assert.equal((await send(who, unsignedTransfer(CHAIN, 1, old, MILLI))).status, 201, 'used before the policy');
      const fresh = recipient();
      await assertDenied(await send(who, unsignedTransfer(CHAIN, 2, fresh, MILLI)), policyId, 'new_destination_delay');
      const book = await acme.client.get(`/v1/accounts/${who.accountId}/address-book`);
      assert.equal(book.status, 200, book.text);
      const entry = book.body.data.find((e: { address: string }) => e.address === fresh.toLowerCase());
      assert.ok(entry, 'the first use is in the address book');
      assert.equal(Date.parse(entry.usableAt) - server.clock.now().getTime() > 23 * 3_600_000, true);
      await assertDenied(await send(who, unsignedTransfer(CHAIN, 2, fresh, MILLI)), policyId, 'new_destination_delay');
      server.clock.advance(24 * 3_600_000 + 60_000);
      assert.equal((await send(who, unsignedTransfer(CHAIN, 2, fresh, MILLI))).status, 201, 'usable after the delay');
    });

    it('a withdrawal’s approval is judged: its crypto counts against a cap; the treasury is no destination to allow', async () => {
      const who = await funded();
      const bankAccountId = await verifiedBankAccount(server, acme, who.accountId);
      await policy(who.accountId, [{ type: 'allowed_destinations', addresses: [recipient()] }, { type: 'new_destination_delay', hours: 24 }]);
      await withdrawalInTransfer(server, acme, who, bankAccountId, '1.00');
      const capId = await policy(who.accountId, [{ type: 'max_amount', asset: 'ETH', chainId: CHAIN, amount: '0.000000001', window: 'transaction' }]);
      server.clock.advance(1000);
      const created = await acme.client.post('/v1/submit/create-withdrawal', { accountId: who.accountId, bankAccountId, chainId: CHAIN, amount: '1.00', currency: 'USD' });
      assert.equal(created.status, 201, created.text);
      server.clock.advance(1000);
      const denied = await send(who, created.body.unsignedTransaction, created.body.transactionId);
      await assertDenied(denied, capId, 'max_amount', ['transaction.status.changed', 'transaction.failed']);
    });

    it('an entity: a proposal past the cap is refused at once; the approval completing a quorum after the window filled is refused', async () => {
      const account = await teamAccount(server, acme);
      const [a, b] = [await seatMember(server, acme, account, 'approver'), await seatMember(server, acme, account, 'approver')];
      const two = await post(server, acme, '/v1/submit/update-approval-policy', asMember(server, account, account.owner, 'update-approval-policy', { accountId: account.accountId, requiredApprovals: 2 }));
      assert.equal(two.status, 200, two.text);
      await chain.setBalance(account.walletAddress, ETH);
      const policyId = await policy(account.accountId, [{ type: 'max_amount', asset: 'ETH', chainId: CHAIN, amount: '0.0015', window: '24h' }]);
      const proposal = (nonce: number, value: bigint) => {
        server.clock.advance(1000);
        const body = signedBody(server, account, unsignedTransfer(CHAIN, nonce, recipient(), value));
        return post(server, acme, `/v1/submit/send-transaction-passkey?chain_id=${CHAIN}`, { transactionId: randomUUID(), signedBody: body, actingUserId: a.userId, webAuthnStamp: a.passkey.stamp(JSON.stringify(body)) });
      };
      const approve = (transactionId: string) => post(server, acme, '/v1/submit/approve-transaction', asMember(server, account, b, 'approve-transaction', { transactionId, actingUserId: b.userId }));
      await assertDenied(await proposal(0, 2n * MILLI), policyId, 'max_amount');
      const first = await proposal(0, MILLI);
      const second = await proposal(1, MILLI);
      assert.deepEqual([first.status, first.body.status, second.status, second.body.status], [201, 'created', 201, 'created'], second.text);
      const signed = await approve(first.body.transactionId);
      assert.deepEqual([signed.status, signed.body.status], [200, 'processing'], signed.text);
      await assertDenied(await approve(second.body.transactionId), policyId, 'max_amount', ['transaction.approval_added', 'transaction.status.changed', 'transaction.failed']);
    });

    it('a failed transaction gives its reservation back; no policy, no reservation', async () => {
      const who = await funded();
      await policy(who.accountId, [{ type: 'max_amount', asset: 'ETH', chainId: CHAIN, amount: '1', window: '7d' }]);
      const sent = await send(who, unsignedTransfer(CHAIN, 0, recipient(), MILLI));
      assert.equal(sent.status, 201, sent.text);
      const reserved = () => server.database.db.select().from(policyReservations).where(and(eq(policyReservations.accountId, who.accountId), isNull(policyReservations.releasedAt)));
      assert.deepEqual((await reserved()).map((r) => r.amount), [String(MILLI)]);
      const other = await funded();
      assert.equal((await send(other, unsignedTransfer(CHAIN, 0, recipient(), MILLI))).status, 201);
      assert.equal((await server.database.db.select().from(policyReservations).where(eq(policyReservations.accountId, other.accountId))).length, 0);
    });

    it('concurrent transfers never exceed a 24h cap together', async () => {
      // A synced passkey keeps no counter: concurrent stamps are not refused as out of order.
      const who = await funded(0n, new SoftwareAuthenticator({ counterStep: 0 }));
      const cap = 5;
      const attempts = Number(process.env.POLICY_CONCURRENCY ?? 50);
      await policy(who.accountId, [{ type: 'max_amount', asset: 'ETH', chainId: CHAIN, amount: `0.00${cap}`, window: '24h' }]);
      const results = await Promise.all(Array.from({ length: attempts }, (_, i) => send(who, unsignedTransfer(CHAIN, i, recipient(), MILLI))));
      const codes = results.map((r) => (r.status === 201 ? 'sent' : r.body.code));
      const sent = codes.filter((c) => c === 'sent').length;
      assert.ok(sent <= cap, `sent ${sent} of ${attempts}: ${codes.join(', ')}`);
      assert.equal(codes.filter((c) => c === 'policy_denied').length, attempts - sent, codes.join(', '));
      const held = await server.database.db.select().from(policyReservations).where(and(eq(policyReservations.accountId, who.accountId), isNull(policyReservations.releasedAt)));
      assert.ok(held.reduce((s, r) => s + BigInt(r.amount), 0n) <= BigInt(cap) * MILLI);
      assert.equal(sent, cap, 'every transfer within the cap went: only the window refused');
    });
  });
}
