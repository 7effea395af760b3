// A prepared transaction (a withdrawal's quote, a vault call) approved after its expiry is answered 409 quote_expired,
// whoever failed it first: the watcher's expiry round, or the late approval itself. Passkey and OTP approvals, an
// entity member's proposal and approve-transaction. (It was 409 transaction_id_reused once the watcher had run.)
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Address } from 'viem';
import { registerVault } from '../../src/domain/vaults/vault-admin.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, signedBody, type Customer } from '../harness/customers.js';
import { eventsFor } from '../harness/db.js';
import { signedAt } from '../harness/fixtures.js';
import { asMember, post, seatMember, teamAccount, type TeamAccount } from '../harness/members.js';
import { verifiedBankAccount } from '../harness/money.js';
import { useTenantsOnChain } from '../harness/tenants.js';
import { deployVault } from '../harness/vaults.js';

interface Prepared {
  transactionId: string;
  unsignedTransaction: string;
}

const QUOTE_MS = 60_000;

for (const backend of backends()) {
  describe(`approvals after a prepared transaction expired: 409 quote_expired [${backend}]`, () => {
    const { server, chain, tenants: [acme] } = useTenantsOnChain(backend, 8453, ['Acme'], { VAULT_PREPARATION_SECONDS: String(QUOTE_MS / 1000) });
    let alice: Customer;
    let bankAccountId: string;
    let vaultId: string;

    before(async () => {
      alice = await createCustomer(server, acme);
      await chain.setBalance(alice.walletAddress, ETH);
      bankAccountId = await verifiedBankAccount(server, acme, alice.accountId);
      const demo = await deployVault(chain);
      vaultId = (await registerVault(server.database.db, server.chains, { chainId: 8453, address: demo.vault }, server.clock.now())).vaultId;
      await demo.mint(alice.walletAddress as Address, 1000n * 10n ** 6n);
      const enabled = await post(server, acme, '/v1/submit/enable-product', { accountId: alice.accountId, productId: 'yield_vaults', termsAcceptedAt: signedAt() });
      assert.equal(enabled.status, 200, enabled.text);
    });

    const withdrawal = async (accountId = alice.accountId, bank = bankAccountId): Promise<Prepared> => {
      const res = await post(server, acme, '/v1/submit/create-withdrawal', { accountId, bankAccountId: bank, chainId: 8453, amount: '1.00', currency: 'USD' });
      assert.equal(res.status, 201, res.text);
      return res.body;
    };
    const vaultCall = async (): Promise<Prepared> => {
      const res = await post(server, acme, '/v1/submit/prepare-vault-deposit', { accountId: alice.accountId, vaultId, amount: '5' });
      assert.equal(res.status, 200, res.text);
      return res.body.transactions[0];
    };
    const byPasskey = (p: Prepared) => {
      const body = signedBody(server, alice, p.unsignedTransaction);
      return post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: p.transactionId, signedBody: body, webAuthnStamp: alice.passkey.stamp(JSON.stringify(body)) });
    };
    const byOtp = (p: Prepared, approvalToken: string) =>
      post(server, acme, '/v1/submit/send-transaction-otp?chain_id=8453', { transactionId: p.transactionId, signedBody: signedBody(server, alice, p.unsignedTransaction), approvalToken });
    /** An OTP approval token of alice (a code a resend interval after the last one); valid 5 minutes. */
    const otpToken = async (): Promise<string> => {
      server.clock.advance(31_000);
      assert.equal((await post(server, acme, '/v1/otp/init', { userId: alice.userId, channel: 'email' })).status, 201);
      const code: string = (await acme.client.get(`/v1/sandbox/otp-outbox?userId=${alice.userId}`)).body.data[0].code;
      const verified = await post(server, acme, '/v1/otp/verify', { userId: alice.userId, code });
      assert.equal(verified.status, 200, verified.text);
      return verified.body.approvalToken;
    };
    /** Past its expiry, and the watcher's expiry round has failed it. */
    async function expiredByWatcher(...prepared: Prepared[]) {
      server.clock.advance(QUOTE_MS + 1000);
      await server.watcher!.nextRound();
      for (const p of prepared) await assertExpired(p);
    }
    /** Failed as quote_expired, once: one failure and its events. */
    async function assertExpired(p: Prepared) {
      const got = await acme.client.get(`/v1/query/get-transaction?transactionId=${p.transactionId}`);
      assert.deepEqual([got.body.status, got.body.failureReason, got.body.transactionHash], ['failed', 'quote_expired', null], got.text);
      const rowId = (await server.database.db.query.transactions.findFirst({ where: (t, { eq }) => eq(t.transactionId, p.transactionId) }))!.id;
      const types = (await eventsFor(server.database, rowId)).map((e) => e.type).filter((t) => t !== 'transaction.approval_added');
      assert.deepEqual(types, ['transaction.created', 'transaction.status.changed', 'transaction.failed']);
    }
    const assertQuoteExpired = (res: { status: number; body: { code?: string }; text: string }) => assert.deepEqual([res.status, res.body.code], [409, 'quote_expired'], res.text);

    it('a withdrawal and a vault call the watcher expired: passkey and OTP approvals are 409 quote_expired', async () => {
      const token = await otpToken();
      const [w, v] = [await withdrawal(), await vaultCall()];
      await expiredByWatcher(w, v);
      for (const p of [w, v]) {
        assertQuoteExpired(await byPasskey(p));
        assertQuoteExpired(await byOtp(p, token));
        await assertExpired(p);
      }
    });

    it('approved after the expiry, before the watcher ran: 409 quote_expired, and again after', async () => {
      const token = await otpToken();
      const [w, v] = [await withdrawal(), await vaultCall()];
      server.clock.advance(QUOTE_MS + 1000);
      assertQuoteExpired(await byOtp(w, token));
      assertQuoteExpired(await byPasskey(v));
      for (const p of [w, v]) {
        await assertExpired(p);
        assertQuoteExpired(await byPasskey(p));
      }
    });

    describe('an entity’s withdrawal', () => {
      let account: TeamAccount;
      let a: Customer;
      let b: Customer;
      let entityBank: string;

      before(async () => {
        account = await teamAccount(server, acme);
        [a, b] = [await seatMember(server, acme, account, 'approver'), await seatMember(server, acme, account, 'approver')];
        const policy = await post(server, acme, '/v1/submit/update-approval-policy', asMember(server, account, account.owner, 'update-approval-policy', { accountId: account.accountId, requiredApprovals: 2 }));
        assert.equal(policy.status, 200, policy.text);
        await chain.setBalance(account.walletAddress, ETH);
        const bank = await post(server, acme, '/v1/submit/create-bank-account', { accountId: account.accountId, currency: 'USD', accountHolderName: 'Acme Robotics Inc', us: { accountNumber: '700123456', routingNumber: '021000021', accountType: 'checking' } });
        assert.equal(bank.body.status, 'verified', bank.text);
        entityBank = bank.body.bankAccountId;
      });

      const proposal = (member: Customer, w: Prepared) => {
        const body = signedBody(server, account, w.unsignedTransaction);
        return post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: w.transactionId, signedBody: body, actingUserId: member.userId, webAuthnStamp: member.passkey.stamp(JSON.stringify(body)) });
      };
      const approve = (member: Customer, w: Prepared) => post(server, acme, '/v1/submit/approve-transaction', asMember(server, account, member, 'approve-transaction', { transactionId: w.transactionId }));

      it('expired by the watcher: a member’s proposal and approve-transaction are 409 quote_expired', async () => {
        const [proposed, unproposed] = [await withdrawal(account.accountId, entityBank), await withdrawal(account.accountId, entityBank)];
        assert.equal((await proposal(a, proposed)).status, 201);
        await expiredByWatcher(proposed, unproposed);
        assertQuoteExpired(await approve(b, proposed));
        assertQuoteExpired(await proposal(b, unproposed));
        assertQuoteExpired(await approve(b, unproposed));
      });

      it('expired before the watcher ran: approve-transaction is 409 quote_expired', async () => {
        const w = await withdrawal(account.accountId, entityBank);
        assert.equal((await proposal(a, w)).status, 201);
        server.clock.advance(QUOTE_MS + 1000);
        assertQuoteExpired(await approve(b, w));
        await assertExpired(w);
      });
    });
  });
}
