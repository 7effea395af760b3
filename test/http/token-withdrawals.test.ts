import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { getAddress, parseTransaction, serializeTransaction, type Hex } from 'viem';
import { decodeTransfer } from '../../src/chain/erc20.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, settled, signedBody, type Customer } from '../harness/customers.js';
import { verifiedBankAccount } from '../harness/money.js';
import { useTenantsWithToken } from '../harness/tokens.js';
import type { TransactionView } from '../harness/types.js';

// Withdrawals in a listed token (docs/tokens.md#withdrawals-in-a-token): the quote in USDC, the wallet's ERC-20 transfer
// to the treasury as the transaction to approve, the fiat payout, and a returned payout refunded in the same USDC.

const USDC = 10n ** 6n;
const CHAIN = 8453;

for (const backend of backends()) {
  describe(`withdrawals in a token: quote, approval, transfer to the treasury, refund [${backend}]`, () => {
    const { server, chain, tenants: [acme], token } = useTenantsWithToken(backend, CHAIN, ['Acme']);
    let alice: Customer;
    let bankAccountId: string;

    before(async () => {
      alice = await createCustomer(server, acme);
      await chain.setBalance(alice.walletAddress, ETH);
      await chain.setBalance(server.treasury!.address, ETH);
      await token.mint(alice.walletAddress, 500n * USDC);
      bankAccountId = await verifiedBankAccount(server, acme, alice.accountId);
    });

    const post = (path: string, body: unknown) => {
      server.clock.advance(1000);
      return acme.client.post(path, body);
    };
    const create = (body: Record<string, unknown> = {}) => post('/v1/submit/create-withdrawal', { accountId: alice.accountId, bankAccountId, chainId: CHAIN, amount: '100.00', currency: 'USD', asset: 'usdc', ...body });
    const approve = (w: TransactionView, unsignedTransaction = w.unsignedTransaction!) => {
      const body = signedBody(server, alice, unsignedTransaction);
      return post(`/v1/submit/send-transaction-passkey?chain_id=${CHAIN}`, { transactionId: w.transactionId, signedBody: body, webAuthnStamp: alice.passkey.stamp(JSON.stringify(body)) });
    };
    /** A quote approved and its transfer mined: funds_in_transfer, the fiat payout pending. */
    async function inTransfer(amount: string): Promise<TransactionView> {
      const w: TransactionView = (await create({ amount })).body;
      const approved = await approve(w);
      assert.equal(approved.status, 201, approved.text);
      const moved = await settled(acme, w.transactionId);
      assert.equal(moved.status, 'funds_in_transfer', JSON.stringify(moved));
      return moved;
    }

    it('quotes amount + fee in USDC at the rate it shows, and the transaction to approve is the wallet’s transfer(treasury, amount) to the token', async () => {
      const res = await create();
      assert.equal(res.status, 201, res.text);
      const w: TransactionView = res.body;
      assert.deepEqual({ ...w.withdrawal, quoteExpiresAt: undefined }, { amount: '100.00', currency: 'USD', fee: '0.50', asset: 'USDC', cryptoAmount: '100.5', cryptoAmountRaw: String(100_500_000n), rate: '1', bankAccountId, last4: w.withdrawal!.last4, quoteExpiresAt: undefined });
      const unsigned = parseTransaction(w.unsignedTransaction as Hex);
      assert.equal(getAddress(unsigned.to!), getAddress(token.address), 'sent to the token contract');
      assert.equal(unsigned.value ?? 0n, 0n, 'no coin');
      assert.deepEqual(decodeTransfer(unsigned.data), { to: server.treasury!.address, amount: 100_500_000n });
      assert.deepEqual((await acme.client.get(`/v1/query/get-transaction?transactionId=${w.transactionId}`)).body, w);
    });

    it('approved: exactly the quoted USDC moves from the wallet to the treasury, and the payout settles', async () => {
      const [walletBefore, treasuryBefore] = [await token.balanceOf(alice.walletAddress), await token.balanceOf(server.treasury!.address)];
      const moved = await inTransfer('12.34');
      const taken = BigInt(moved.withdrawal!.cryptoAmountRaw);
      assert.equal(taken, 12_410_000n, '12.34 + its 0.5% fee rounded up to the cent (0.07), at 1 USDC per USD');
      assert.equal(walletBefore - (await token.balanceOf(alice.walletAddress)), taken);
      assert.equal((await token.balanceOf(server.treasury!.address)) - treasuryBefore, taken);
      const done = await post('/v1/sandbox/simulate-withdrawal', { transactionId: moved.transactionId, outcome: 'completed' });
      assert.deepEqual([done.status, done.body.status], [200, 'completed'], done.text);
    });

    it('returned: the refund pays the same USDC back from the treasury, exactly once', async () => {
      const moved = await inTransfer('7.00');
      const walletBefore = await token.balanceOf(alice.walletAddress);
      const treasuryBefore = await token.balanceOf(server.treasury!.address);
      const returned = await post('/v1/sandbox/simulate-withdrawal', { transactionId: moved.transactionId, outcome: 'returned' });
      assert.deepEqual([returned.body.status, returned.body.failureReason], ['failed', 'payout_returned'], returned.text);
      const list = await acme.client.get(`/v1/query/list-transactions?accountId=${alice.accountId}&limit=100`);
      const refunds = list.body.data.filter((t: TransactionView) => t.kind === 'refund' && t.refund?.withdrawalTransactionId === moved.transactionId);
      assert.equal(refunds.length, 1, 'one refund');
      assert.deepEqual(refunds[0].refund, { withdrawalTransactionId: moved.transactionId, asset: 'USDC', cryptoAmount: moved.withdrawal!.cryptoAmount, cryptoAmountRaw: moved.withdrawal!.cryptoAmountRaw });
      const refund = await settled(acme, refunds[0].transactionId, 'funds_in_transfer').then((t) => (t.status === 'processing' ? settled(acme, t.transactionId) : t));
      assert.equal(refund.status, 'completed', JSON.stringify(refund));
      assert.equal(refund.transactionReceipt.to.toLowerCase(), token.address.toLowerCase(), 'a transfer of the token');
      assert.equal((await token.balanceOf(alice.walletAddress)) - walletBefore, BigInt(moved.withdrawal!.cryptoAmountRaw), 'refunded in full, fee included');
      assert.equal(treasuryBefore - (await token.balanceOf(server.treasury!.address)), BigInt(moved.withdrawal!.cryptoAmountRaw));
    });

    it('refuses an unknown asset, a currency without a rate for the token (422 not_offered), a wallet short of the token; a mismatched or late approval as for ETH', async () => {
      const unknown = await create({ asset: 'EURC' });
      assert.deepEqual([unknown.status, unknown.body.errors?.[0]?.pointer, unknown.body.errors?.[0]?.code], [400, '/asset', 'unknown_asset'], unknown.text);
      const iban = await post('/v1/submit/create-bank-account', { accountId: alice.accountId, currency: 'EUR', accountHolderName: 'Maria Garcia', iban: { iban: 'DE89370400440532013000' } });
      assert.equal(iban.body.status, 'verified', iban.text);
      const eur = await create({ bankAccountId: iban.body.bankAccountId, currency: 'EUR' });
      assert.deepEqual([eur.status, eur.body.code, eur.body.errors?.[0]?.pointer, eur.body.errors?.[0]?.code], [422, 'not_offered', '/asset', 'no_rate'], eur.text);
      assert.equal(eur.body.detail, 'Withdrawals of EUR in USDC are not offered on this deployment: WITHDRAWAL_TOKEN_RATES has no rate for EUR:USDC');
      const short = await create({ amount: '10000.00' });
      assert.deepEqual([short.status, short.body.code], [422, 'insufficient_funds'], short.text);
      assert.match(short.body.detail, /holds [0-9.]+ USDC, the withdrawal takes 10050 USDC/);

      const w: TransactionView = (await create({ amount: '1.00' })).body;
      const issued = parseTransaction(w.unsignedTransaction as Hex);
      // The same transfer for another amount (its last byte changed).
      const smaller = serializeTransaction({ chainId: CHAIN, type: 'eip1559', nonce: issued.nonce!, to: issued.to!, value: 0n, data: `${issued.data!.slice(0, -2)}00` as Hex, gas: issued.gas!, maxFeePerGas: issued.maxFeePerGas!, maxPriorityFeePerGas: issued.maxPriorityFeePerGas! });
      const mismatch = await approve(w, smaller);
      assert.deepEqual([mismatch.status, mismatch.body.code], [409, 'transaction_mismatch'], mismatch.text);
      server.clock.advance(60_000);
      const late = await approve(w);
      assert.deepEqual([late.status, late.body.code], [409, 'quote_expired'], late.text);
    });
  });
}
