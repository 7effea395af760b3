import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Address } from 'viem';
import { encodeTransfer } from '../../src/chain/erc20.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, recipient, signedBody, unsignedCall, unsignedTransfer, type Customer } from '../harness/customers.js';
import { assertPolicyDenied, createPolicy } from '../harness/policy-denials.js';
import { useTenantsWithToken } from '../harness/tokens.js';

/*
 * The expression rule (docs/policies.md#expression-rules), on anvil: a CEL expression refused at creation at its
 * field when it does not check; at a transfer, true allows and false refuses (403 policy_denied, ruleType
 * expression, the transaction failed and unsigned), over amounts in the asset's units and the decoded destinations.
 */
const CHAIN = 8453;
const MILLI = 10n ** 15n;
const USDC = 1_000_000n;

for (const backend of backends()) {
  describe(`spending policies: expression rules [${backend}]`, () => {
    const { server, chain, tenants: [acme], token } = useTenantsWithToken(backend, CHAIN, ['Acme']);

    /** A policy that may be refused (createPolicy asserts a 201). */
    const tryPolicy = (accountId: string, rules: unknown[]) => {
      server.clock.advance(1000);
      return acme.client.post('/v1/policies', { accountId, rules });
    };
    const send = (who: Customer, unsignedTransaction: string) => {
      server.clock.advance(1000);
      const body = signedBody(server, who, unsignedTransaction);
      return acme.client.post(`/v1/submit/send-transaction-passkey?chain_id=${CHAIN}`, { transactionId: randomUUID(), signedBody: body, webAuthnStamp: who.passkey.stamp(JSON.stringify(body)) });
    };
    const tokenTransfer = (nonce: number, to: string, raw: bigint) =>
      unsignedCall(CHAIN, nonce, token.address, encodeTransfer(to as Address, raw));
    const assertDenied = (res: Parameters<typeof assertPolicyDenied>[2], policyId: string) => assertPolicyDenied(server, acme, res, { policyId, ruleType: 'expression' });

    it('an expression that does not check is a 400 at its field; a valid one is shown back as written', async () => {
      const who = await createCustomer(server, acme);
      const bad = await tryPolicy(who.accountId, [
        { type: 'max_amount', asset: 'ETH', chainId: CHAIN, amount: '1', window: 'transaction' },
        { type: 'expression', expression: 'balance > 1.0' },
        { type: 'expression', expression: 'size(destinations)' },
      ]);
      assert.equal(bad.status, 400, bad.text);
      assert.deepEqual(bad.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code]), [['/rules/1/expression', 'invalid_expression'], ['/rules/2/expression', 'invalid_expression']]);
      const rule = { type: 'expression', expression: 'amounts["ETH"] <= 0.001', description: 'small payments only' };
      const good = await tryPolicy(who.accountId, [rule]);
      assert.equal(good.status, 201, good.text);
      assert.deepEqual(good.body.rules, [rule]);
    });

    it('true allows and false refuses: a native cap in the coin’s units, and where a token transfer goes', async () => {
      const who = await createCustomer(server, acme);
      await chain.setBalance(who.walletAddress, ETH);
      await token.mint(who.walletAddress, 200n * USDC);
      const friend = recipient();
      const policyId = await createPolicy(server, acme, who.accountId, [
        { type: 'expression', expression: 'amounts["ETH"] <= 0.001' },
        { type: 'expression', expression: `amounts["USDC"] == 0.0 || (amounts["USDC"] <= 50.0 && destinations == ["${friend.toLowerCase()}"])` },
      ]);
      assert.equal((await send(who, unsignedTransfer(CHAIN, 0, recipient(), MILLI))).status, 201);
      await assertDenied(await send(who, unsignedTransfer(CHAIN, 1, recipient(), MILLI + 1n)), policyId);
      assert.equal((await send(who, tokenTransfer(1, friend, 50n * USDC))).status, 201);
      await assertDenied(await send(who, tokenTransfer(2, recipient(), USDC)), policyId);
      await assertDenied(await send(who, tokenTransfer(2, friend, 50n * USDC + 1n)), policyId);
    });
  });
}
