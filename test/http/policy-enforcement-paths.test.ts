import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { encodeFunctionData, erc20Abi, type Address, type Hex } from 'viem';
import { encodeTransfer } from '../../src/chain/erc20.js';
import { otpApprovalTokens } from '../../src/db/schema/index.js';
import { approvalTokenHash } from '../../src/domain/otp/otp.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, recipient, settled, signedBody, unsignedCall, unsignedTransfer, type Customer } from '../harness/customers.js';
import { assertPolicyDenied, createPolicy, transactionRow } from '../harness/policy-denials.js';
import { useTenantsWithToken } from '../harness/tokens.js';

/*
 * Spending policies on the signing paths policy-enforcement.test.ts does not take (docs/policies.md#enforcement):
 * send-transaction-otp (a cap and allowed destinations, a refusal using no approval token up), and what a policy
 * sees of token calls besides transfer (docs/policies.md#what-a-policy-sees): an approve counts when granted, and a
 * transferFrom counts when it takes from the wallet.
 */
const CHAIN = 8453;
const MILLI = 10n ** 15n;
const USDC = 1_000_000n;

for (const backend of backends()) {
  describe(`spending policies on the OTP path and token calls [${backend}]`, () => {
    const { server, chain, tenants: [acme], token } = useTenantsWithToken(backend, CHAIN, ['Acme']);

    async function funded(usdc = 0n): Promise<Customer> {
      const customer = await createCustomer(server, acme);
      await chain.setBalance(customer.walletAddress, ETH);
      if (usdc > 0n) await token.mint(customer.walletAddress, usdc);
      return customer;
    }
    /** A signed POST in a second of its own (identical signed requests within one are replays). */
    const post = (path: string, body: unknown) => {
      server.clock.advance(1000);
      return acme.client.post(path, body);
    };
    /** An approval token of the customer: a code asked for (past the resend interval), read from the sandbox outbox, verified. */
    async function approvalToken(who: Customer): Promise<string> {
      server.clock.advance(31_000);
      const sent = await post('/v1/otp/init', { userId: who.userId, channel: 'email' });
      assert.equal(sent.status, 201, sent.text);
      const code = (await acme.client.get(`/v1/sandbox/otp-outbox?userId=${who.userId}`)).body.data[0].code as string;
      const verified = await post('/v1/otp/verify', { userId: who.userId, code });
      assert.equal(verified.status, 200, verified.text);
      return verified.body.approvalToken as string;
    }
    /** What the token approved, if anything: when it was used and for which transaction row. */
    const tokenUse = async (approvalToken: string) => {
      const [row] = await server.database.db.select().from(otpApprovalTokens).where(eq(otpApprovalTokens.tokenHash, approvalTokenHash(approvalToken)));
      assert.ok(row, 'the token is stored');
      return { usedAt: row.usedAt, transactionRowId: row.transactionRowId };
    };
    const otpRequest = (who: Customer, approvalToken: string, unsignedTransaction: string, transactionId = randomUUID()) => ({ transactionId, signedBody: signedBody(server, who, unsignedTransaction), approvalToken });
    const sendOtp = (request: ReturnType<typeof otpRequest>) => post(`/v1/submit/send-transaction-otp?chain_id=${CHAIN}`, request);
    const sendPasskey = (who: Customer, unsignedTransaction: string) => {
      const body = signedBody(server, who, unsignedTransaction);
      return post(`/v1/submit/send-transaction-passkey?chain_id=${CHAIN}`, { transactionId: randomUUID(), signedBody: body, webAuthnStamp: who.passkey.stamp(JSON.stringify(body)) });
    };
    /** A call to the listed token (USDC) from the wallet. */
    const tokenCall = (nonce: number, data: Hex) =>
      unsignedCall(CHAIN, nonce, token.address, data);
    const approveCall = (spender: string, raw: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender as Address, raw] });
    const transferFromCall = (from: string, to: string, raw: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: 'transferFrom', args: [from as Address, to as Address, raw] });

    it('send-transaction-otp, max_amount per transaction: the cap itself is sent and completes; one wei over is refused, its approval token left unused', async () => {
      const who = await funded();
      const policyId = await createPolicy(server, acme, who.accountId, [{ type: 'max_amount', asset: 'ETH', chainId: CHAIN, amount: '0.001', window: 'transaction' }]);
      const atCap = otpRequest(who, await approvalToken(who), unsignedTransfer(CHAIN, 0, recipient(), MILLI));
      const sent = await sendOtp(atCap);
      assert.deepEqual([sent.status, sent.body.status], [201, 'processing'], sent.text);
      assert.equal((await settled(acme, atCap.transactionId)).status, 'completed');

      const approvalTokenOver = await approvalToken(who);
      const over = otpRequest(who, approvalTokenOver, unsignedTransfer(CHAIN, 1, recipient(), MILLI + 1n));
      await assertPolicyDenied(server, acme, await sendOtp(over), { policyId, ruleType: 'max_amount', transactionId: over.transactionId });
      assert.deepEqual(await tokenUse(approvalTokenOver), { usedAt: null, transactionRowId: null }, 'a refusal before signing uses no approval up');
      const again = await sendOtp(over);
      assert.deepEqual([again.status, again.body.transactionId, again.body.status, again.body.failureReason], [200, over.transactionId, 'failed', 'policy_denied'], again.text);

      // The token the refusal left approves the next transfer, which uses it up.
      const next = otpRequest(who, approvalTokenOver, unsignedTransfer(CHAIN, 1, recipient(), MILLI));
      const nextSent = await sendOtp(next);
      assert.deepEqual([nextSent.status, nextSent.body.status], [201, 'processing'], nextSent.text);
      const used = await tokenUse(approvalTokenOver);
      assert.ok(used.usedAt, 'used up by the transfer it approved');
      assert.equal(used.transactionRowId, (await transactionRow(server, acme, next.transactionId)).id);
      assert.equal((await settled(acme, next.transactionId)).status, 'completed');
    });

    it('send-transaction-otp, allowed_destinations: a coin payment or a token transfer elsewhere is refused, the token unused; to the listed address it goes', async () => {
      const who = await funded(10n * USDC);
      const friend = recipient();
      const policyId = await createPolicy(server, acme, who.accountId, [{ type: 'allowed_destinations', addresses: [friend] }]);
      const approval = await approvalToken(who);
      await assertPolicyDenied(server, acme, await sendOtp(otpRequest(who, approval, unsignedTransfer(CHAIN, 0, recipient(), MILLI))), { policyId, ruleType: 'allowed_destinations' });
      const tokenElsewhere = otpRequest(who, approval, tokenCall(0, encodeTransfer(recipient(), USDC)));
      await assertPolicyDenied(server, acme, await sendOtp(tokenElsewhere), { policyId, ruleType: 'allowed_destinations', transactionId: tokenElsewhere.transactionId });
      assert.deepEqual(await tokenUse(approval), { usedAt: null, transactionRowId: null });

      const toFriend = otpRequest(who, approval, tokenCall(0, encodeTransfer(friend, USDC)));
      const sent = await sendOtp(toFriend);
      assert.deepEqual([sent.status, sent.body.status], [201, 'processing'], sent.text);
      assert.equal((await settled(acme, toFriend.transactionId)).status, 'completed');
      assert.equal(await token.balanceOf(friend), USDC);
      assert.ok((await tokenUse(approval)).usedAt);
    });

    it('an approve counts when granted: past the cap it is refused; within it, it is reserved and a transfer after it meets the window; its spender must be allowed', async () => {
      const who = await funded(100n * USDC);
      const spender = recipient();
      const capId = await createPolicy(server, acme, who.accountId, [{ type: 'max_amount', asset: 'USDC', chainId: CHAIN, amount: '10', window: '24h' }]);
      await assertPolicyDenied(server, acme, await sendPasskey(who, tokenCall(0, approveCall(spender, 10n * USDC + 1n))), { policyId: capId, ruleType: 'max_amount' });
      const granted = await sendPasskey(who, tokenCall(0, approveCall(spender, 6n * USDC)));
      assert.equal(granted.status, 201, granted.text);
      await assertPolicyDenied(server, acme, await sendPasskey(who, tokenCall(1, encodeTransfer(recipient(), 4n * USDC + 1n))), { policyId: capId, ruleType: 'max_amount' });
      assert.equal((await sendPasskey(who, tokenCall(1, encodeTransfer(recipient(), 4n * USDC)))).status, 201, 'the allowance and the transfer make the cap exactly');

      const other = await funded(100n * USDC);
      const friend = recipient();
      const listId = await createPolicy(server, acme, other.accountId, [{ type: 'allowed_destinations', addresses: [friend] }]);
      await assertPolicyDenied(server, acme, await sendPasskey(other, tokenCall(0, approveCall(spender, USDC))), { policyId: listId, ruleType: 'allowed_destinations' });
      assert.equal((await sendPasskey(other, tokenCall(0, approveCall(friend, USDC)))).status, 201, 'a listed spender');
    });

    it('a transferFrom counts when it takes from the wallet: past the cap refused, at the cap allowed; taking another holder’s tokens is no outflow of the wallet', async () => {
      const who = await funded(100n * USDC);
      const policyId = await createPolicy(server, acme, who.accountId, [{ type: 'max_amount', asset: 'USDC', chainId: CHAIN, amount: '5', window: 'transaction' }]);
      const fromWallet = (raw: bigint) => transferFromCall(who.walletAddress, recipient(), raw);
      await assertPolicyDenied(server, acme, await sendPasskey(who, tokenCall(0, fromWallet(5n * USDC + 1n))), { policyId, ruleType: 'max_amount' });
      const atCap = await sendPasskey(who, tokenCall(0, fromWallet(5n * USDC)));
      assert.equal(atCap.status, 201, atCap.text);
      // The wallet as spender of another holder's allowance: what leaves is not the wallet's (the chain may revert it).
      const another = await sendPasskey(who, tokenCall(1, transferFromCall(recipient(), recipient(), 50n * USDC)));
      assert.equal(another.status, 201, another.text);
    });
  });
}
