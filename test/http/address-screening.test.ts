import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { getAddress, serializeTransaction, type Address, type Hex } from 'viem';
import { encodeTransfer } from '../../src/chain/erc20.js';
import { events as eventsTable, reviewCases, transactions, usedStampChallenges } from '../../src/db/schema/index.js';
import { createOperator } from '../../src/domain/operators/operators.js';
import { adminRequest } from '../harness/admin.js';
import type { Anvil } from '../harness/anvil.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, recipient, signedBody, type Customer } from '../harness/customers.js';
import { heldDeposit } from '../harness/listed-addresses.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenantsWithToken, type TestToken } from '../harness/tokens.js';
import { approveAs, teamWithPendingTransfer } from '../harness/entity-team.js';

// docs/screening.md#wallet-addresses: wallet addresses published on a list in OFAC's format (SDN.CSV remarks:
// "Digital Currency Address - ETH 0x…;") are screened. A transfer to one (its `to`, or a token transfer's recipient) is
// refused before anything is signed or used up (403 sanctioned_address); a deposit's payout to a listed wallet is held,
// never signed; an incoming transfer from one is recorded. Each is recorded once for operators (/admin/api/address-hits).

const LISTED = getAddress('0x' + '7f'.repeat(19) + '01');
const LISTED_USDC = getAddress('0x' + '6e'.repeat(19) + '02');
const LISTED_WALLET = getAddress('0x' + '5d'.repeat(19) + '03');
const USDC = 1_000_000n;

/** A list folder in OFAC's SDN format (no header, -0- for empty) holding one fictional entity with three addresses (and `more`). */
function writeList(dir: string, more: string[] = []): void {
  const empty = '-0- ';
  const remarks = `Digital Currency Address - ETH ${LISTED}; Digital Currency Address - USDC ${LISTED_USDC}; Digital Currency Address - ETH ${LISTED_WALLET.toLowerCase()}; ${more.map((a) => `Digital Currency Address - ETH ${a}; `).join('')}Website fictional-mixer.example.`;
  const sdn = ['9001', '"FICTIONAL MIXER LTD"', empty, '"CYBER2] [DPRK3"', empty, empty, empty, empty, empty, empty, empty, `"${remarks}"`].join(',');
  writeFileSync(join(dir, 'SDN.CSV'), `${sdn}\r\n`);
  writeFileSync(join(dir, 'ALT.CSV'), '');
  writeFileSync(join(dir, 'ADD.CSV'), '');
}

