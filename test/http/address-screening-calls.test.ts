import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { concat, encodeFunctionData, erc20Abi, erc4626Abi, getAddress, serializeTransaction, type Address, type Hex } from 'viem';
import { transactions, usedStampChallenges } from '../../src/db/schema/index.js';
import type { Anvil } from '../harness/anvil.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, recipient, settled, signedBody, type Customer } from '../harness/customers.js';
import { erc20Read, nonceOf, recordedHits, relist, sendAs, writeAddressList } from '../harness/listed-addresses.js';
import { post } from '../harness/members.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { deployTestToken, startTenantsWithToken, type TestToken } from '../harness/tokens.js';
import { deployVault, type DeployedVault } from '../harness/vaults.js';

// Issue 51, item 1 (docs/screening.md#wallet-addresses): nothing the service signs moves or grants value to a listed
// address. Each call kind below would go through without the screening (the listed party has set up what it needs:
// an allowance for the customer, vault shares), so each 403 shows the screen, not a revert: nothing is stored, no
// stamp is used up, the hit is recorded, and the chain is as it was (nonce, balances, allowances, shares).

const LISTED = getAddress('0x' + '7a'.repeat(19) + '11');
const UNIT = 1_000_000n;
const OPEN_MINT = [{ type: 'function', name: 'mint', stateMutability: 'nonpayable', inputs: [{ name: 'to', type: 'address' }, { name: 'amount', type: 'uint256' }], outputs: [] }] as const;
const INCREASE_ALLOWANCE = [{ type: 'function', name: 'increaseAllowance', stateMutability: 'nonpayable', inputs: [{ name: 'spender', type: 'address' }, { name: 'addedValue', type: 'uint256' }], outputs: [{ type: 'bool' }] }] as const;
const erc20 = (functionName: 'approve' | 'transfer' | 'transferFrom', args: readonly unknown[]) => encodeFunctionData({ abi: erc20Abi, functionName, args: args as [Address, bigint] });
const vaultCall = (functionName: 'deposit' | 'mint' | 'withdraw' | 'redeem', args: readonly unknown[]) => encodeFunctionData({ abi: erc4626Abi, functionName, args: args as [bigint, Address] });

