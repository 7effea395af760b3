// A withdrawal whose bank account was removed (or is no longer verified) after its quote is refused at every
// approval path: individual passkey and OTP, a member's proposal, the member approval that reaches the quorum. The
// withdrawal fails (bank_account_unavailable) with its events; nothing is signed, sent or paid out.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { bankAccounts, transactions, withdrawalPayouts } from '../../src/db/schema/index.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, signedBody, type Customer } from '../harness/customers.js';
import { eventsFor, statementsWaitingOnLocks } from '../harness/db.js';
import { eventually } from '../harness/eventually.js';
import { asMember, post, seatMember, teamAccount, type TeamAccount } from '../harness/members.js';
import { verifiedBankAccount } from '../harness/money.js';
import { useTenantsOnChain } from '../harness/tenants.js';

interface Quote {
  transactionId: string;
  unsignedTransaction: string;
}

for (const backend of backends()) {
  describe(`withdrawal approval: the bank account must still be verified [${backend}]`, () => {
    const { server, chain, tenants: [acme] } = useTenantsOnChain(backend, 8453, ['Acme']);
    let alice: Customer;

    before(async () => {
      alice = await createCustomer(server, acme);
      await chain.setBalance(alice.walletAddress, ETH);
      await chain.setBalance(server.treasury!.address, ETH);
    });

    const quote = async (accountId: string, bankAccountId: string): Promise<Quote> => {
      const res = await post(server, acme, '/v1/submit/create-withdrawal', { accountId, bankAccountId, chainId: 8453, amount: '1.00', currency: 'USD' });
      assert.equal(res.status, 201, res.text);
      return res.body;
    };
    const remove = async (bankAccountId: string) => {
      const res = await post(server, acme, '/v1/submit/remove-bank-account', { bankAccountId });
      assert.equal(res.status, 200, res.text);
    };
    const byPasskey = (payer: Customer, w: Quote) => {
      const body = signedBody(server, payer, w.unsignedTransaction);
      return post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: w.transactionId, signedBody: body, webAuthnStamp: payer.passkey.stamp(JSON.stringify(body)) });
    };
    /** An OTP approval token of the customer (a code a resend interval after the last one). */
    const otpToken = async (payer: Customer): Promise<string> => {
      server.clock.advance(31_000);
      assert.equal((await post(server, acme, '/v1/otp/init', { userId: payer.userId, channel: 'email' })).status, 201);
      const code: string = (await acme.client.get(`/v1/sandbox/otp-outbox?userId=${payer.userId}`)).body.data[0].code;
      const verified = await post(server, acme, '/v1/otp/verify', { userId: payer.userId, code });
      assert.equal(verified.status, 200, verified.text);
      return verified.body.approvalToken;
    };
    const nonceOf = async (address: string) => Number(BigInt(await chain.rpc<string>('eth_getTransactionCount', [address, 'pending'])));

    /** Failed as bank_account_unavailable, with its events; never signed, sent, or given a payout. */
    async function assertFailedUnpaid(w: Quote, wallet: string, nonceBefore: number) {
      const got = await acme.client.get(`/v1/query/get-transaction?transactionId=${w.transactionId}`);
      assert.deepEqual([got.body.status, got.body.failureReason, got.body.transactionHash], ['failed', 'bank_account_unavailable', null], got.text);
      const [row] = await server.database.db.select().from(transactions).where(eq(transactions.id, w.transactionId));
      assert.deepEqual([row!.signedRaw, row!.transactionHash], [null, null], 'nothing was signed');
      const types = (await eventsFor(server.database, w.transactionId)).map((e) => [e.type, (e.data as { object: { status: string } }).object.status]);
      assert.deepEqual(types.filter(([type]) => type !== 'transaction.approval_added'), [
        ['transaction.created', 'created'],
        ['transaction.status.changed', 'failed'],
        ['transaction.failed', 'failed'],
      ]);
      assert.equal(await nonceOf(wallet), nonceBefore, 'nothing was sent from the wallet');
      await server.watcher!.nextRound();
      assert.deepEqual(await server.database.db.select().from(withdrawalPayouts).where(eq(withdrawalPayouts.transactionRowId, w.transactionId)), [], 'no payout');
    }

    it('passkey: removed after the quote, the approval is 409 bank_account_removed and the withdrawal fails; approving again says the same', async () => {
      const bankAccountId = await verifiedBankAccount(server, acme, alice.accountId);
      const w = await quote(alice.accountId, bankAccountId);
      await remove(bankAccountId);
      const nonce = await nonceOf(alice.walletAddress);
      const res = await byPasskey(alice, w);
      assert.deepEqual([res.status, res.body.code], [409, 'bank_account_removed'], res.text);
      await assertFailedUnpaid(w, alice.walletAddress, nonce);
      const again = await byPasskey(alice, w);
      assert.deepEqual([again.status, again.body.code], [409, 'bank_account_removed'], again.text);
    });

    it('OTP: the same refusal, and the withdrawal fails', async () => {
      const token = await otpToken(alice);
      const bankAccountId = await verifiedBankAccount(server, acme, alice.accountId);
      const w = await quote(alice.accountId, bankAccountId);
      await remove(bankAccountId);
      const nonce = await nonceOf(alice.walletAddress);
      const res = await post(server, acme, '/v1/submit/send-transaction-otp?chain_id=8453', { transactionId: w.transactionId, signedBody: signedBody(server, alice, w.unsignedTransaction), approvalToken: token });
      assert.deepEqual([res.status, res.body.code], [409, 'bank_account_removed'], res.text);
      await assertFailedUnpaid(w, alice.walletAddress, nonce);
    });

    it('a bank account back under review is 409 bank_account_not_verified', async () => {
      const bankAccountId = await verifiedBankAccount(server, acme, alice.accountId);
      const w = await quote(alice.accountId, bankAccountId);
      // No operation moves a verified bank account back to review today; the approval must not assume none ever will.
      await server.database.db.update(bankAccounts).set({ status: 'pending_review' }).where(eq(bankAccounts.id, bankAccountId));
      const nonce = await nonceOf(alice.walletAddress);
      const res = await byPasskey(alice, w);
      assert.deepEqual([res.status, res.body.code], [409, 'bank_account_not_verified'], res.text);
      await assertFailedUnpaid(w, alice.walletAddress, nonce);
    });

    describe('an entity’s withdrawal', () => {
      let account: TeamAccount;
      let a: Customer;
      let b: Customer;

      before(async () => {
        account = await teamAccount(server, acme);
        [a, b] = [await seatMember(server, acme, account, 'approver'), await seatMember(server, acme, account, 'approver')];
        await chain.setBalance(account.walletAddress, ETH);
      });

      const entityBank = async () => {
        const res = await post(server, acme, '/v1/submit/create-bank-account', { accountId: account.accountId, currency: 'USD', accountHolderName: 'Acme Robotics Inc', us: { accountNumber: String(Date.now()).slice(-9), routingNumber: '021000021', accountType: 'checking' } });
        assert.equal(res.body.status, 'verified', res.text);
        return res.body.bankAccountId as string;
      };
      const proposal = (member: Customer, w: Quote) => {
        const body = signedBody(server, account, w.unsignedTransaction);
        return post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: w.transactionId, signedBody: body, actingUserId: member.userId, webAuthnStamp: member.passkey.stamp(JSON.stringify(body)) });
      };
      const requiredApprovals = async (n: number) => {
        const res = await post(server, acme, '/v1/submit/update-approval-policy', asMember(server, account, account.owner, 'update-approval-policy', { accountId: account.accountId, requiredApprovals: n }));
        assert.equal(res.status, 200, res.text);
      };

      it('removed before the approval that reaches the quorum: approve-transaction is 409 bank_account_removed, nothing is signed', async () => {
        await requiredApprovals(2);
        const bankAccountId = await entityBank();
        const w = await quote(account.accountId, bankAccountId);
        const proposed = await proposal(a, w);
        assert.deepEqual([proposed.status, proposed.body.status], [201, 'created'], proposed.text);
        await remove(bankAccountId);
        const nonce = await nonceOf(account.walletAddress);
        const res = await post(server, acme, '/v1/submit/approve-transaction', asMember(server, account, b, 'approve-transaction', { transactionId: w.transactionId }));
        assert.deepEqual([res.status, res.body.code], [409, 'bank_account_removed'], res.text);
        await assertFailedUnpaid(w, account.walletAddress, nonce);
      });

      it('removed before a proposal that is the quorum by itself: the proposal is 409 bank_account_removed', async () => {
        await requiredApprovals(1);
        const bankAccountId = await entityBank();
        const w = await quote(account.accountId, bankAccountId);
        await remove(bankAccountId);
        const nonce = await nonceOf(account.walletAddress);
        const res = await proposal(a, w);
        assert.deepEqual([res.status, res.body.code], [409, 'bank_account_removed'], res.text);
        await assertFailedUnpaid(w, account.walletAddress, nonce);
      });
    });

    it('a removal racing the approval: the approval waits for it and refuses, it does not sign what the removal is taking away', { skip: backend !== 'postgres' && 'PGlite has one connection: nothing races' }, async () => {
      const bankAccountId = await verifiedBankAccount(server, acme, alice.accountId);
      const w = await quote(alice.accountId, bankAccountId);
      const nonce = await nonceOf(alice.walletAddress);
      let approving!: ReturnType<typeof byPasskey>;
      // remove-bank-account's own statements on another connection, held uncommitted while the approval arrives.
      await server.database.db.transaction(async (tx) => {
        await tx.execute(sql`select id from bank_accounts where id = ${bankAccountId} for update`);
        await tx.execute(sql`update bank_accounts set status = 'removed', removed_at = now() where id = ${bankAccountId}`);
        approving = byPasskey(alice, w);
        await eventually(() => statementsWaitingOnLocks(server.database, '%from "bank_accounts"%'), (n) => n === 1, 'the approval to wait for the bank account');
      });
      const res = await approving;
      assert.deepEqual([res.status, res.body.code], [409, 'bank_account_removed'], res.text);
      await assertFailedUnpaid(w, alice.walletAddress, nonce);
    });
  });
}
