import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { getAddress, serializeTransaction, type Address } from 'viem';
import { encodeTransfer } from '../../src/chain/erc20.js';
import { transactions } from '../../src/db/schema/index.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, recipient, settled, signedBody, type Customer } from '../harness/customers.js';
import { eventsFor } from '../harness/db.js';
import { asMember, post, seatMember, teamAccount, type TeamAccount } from '../harness/members.js';
import { useTenantsWithToken } from '../harness/tokens.js';
import type { EventData, TransactionView } from '../harness/types.js';

// Transfers of a listed token (docs/tokens.md#transfers): a submitted transaction whose call is the token's
// transfer(to, amount) is shown decoded in its views and events, and the pre-flight refuses one beyond the wallet's
// balance of the token as it refuses one beyond its gas, before anything is signed or used up.

const USDC = 1_000_000n;

/** An unsigned EIP-1559 call of `data` to `to` on chain 8453, with room for an ERC-20 transfer's gas. */
const unsignedCall = (nonce: number, to: string, data: `0x${string}`, value = 0n) =>
  serializeTransaction({ chainId: 8453, type: 'eip1559', nonce, to: to as Address, value, data, gas: 100_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n });

for (const backend of backends()) {
  describe(`transfers of a listed token on anvil [${backend}]`, () => {
    const { server, chain, tenants: [acme], token } = useTenantsWithToken(backend, 8453, ['Acme']);

    /** An active customer whose wallet holds 1 ETH for gas and `usdc` base units of the token. */
    async function holder(usdc: bigint): Promise<Customer> {
      const customer = await createCustomer(server, acme);
      await chain.setBalance(customer.walletAddress, ETH);
      if (usdc > 0n) await token.mint(customer.walletAddress, usdc);
      return customer;
    }

    const tokenTransfer = (nonce: number, to: string, raw: bigint) => unsignedCall(nonce, token.address, encodeTransfer(to as Address, raw));
    const expected = (to: string, amount: string, amountRaw: string) => ({ symbol: 'USDC', tokenAddress: getAddress(token.address), to: getAddress(to), amount, amountRaw });

    function byPasskey(who: Pick<Customer, 'organizationId' | 'walletAddress' | 'passkey'>, unsignedTransaction: string, extra: Record<string, unknown> = {}) {
      const body = signedBody(server, who, unsignedTransaction);
      return { transactionId: randomUUID(), signedBody: body, webAuthnStamp: who.passkey.stamp(JSON.stringify(body)), ...extra };
    }
    const submit = (request: unknown) => post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', request);

    async function otpToken(userId: string): Promise<string> {
      server.clock.advance(31_000);
      assert.equal((await acme.client.post('/v1/otp/init', { userId, channel: 'email' })).status, 201);
      const box = await acme.client.get(`/v1/sandbox/otp-outbox?userId=${userId}`);
      const verified = await acme.client.post('/v1/otp/verify', { userId, code: box.body.data[0].code });
      assert.equal(verified.status, 200, verified.text);
      return verified.body.approvalToken;
    }

    const rowsOf = (transactionId: string) => server.database.db.select().from(transactions).where(eq(transactions.transactionId, transactionId));
    const minedNonce = async (address: string) => Number(BigInt(await chain.rpc<string>('eth_getTransactionCount', [address, 'latest'])));

    /** Every event of the transaction, as [type, the transfer its object carries]. */
    async function eventTransfers(transactionId: string) {
      const [row] = await rowsOf(transactionId);
      return (await eventsFor(server.database, row!.id)).map((e) => [e.type, (e.data as EventData<TransactionView & { transfer?: unknown }>).object.transfer]);
    }

    it('by passkey: decoded in its answer, get-transaction, list-transactions and every event; mined, the recipient holds exactly the amount', async () => {
      const alice = await holder(100n * USDC);
      const to = recipient();
      const request = byPasskey(alice, tokenTransfer(0, to, 12_500_000n));
      const res = await submit(request);
      assert.equal(res.status, 201, res.text);
      const transfer = expected(to, '12.5', '12500000');
      assert.deepEqual(res.body.transfer, transfer);

      const done = await settled(acme, request.transactionId);
      assert.equal(done.status, 'completed', JSON.stringify(done));
      assert.deepEqual(done.transfer, transfer);
      // The account's own transactions (the USDC minted to its wallet may be listed too, as an incoming transfer).
      const list = await acme.client.get(`/v1/query/list-transactions?accountId=${alice.accountId}`);
      const own = list.body.data.filter((t: { kind: string }) => t.kind !== 'incoming');
      assert.deepEqual(own.map((t: { transactionId: string; transfer?: unknown }) => [t.transactionId, t.transfer]), [[request.transactionId, transfer]]);
      assert.deepEqual(await eventTransfers(request.transactionId), [
        ['transaction.created', transfer],
        ['transaction.status.changed', transfer],
        ['transaction.completed', transfer],
      ]);
      assert.equal(await token.balanceOf(to), 12_500_000n);
      assert.equal(await token.balanceOf(alice.walletAddress), 87_500_000n);
    });

    it('by OTP: decoded, mined, paid exactly', async () => {
      const bob = await holder(3n * USDC);
      const to = recipient();
      const { webAuthnStamp: _stamp, ...transfer } = byPasskey(bob, tokenTransfer(0, to, 3n * USDC));
      const request = { ...transfer, approvalToken: await otpToken(bob.userId) };
      const res = await post(server, acme, '/v1/submit/send-transaction-otp?chain_id=8453', request);
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(res.body.transfer, expected(to, '3', '3000000'));
      assert.equal((await settled(acme, request.transactionId)).status, 'completed');
      assert.equal(await token.balanceOf(to), 3n * USDC);
    });

    it('beyond the token balance: 422 insufficient_funds naming the token, before signing; nothing written, the stamp and the nonce unused', async () => {
      const carol = await holder(5_250_000n);
      const to = recipient();
      const request = byPasskey(carol, tokenTransfer(0, to, 10n * USDC));
      const refused = await submit(request);
      assert.equal(refused.status, 422, refused.text);
      assert.equal(refused.body.code, 'insufficient_funds');
      assert.match(refused.body.detail, /the wallet holds 5\.25 USDC, the transfer needs 10 USDC/i);
      assert.deepEqual(await rowsOf(request.transactionId), []);
      assert.equal(await minedNonce(carol.walletAddress), 0);
      const carols = (await acme.client.get(`/v1/query/list-transactions?accountId=${carol.accountId}`)).body.data;
      assert.deepEqual(carols.filter((t: { kind: string }) => t.kind !== 'incoming'), [], 'nothing of its own (its minted USDC may be an incoming transfer)');

      // Funded since: the very same request (its stamp, its nonce) now goes through.
      await token.mint(carol.walletAddress, 5n * USDC);
      const sent = await submit(request);
      assert.equal(sent.status, 201, sent.text);
      assert.equal((await settled(acme, request.transactionId)).status, 'completed');
      assert.equal(await token.balanceOf(to), 10n * USDC);
    });

    it('beyond the token balance by OTP: refused the same way, the approval token still good afterwards', async () => {
      const dave = await holder(USDC);
      const { webAuthnStamp: _stamp, ...transfer } = byPasskey(dave, tokenTransfer(0, recipient(), 2n * USDC));
      const request = { ...transfer, approvalToken: await otpToken(dave.userId) };
      const refused = await post(server, acme, '/v1/submit/send-transaction-otp?chain_id=8453', request);
      assert.deepEqual([refused.status, refused.body.code], [422, 'insufficient_funds'], refused.text);
      assert.match(refused.body.detail, /holds 1 USDC, the transfer needs 2 USDC/);
      assert.deepEqual(await rowsOf(request.transactionId), []);
      await token.mint(dave.walletAddress, USDC);
      const sent = await post(server, acme, '/v1/submit/send-transaction-otp?chain_id=8453', request);
      assert.equal(sent.status, 201, sent.text);
    });

    it('a coin transfer, a transfer call to an unlisted contract, and a listed token’s call sending coin: not decoded, not checked', async () => {
      const erin = await holder(0n);
      const coin = await submit(byPasskey(erin, unsignedCall(0, recipient(), '0x', 10n ** 15n)));
      assert.equal(coin.status, 201, coin.text);
      assert.equal('transfer' in coin.body, false);
      // Far beyond any balance, yet a call to an address that is not a listed token is just a contract call.
      const unlisted = await submit(byPasskey(erin, unsignedCall(1, recipient(), encodeTransfer(recipient(), 10n ** 30n))));
      assert.equal(unlisted.status, 201, unlisted.text);
      assert.equal('transfer' in unlisted.body, false);
      const withValue = await submit(byPasskey(erin, unsignedCall(2, token.address, encodeTransfer(recipient(), 10n ** 30n), 1n)));
      assert.equal(withValue.status, 201, withValue.text);
      assert.equal('transfer' in withValue.body, false);
      for (const res of [coin, unlisted]) assert.equal('transfer' in (await settled(acme, res.body.transactionId)), false);
    });

    describe('from an entity wallet', () => {
      const approval = (account: TeamAccount, member: { userId: string; passkey: Customer['passkey'] }, transactionId: string) => asMember(server, account, member, 'approve-transaction', { transactionId });
      const approve = (body: unknown) => post(server, acme, '/v1/submit/approve-transaction', body);

      async function team(required: number, usdc: bigint) {
        const account = await teamAccount(server, acme);
        const approver = await seatMember(server, acme, account, 'approver');
        if (required !== 1) {
          const policy = await post(server, acme, '/v1/submit/update-approval-policy', asMember(server, account, account.owner, 'update-approval-policy', { accountId: account.accountId, requiredApprovals: required }));
          assert.equal(policy.status, 200, policy.text);
        }
        await chain.setBalance(account.walletAddress, ETH);
        if (usdc > 0n) await token.mint(account.walletAddress, usdc);
        return { account, approver };
      }
      const proposal = (account: TeamAccount, unsignedTransaction: string) => byPasskey({ ...account, passkey: account.owner.passkey }, unsignedTransaction, { actingUserId: account.owner.userId });

      it('a quorum of one: decoded, mined, paid; beyond the balance refused before anything is written', async () => {
        const { account } = await team(1, 4n * USDC);
        const short = proposal(account, tokenTransfer(0, recipient(), 4_000_001n));
        const refused = await submit(short);
        assert.deepEqual([refused.status, refused.body.code], [422, 'insufficient_funds'], refused.text);
        assert.match(refused.body.detail, /holds 4 USDC, the transfer needs 4\.000001 USDC/);
        assert.deepEqual(await rowsOf(short.transactionId), []);

        const to = recipient();
        const request = proposal(account, tokenTransfer(0, to, 4n * USDC));
        const res = await submit(request);
        assert.deepEqual([res.status, res.body.status], [201, 'processing'], res.text);
        assert.deepEqual(res.body.transfer, expected(to, '4', '4000000'));
        assert.equal((await settled(acme, request.transactionId)).status, 'completed');
        assert.equal(await token.balanceOf(to), 4n * USDC);
      });

      it('a quorum of two: the proposal shows the transfer while it waits; the approval that reaches the quorum is refused while the wallet is short, then sends', async () => {
        const { account, approver } = await team(2, USDC);
        const to = recipient();
        const request = proposal(account, tokenTransfer(0, to, 2n * USDC));
        const proposed = await submit(request);
        assert.deepEqual([proposed.status, proposed.body.status], [201, 'created'], proposed.text);
        const transfer = expected(to, '2', '2000000');
        assert.deepEqual(proposed.body.transfer, transfer);

        const approverSays = approval(account, approver, request.transactionId);
        const refused = await approve(approverSays);
        assert.deepEqual([refused.status, refused.body.code], [422, 'insufficient_funds'], refused.text);
        assert.match(refused.body.detail, /holds 1 USDC, the transfer needs 2 USDC/);
        const waiting = await acme.client.get(`/v1/query/get-transaction?transactionId=${request.transactionId}`);
        assert.deepEqual([waiting.body.status, waiting.body.approvals.received.length], ['created', 1]);

        // The approver's stamp was not used up: the same request counts once the wallet holds enough.
        await token.mint(account.walletAddress, USDC);
        const approved = await approve(approverSays);
        assert.deepEqual([approved.status, approved.body.status], [200, 'processing'], approved.text);
        assert.deepEqual(approved.body.transfer, transfer);
        assert.equal((await settled(acme, request.transactionId)).status, 'completed');
        assert.equal(await token.balanceOf(to), 2n * USDC);
        const types = (await eventTransfers(request.transactionId)).map(([type, t]) => (assert.deepEqual(t, transfer), type));
        assert.deepEqual(types, ['transaction.created', 'transaction.approval_added', 'transaction.approval_added', 'transaction.status.changed', 'transaction.status.changed', 'transaction.completed']);
      });
    });
  });
}