for (const backend of backends()) {
  describe(`every address a call moves or grants value to is screened, on anvil [${backend}]`, () => {
    const listDir = mkdtempSync(join(tmpdir(), 'iapi-sdn-'));
    let server: TestServer;
    let chain: Anvil;
    let acme: SeededIntegrator;
    let usdc: TestToken;
    let demo: DeployedVault;
    let alice: Customer;

    before(async () => {
      writeAddressList(listDir, [LISTED]);
      ({ server, chain, tenants: [acme], token: usdc } = await startTenantsWithToken(backend, 8453, ['Acme'], { SCREENING_LISTS: `TEST-SDN=${listDir}`, INCOMING_POLL_MS: '60000' }));
      demo = await deployVault(chain);
      alice = await createCustomer(server, acme);
      const wallet = alice.walletAddress as Address;
      for (const holder of [wallet, LISTED]) {
        await chain.setBalance(holder, ETH);
        // The open mint called directly: the harness's mint waits on viem's receipt polling (seconds each).
        for (const token of [usdc.address, demo.token]) await sendAs(chain, holder, token, encodeFunctionData({ abi: OPEN_MINT, functionName: 'mint', args: [holder, 100n * UNIT] }));
        // Both hold vault shares, and each may spend its own USDC through transferFrom.
        await sendAs(chain, holder, demo.token, erc20('approve', [demo.vault, 100n * UNIT]));
        await sendAs(chain, holder, demo.vault, vaultCall('deposit', [50n * UNIT, holder]));
        await sendAs(chain, holder, usdc.address, erc20('approve', [holder, 100n * UNIT]));
      }
      // The listed party lets the customer take its USDC and its vault shares.
      await sendAs(chain, LISTED, usdc.address, erc20('approve', [wallet, 10n * UNIT]));
      await sendAs(chain, LISTED, demo.vault, erc20('approve', [wallet, 10n * UNIT]));
    });
    after(async () => {
      await server?.close();
      rmSync(listDir, { recursive: true, force: true });
    });

    /** What a refused call must leave as it was. */
    async function chainState() {
      const wallet = alice.walletAddress;
      const reads = [
        nonceOf(chain, wallet),
        nonceOf(chain, wallet, 'pending'),
        ...[usdc.address, demo.token, demo.vault].flatMap((token) => [
          erc20Read(chain, token, 'balanceOf', [wallet]),
          erc20Read(chain, token, 'balanceOf', [LISTED]),
          erc20Read(chain, token, 'allowance', [wallet, LISTED]),
          erc20Read(chain, token, 'allowance', [LISTED, wallet]),
        ]),
      ];
      return (await Promise.all(reads)).map(String);
    }
    const usedStamps = async () => (await server.database.db.select().from(usedStampChallenges)).length;
    const rowsOf = (transactionId: string) => server.database.db.select().from(transactions).where(eq(transactions.transactionId, transactionId));

    async function submitCall(to: string, data: Hex) {
      const unsigned = serializeTransaction({ chainId: 8453, type: 'eip1559', nonce: await nonceOf(chain, alice.walletAddress, 'pending'), to: to as Address, value: 0n, data, gas: 300_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n });
      server.clock.advance(1000);
      const body = signedBody(server, alice, unsigned);
      const request = { transactionId: randomUUID(), signedBody: body, webAuthnStamp: alice.passkey.stamp(JSON.stringify(body)) };
      return { request, res: await post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', request) };
    }

    /** Each call refused 403 sanctioned_address naming its role and the address; nothing stored, used up or changed. */
    async function refusedEach(calls: [to: string, data: Hex, role: string][]) {
      const [state, stamps, hits] = [await chainState(), await usedStamps(), (await recordedHits(server)).length];
      for (const [to, data, role] of calls) {
        const { request, res } = await submitCall(to, data);
        assert.deepEqual([res.status, res.body.code], [403, 'sanctioned_address'], `${role}: ${res.text}`);
        assert.ok(res.body.detail.startsWith(`The ${role} `), res.body.detail);
        assert.match(res.body.detail, /is on TEST-SDN \(entry 9001, FICTIONAL MIXER LTD; programs CYBER2, DPRK3\): nothing was signed, and the approval was not used up$/);
        assert.deepEqual(await rowsOf(request.transactionId), [], role);
      }
      assert.equal(await usedStamps(), stamps, 'no stamp used up');
      assert.deepEqual(await chainState(), state, 'nonce, balances, allowances and shares unchanged');
      const recorded = (await recordedHits(server)).slice(hits);
      assert.deepEqual(
        recorded.map((h) => [h.activity, h.accountId, h.transactionRowId, h.entryNumber]),
        calls.map(() => ['transfer', alice.accountId, null, '9001']),
      );
      return recorded;
    }

    it('ERC-20: approve, increaseAllowance, transferFrom to a listed address and from one', async () => {
      const recorded = await refusedEach([
        [usdc.address, erc20('approve', [LISTED, 5n * UNIT]), 'spender of approve'],
        // OpenZeppelin 5's ERC-20 has no increaseAllowance: refused from the calldata, not from what the token does.
        [usdc.address, encodeFunctionData({ abi: INCREASE_ALLOWANCE, functionName: 'increaseAllowance', args: [LISTED, 5n * UNIT] }), 'spender of increaseAllowance'],
        [usdc.address, erc20('transferFrom', [alice.walletAddress, LISTED, 2n * UNIT]), 'recipient (to) of transferFrom'],
        [usdc.address, erc20('transferFrom', [LISTED, alice.walletAddress, 2n * UNIT]), 'owner (from) of transferFrom'],
      ]);
      assert.ok(recorded.every((h) => h.address.toLowerCase() === LISTED.toLowerCase()));
    });

    it('ERC-4626: deposit and mint for a listed receiver, withdraw and redeem to a listed receiver or of a listed owner', async () => {
      const wallet = alice.walletAddress;
      await refusedEach([
        [demo.vault, vaultCall('deposit', [5n * UNIT, LISTED]), 'receiver of deposit'],
        [demo.vault, vaultCall('mint', [5n * UNIT, LISTED]), 'receiver of mint'],
        [demo.vault, vaultCall('withdraw', [5n * UNIT, LISTED, wallet]), 'receiver of withdraw'],
        [demo.vault, vaultCall('redeem', [5n * UNIT, LISTED, wallet]), 'receiver of redeem'],
        [demo.vault, vaultCall('withdraw', [5n * UNIT, wallet, LISTED]), 'owner of withdraw'],
        [demo.vault, vaultCall('redeem', [5n * UNIT, wallet, LISTED]), 'owner of redeem'],
      ]);
    });

    it('calldata not decoded: a listed address as an argument word (an open mint) or unaligned in raw data', async () => {
      const packed = concat(['0x12345678', '0x00112233445566', LISTED, '0xffff']);
      await refusedEach([
        [usdc.address, encodeFunctionData({ abi: OPEN_MINT, functionName: 'mint', args: [LISTED, 1000n * UNIT] }), 'address in the calldata (bytes 16 to 35)'],
        [recipient(), packed, 'address in the calldata (bytes 11 to 30)'],
      ]);
    });

    it('a call to a listed contract, whatever it calls', async () => {
      const listedToken = await deployTestToken(chain, 'XUSD');
      await sendAs(chain, alice.walletAddress, listedToken.address, encodeFunctionData({ abi: OPEN_MINT, functionName: 'mint', args: [alice.walletAddress as Address, 10n * UNIT] }));
      await relist(server, listDir, [LISTED, listedToken.address]);
      const before = await listedToken.balanceOf(alice.walletAddress);
      await refusedEach([
        [listedToken.address, erc20('transfer', [recipient(), UNIT]), 'recipient (to) of the transaction'],
        [listedToken.address, '0x', 'recipient (to) of the transaction'],
      ]);
      assert.equal(await listedToken.balanceOf(alice.walletAddress), before);
      await relist(server, listDir, [LISTED]);
    });

    it('the same calls with nobody listed in them are signed and mined', async () => {
      const other = recipient();
      for (const [to, data] of [
        [usdc.address, erc20('approve', [other, 5n * UNIT])],
        [usdc.address, erc20('transferFrom', [alice.walletAddress, other, 2n * UNIT])],
        [demo.vault, vaultCall('redeem', [5n * UNIT, other, alice.walletAddress])],
      ] as const) {
        const { request, res } = await submitCall(to, data);
        assert.equal(res.status, 201, res.text);
        assert.equal((await settled(acme, request.transactionId)).status, 'completed');
      }
      assert.equal(await erc20Read(chain, usdc.address, 'allowance', [alice.walletAddress, other]), 5n * UNIT);
      assert.equal(await usdc.balanceOf(other), 2n * UNIT);
      assert.equal(await erc20Read(chain, demo.token, 'balanceOf', [other]), 5n * UNIT);
    });
  });
}
