import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeFunctionResult, encodeFunctionData, erc20Abi, type Address, type Hex } from 'viem';
import { addressScreeningHits } from '../../src/db/schema/index.js';
import type { Anvil } from './anvil.js';
import { eventually } from './eventually.js';
import type { SeededIntegrator, TestServer } from './server.js';

// Wallet addresses on a screening list (docs/screening.md#wallet-addresses), and the chain reads that show a refused
// call changed nothing: what test/http/address-screening-*.test.ts share.

/** A list folder in OFAC's SDN format (no header, -0- for empty) holding one fictional entity with `addresses`. */
export function writeAddressList(dir: string, addresses: readonly string[]): void {
  const empty = '-0- ';
  const remarks = `${addresses.map((a) => `Digital Currency Address - ETH ${a}; `).join('')}Website fictional-mixer.example.`;
  const sdn = ['9001', '"FICTIONAL MIXER LTD"', empty, '"CYBER2] [DPRK3"', empty, empty, empty, empty, empty, empty, empty, `"${remarks}"`].join(',');
  writeFileSync(join(dir, 'SDN.CSV'), `${sdn}\r\n`);
  writeFileSync(join(dir, 'ALT.CSV'), '');
  writeFileSync(join(dir, 'ADD.CSV'), '');
}

/** Lists exactly `addresses` in the server's list folder and reloads it, as the interval's check would. */
export async function relist(server: TestServer, dir: string, addresses: readonly string[]): Promise<void> {
  writeAddressList(dir, addresses);
  const reloaded = await server.policy.screening!.check();
  assert.equal(reloaded.changed.length, 1, JSON.stringify(reloaded));
}

/** The hits recorded for operators, oldest first. */
export async function recordedHits(server: TestServer) {
  const rows = await server.database.db.select().from(addressScreeningHits);
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
}

/** An ERC-20 (or vault share) read: balanceOf(owner) or allowance(owner, spender), in base units. */
export async function erc20Read(chain: Anvil, token: string, functionName: 'balanceOf' | 'allowance', args: readonly string[]): Promise<bigint> {
  const data = encodeFunctionData({ abi: erc20Abi, functionName, args: args as [Address, Address] });
  const result = await chain.rpc<Hex>('eth_call', [{ to: token, data }, 'latest']);
  return decodeFunctionResult({ abi: erc20Abi, functionName, data: result }) as bigint;
}

export async function nonceOf(chain: Anvil, address: string, block: 'latest' | 'pending' = 'latest'): Promise<number> {
  return Number(BigInt(await chain.rpc<string>('eth_getTransactionCount', [address, block])));
}

/** A call sent by `from` itself (anvil impersonates it: no key needed), mined and successful. */
export async function sendAs(chain: Anvil, from: string, to: string, data: Hex): Promise<void> {
  await chain.rpc('anvil_impersonateAccount', [from]);
  const hash = await chain.rpc<Hex>('eth_sendTransaction', [{ from, to, data }]);
  assert.equal((await chain.mined(hash)).status, '0x1', `${from} -> ${to} ${data.slice(0, 10)} reverted`);
  await chain.rpc('anvil_stopImpersonatingAccount', [from]);
}

/**
 * A deposit of 10.00 USD to `accountId` (a self-custodial account on the listed `wallet`), paid in by the sandbox:
 * its payout is held, the transaction in funds_in_transfer and its payoutError naming the wallet's list entry.
 */
export async function heldDeposit(server: TestServer, who: SeededIntegrator, accountId: string, wallet: string, more: Record<string, unknown> = {}): Promise<void> {
  server.clock.advance(1000);
  const deposit = await who.client.post('/v1/submit/create-deposit', { accountId, amount: '10.00', currency: 'USD', chainId: 8453, ...more });
  assert.equal(deposit.status, 201, deposit.text);
  server.clock.advance(1000);
  assert.equal((await who.client.post('/v1/sandbox/simulate-deposit', { transactionId: deposit.body.transactionId, amount: '10.00' })).status, 200);
  const held = await eventually(
    async () => (await who.client.get(`/v1/query/get-transaction?transactionId=${deposit.body.transactionId}`)).body,
    (t) => typeof t.deposit?.payoutError === 'string',
    'the payout held',
    15_000,
  );
  assert.equal(held.status, 'funds_in_transfer');
  assert.match(held.deposit.payoutError, new RegExp(`^sanctioned_address: the wallet ${wallet.slice(0, 6)}.* is on TEST-SDN \\(entry 9001`, 'i'));
}