for (const backend of backends()) {
  describe(`wallet addresses on a screening list [${backend}]`, () => {
    const listDir = mkdtempSync(join(tmpdir(), 'iapi-sdn-'));
    let server: TestServer;
    let chain: Anvil;
    let acme: SeededIntegrator;
    let token: TestToken;
    let alice: Customer;
    let operatorToken: string;

    before(async () => {
      writeList(listDir);
      ({ server, chain, tenants: [acme], token } = await startTenantsWithToken(backend, 8453, ['Acme'], { SCREENING_LISTS: `TEST-SDN=${listDir}`, INCOMING_POLL_MS: '60000' }));
      alice = await createCustomer(server, acme);
      await chain.setBalance(alice.walletAddress, ETH);
      await token.mint(alice.walletAddress, 100n * USDC);
      operatorToken = (await createOperator(server.database, 'compliance desk', server.clock.now())).token;
    });
    after(async () => {
      await server?.close();
      rmSync(listDir, { recursive: true, force: true });
    });

    const hits = async () => {
      const res = await adminRequest(server, 'GET', '/admin/api/address-hits?limit=100', { token: operatorToken });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data as { activity: string; address: string; list: string; entryNumber: string; listedName: string; programs: string[]; currency: string; accountId: string; transactionRowId: string | null }[];
    };
    const usedStamps = async () => (await server.database.db.select().from(usedStampChallenges)).length;

    function submission(unsignedTransaction: string) {
      server.clock.advance(1000);
      const body = signedBody(server, alice, unsignedTransaction);
      return { transactionId: randomUUID(), signedBody: body, webAuthnStamp: alice.passkey.stamp(JSON.stringify(body)) };
    }
    const submit = (request: unknown) => acme.client.post('/v1/submit/send-transaction-passkey?chain_id=8453', request);
    const call = (to: string, value: bigint, data?: Hex) =>
      serializeTransaction({ chainId: 8453, type: 'eip1559', nonce: 0, to: to as Address, value, ...(data ? { data } : {}), gas: 100_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n });

    it('a transfer to a listed address, in any case, or of a token to one: 403 sanctioned_address, nothing stored or used up, recorded once each', async () => {
      const stampsBefore = await usedStamps();
      for (const [unsigned, listed] of [
        [call(LISTED, 1000n), LISTED],
        [call(LISTED.toLowerCase(), 1000n), LISTED.toLowerCase()],
        [call(token.address, 0n, encodeTransfer(LISTED_USDC, 5n * USDC)), LISTED_USDC],
      ] as const) {
        const request = submission(unsigned);
        const res = await submit(request);
        assert.deepEqual([res.status, res.body.code], [403, 'sanctioned_address'], res.text);
        assert.match(res.body.detail, /TEST-SDN \(entry 9001, FICTIONAL MIXER LTD; programs CYBER2, DPRK3\)/);
        assert.match(res.body.detail.toLowerCase(), new RegExp(listed.toLowerCase()));
        assert.equal((await server.database.db.select().from(transactions).where(eq(transactions.transactionId, request.transactionId))).length, 0);
      }
      assert.equal(await usedStamps(), stampsBefore, 'no stamp used up');
      assert.equal(Number(BigInt(await chain.rpc<string>('eth_getTransactionCount', [alice.walletAddress, 'latest']))), 0, 'nothing sent');
      const recorded = (await hits()).filter((h) => h.activity === 'transfer');
      assert.equal(recorded.length, 3);
      assert.deepEqual(
        recorded.map((h) => [h.accountId, h.list, h.entryNumber, h.listedName, h.programs, h.transactionRowId]),
        Array.from({ length: 3 }, () => [alice.accountId, 'TEST-SDN', '9001', 'FICTIONAL MIXER LTD', ['CYBER2', 'DPRK3'], null]),
      );
      assert.deepEqual(recorded.map((h) => h.currency).sort(), ['ETH', 'ETH', 'USDC']);

      const fine = await submit(submission(call(recipient(), 1000n)));
      assert.equal(fine.status, 201, fine.text);
    });

    it('a deposit paid out to a listed wallet: held before signing, its payoutError says why, recorded once', async () => {
      const self = await createCustomer(server, acme, { email: `listed.${randomUUID()}@example.com`, walletAddress: LISTED_WALLET });
      await chain.setBalance(server.treasury!.address, 10n * ETH);
      const nonceBefore = Number(BigInt(await chain.rpc<string>('eth_getTransactionCount', [server.treasury!.address, 'latest'])));
      await heldDeposit(server, acme, self.accountId, LISTED_WALLET);
      // More attempts, each after its backoff: still held, still one record.
      for (let i = 0; i < 3; i++) {
        server.clock.advance(10 * 60_000);
        await server.watcher!.nextRound();
      }
      assert.equal(Number(BigInt(await chain.rpc<string>('eth_getTransactionCount', [server.treasury!.address, 'latest']))), nonceBefore, 'nothing signed or sent');
      const payouts = (await hits()).filter((h) => h.activity === 'deposit_payout');
      assert.equal(payouts.length, 1);
      assert.equal(payouts[0]!.accountId, self.accountId);
    });

    it('an entity’s proposal to an address listed since: the approval that would sign it is refused, the proposal keeps waiting', async () => {
      const team = await teamWithPendingTransfer(server, chain, acme);
      writeList(listDir, [team.to]);
      const reloaded = await server.policy.screening!.check();
      assert.deepEqual(reloaded.changed.map((c) => c.label), ['TEST-SDN'], JSON.stringify(reloaded));
      const refused = await approveAs(server, acme, team.account, team.approver, team.transactionId);
      assert.deepEqual([refused.status, refused.body.code], [403, 'sanctioned_address'], refused.text);
      const waiting = await acme.client.get(`/v1/query/get-transaction?transactionId=${team.transactionId}`);
      assert.deepEqual([waiting.body.status, waiting.body.approvals.received.length], ['created', 1]);
      const [row] = await server.database.db.select().from(transactions).where(eq(transactions.transactionId, team.transactionId));
      const recorded = (await hits()).filter((h) => h.transactionRowId === row!.id);
      assert.deepEqual(recorded.map((h) => [h.activity, h.address.toLowerCase()]), [['transfer', team.to.toLowerCase()]]);
      assert.equal(Number(BigInt(await chain.rpc<string>('eth_getTransactionCount', [team.account.walletAddress, 'latest']))), 0, 'nothing sent');
    });

    it('an incoming transfer from a listed address is recorded as incoming and for operators', async () => {
      await server.incoming!.runOnce();
      await chain.setBalance(LISTED, ETH);
      await chain.rpc('anvil_impersonateAccount', [LISTED]);
      const hash = await chain.rpc<Hex>('eth_sendTransaction', [{ from: LISTED, to: alice.walletAddress, value: '0x3e8' }]);
      await chain.mined(hash);
      await server.incoming!.runOnce();
      const [row] = await server.database.db.select().from(transactions).where(eq(transactions.transactionHash, hash));
      assert.equal(row?.kind, 'incoming');
      const seen = (await hits()).filter((h) => h.activity === 'incoming');
      assert.equal(seen.length, 1);
      assert.deepEqual([seen[0]!.accountId, seen[0]!.transactionRowId, seen[0]!.address.toLowerCase()], [alice.accountId, row!.id, LISTED.toLowerCase()]);
      // A case opens on the account's owner, who stays active, and the integrator is told.
      const [opened] = await server.database.db.select().from(reviewCases).where(eq(reviewCases.subjectId, alice.userId));
      assert.equal(opened?.openReason, 'incoming_from_listed_address');
      const events = await server.database.db.select().from(eventsTable).where(eq(eventsTable.type, 'review_case.opened'));
      assert.deepEqual(
        events.map((e) => [e.objectId, (e.data as { object: { verificationStatus: string } }).object.verificationStatus]),
        [[alice.userId, 'active']],
      );
    });
  });
}
