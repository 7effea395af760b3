import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { bytesToHex, concat, encodeFunctionData, erc20Abi, erc4626Abi, getAddress, serializeTransaction, toFunctionSelector, type Address, type Hex } from 'viem';
import { parseUnsignedTransaction } from '../../../src/chain/custody-signer.js';
import { ScreeningLists } from '../../../src/domain/screening/lists.js';
import { firstListedRecipient, valueRecipients } from '../../../src/domain/screening/value-recipients.js';
import { ofacFolder, sdnRow } from './helpers.js';

// docs/screening.md#wallet-addresses: every address a transaction can move or grant value to is screened. The calls
// are encoded here with viem's own ERC-20 and ERC-4626 ABIs (and OpenZeppelin's increaseAllowance), not the module's,
// and screened against real lists in OFAC's format.

const LISTED = Array.from({ length: 4 }, () => getAddress(`0x${randomBytes(20).toString('hex')}`));
/** The burn address, which the shipped sample lists: as a number, 57,005. */
const DEAD = getAddress('0x000000000000000000000000000000000000dead');
const lists = new ScreeningLists([
  { label: 'TEST-SDN', path: ofacFolder({ sdn: [sdnRow(9001, 'FICTIONAL MIXER LTD', null, 'CYBER2', [...LISTED, DEAD].map((a) => `Digital Currency Address - ETH ${a};`).join(' '))] }), kind: 'folder' },
]);

const OPEN_MINT = [{ type: 'function', name: 'mint', stateMutability: 'nonpayable', inputs: [{ name: 'to', type: 'address' }, { name: 'amount', type: 'uint256' }], outputs: [] }] as const;
const INCREASE_ALLOWANCE = [
  { type: 'function', name: 'increaseAllowance', stateMutability: 'nonpayable', inputs: [{ name: 'spender', type: 'address' }, { name: 'addedValue', type: 'uint256' }], outputs: [{ type: 'bool' }] },
] as const;

/** Each call the module decodes by name, its argument types, and (all of) its address arguments. */
const KNOWN = [
  { name: 'transfer', abi: erc20Abi, types: ['address', 'uint256'] },
  { name: 'approve', abi: erc20Abi, types: ['address', 'uint256'] },
  { name: 'increaseAllowance', abi: INCREASE_ALLOWANCE, types: ['address', 'uint256'] },
  { name: 'transferFrom', abi: erc20Abi, types: ['address', 'address', 'uint256'] },
  { name: 'deposit', abi: erc4626Abi, types: ['uint256', 'address'] },
  { name: 'mint', abi: erc4626Abi, types: ['uint256', 'address'] },
  { name: 'withdraw', abi: erc4626Abi, types: ['uint256', 'address', 'address'] },
  { name: 'redeem', abi: erc4626Abi, types: ['uint256', 'address', 'address'] },
] as const;
const KNOWN_SELECTORS = new Set(
  KNOWN.map((k) => toFunctionSelector(`${k.name}(${k.types.join(',')})`)),
);

const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => getAddress(bytesToHex(b)));
const listed = fc.constantFrom(...LISTED).chain((a) => fc.constantFrom(a, a.toLowerCase() as Address));
const uint256 = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n });
const bytes = (max: number) => fc.uint8Array({ maxLength: max }).map((b) => Buffer.from(b));

/** A known call with random arguments and a listed address in one of its address slots. */
const knownCall = fc
  .record({ call: fc.constantFrom(...KNOWN), slot: fc.nat(), listed, others: fc.array(address, { minLength: 3, maxLength: 3 }), amounts: fc.array(uint256, { minLength: 3, maxLength: 3 }), to: address })
  .map(({ call, slot, listed, others, amounts, to }) => {
    const slots = call.types.flatMap((t, i) => (t === 'address' ? [i] : []));
    const at = slots[slot % slots.length]!;
    const args = call.types.map((t, i) => (i === at ? listed : t === 'address' ? others[i]! : amounts[i]!));
    const data = encodeFunctionData({ abi: call.abi as typeof erc20Abi, functionName: call.name as 'transfer', args: args as [Address, bigint] });
    return { call, at, listed, data, to, addresses: args.filter((_, i) => call.types[i] === 'address') as Address[] };
  });

/** The unsigned transaction a client would submit, parsed as the service parses it. */
const submitted = (to: Address, data: Hex) => parseUnsignedTransaction(serializeTransaction({ chainId: 8453, type: 'eip1559', nonce: 0, to, value: 0n, data, gas: 100_000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }));

const same = (a: string | undefined, b: string) => a?.toLowerCase() === b.toLowerCase();

describe('the addresses a transaction moves or grants value to', () => {
  it('a known call names its contract and every address argument; a listed one in any slot is the hit, by its role', () => {
    fc.assert(
      fc.property(knownCall, ({ call, listed, data, to, addresses }) => {
        const tx = submitted(to, data);
        const named = valueRecipients(tx);
        assert.deepEqual(
          named.map((r) => r.address.toLowerCase()),
          [to, ...addresses].map((a) => a.toLowerCase()),
        );
        assert.ok(named.slice(1).every((r) => r.role.endsWith(`of ${call.name}`)));
        const hit = firstListedRecipient(lists, tx);
        assert.ok(same(hit?.address, listed), `${call.name}: ${JSON.stringify(hit)}`);
        assert.match(hit!.role!, new RegExp(`of ${call.name}$`));
        assert.equal(hit!.listed.entryNumber, '9001');
      }),
    );
  });

  it('the contract called is screened, with or without calldata', () => {
    fc.assert(
      fc.property(listed, fc.option(bytes(200)), (to, data) => {
        const hit = firstListedRecipient(lists, { to, ...(data ? { data: bytesToHex(data) } : {}) });
        assert.ok(same(hit?.address, to));
        assert.equal(hit!.role, 'recipient (to) of the transaction');
      }),
    );
  });

  it('undecoded calldata: a listed address as any 32-byte argument word is found', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 4, maxLength: 4 }), fc.array(fc.uint8Array({ minLength: 32, maxLength: 32 }), { maxLength: 12 }), fc.nat(), listed, address, (selector, words, k, found, to) => {
        fc.pre(!KNOWN_SELECTORS.has(bytesToHex(selector)));
        const at = k % (words.length + 1);
        const word = Buffer.concat([Buffer.alloc(12), Buffer.from(found.slice(2), 'hex')]);
        const data = bytesToHex(Buffer.concat([selector, ...words.slice(0, at), word, ...words.slice(at)]));
        const hit = firstListedRecipient(lists, submitted(to, data));
        assert.ok(same(hit?.address, found));
        assert.equal(hit!.role, `address in the calldata (bytes ${4 + 32 * at + 12} to ${4 + 32 * at + 31})`);
      }),
    );
  });

  it('undecoded calldata: a listed address at any byte offset (packed paths, nested calls, an appended sender) is found', () => {
    fc.assert(
      fc.property(bytes(300), bytes(300), listed, (before, after, found) => {
        const data = bytesToHex(Buffer.concat([before, Buffer.from(found.slice(2), 'hex'), after]));
        const hit = firstListedRecipient(lists, { data });
        assert.ok(same(hit?.address, found));
        assert.match(hit!.role!, new RegExp(`^address in the calldata \\(bytes ${before.length} to`));
      }),
    );
  });

  it('a known call wrapped in a multicall is found in the calldata', () => {
    const multicall = [{ type: 'function', name: 'multicall', stateMutability: 'nonpayable', inputs: [{ name: 'data', type: 'bytes[]' }], outputs: [] }] as const;
    fc.assert(
      fc.property(fc.array(knownCall, { minLength: 1, maxLength: 4 }), address, (calls, to) => {
        const data = encodeFunctionData({ abi: multicall, functionName: 'multicall', args: [calls.map((c) => c.data)] });
        const hit = firstListedRecipient(lists, submitted(to, data));
        assert.ok(same(hit?.address, calls[0]!.listed), JSON.stringify(hit));
      }),
    );
  });

  it('no false alarm: calls and random calldata without a listed address, small amounts included, are not hits', () => {
    fc.assert(
      fc.property(address, bytes(400), fc.array(address, { minLength: 3, maxLength: 3 }), fc.bigInt({ min: 0n, max: 2n ** 160n }), (to, data, [a, b, c], amount) => {
        fc.pre(!LISTED.some((l) => same(l, to) || data.includes(Buffer.from(l.slice(2), 'hex'))));
        assert.equal(firstListedRecipient(lists, { to, data: bytesToHex(data) }), undefined);
        assert.equal(firstListedRecipient(lists, submitted(to, encodeFunctionData({ abi: erc4626Abi, functionName: 'withdraw', args: [amount, a!, b!] }))), undefined);
        assert.equal(firstListedRecipient(lists, submitted(to, encodeFunctionData({ abi: erc20Abi, functionName: 'transferFrom', args: [c!, a!, amount] }))), undefined);
      }),
    );
  });

  it('a known call and nothing more: its amounts are amounts, even one equal to a listed address of leading zeros', () => {
    fc.assert(
      fc.property(address, address, address, (to, a, b) => {
        fc.pre(!LISTED.some((l) => [to, a, b].some((x) => same(l, x))));
        assert.equal(firstListedRecipient(lists, submitted(to, encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [a, 0xdeadn] }))), undefined);
        assert.equal(firstListedRecipient(lists, submitted(to, encodeFunctionData({ abi: erc4626Abi, functionName: 'withdraw', args: [0xdeadn, a, b] }))), undefined);
      }),
    );
  });

  it('the same number in undecoded calldata, or bytes after a known call (an appended sender), are screened', () => {
    fc.assert(
      fc.property(address, address, bytes(64), (to, a, extra) => {
        fc.pre(!LISTED.some((l) => [to, a].some((x) => same(l, x))));
        const word = encodeFunctionData({ abi: OPEN_MINT, functionName: 'mint', args: [a, 0xdeadn] });
        assert.equal(firstListedRecipient(lists, submitted(to, word))?.role, 'address in the calldata (bytes 48 to 67)');
        const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [a, 5n] });
        const appended = firstListedRecipient(lists, submitted(to, concat([transfer, bytesToHex(extra), LISTED[0]!])));
        assert.ok(same(appended?.address, LISTED[0]!));
        assert.equal(appended!.role, `address in the calldata (bytes ${68 + extra.length} to ${87 + extra.length})`);
      }),
    );
  });

  it('an EIP-7702 authorization delegating to a listed contract is the hit', () => {
    fc.assert(
      fc.property(listed, address, (delegate, to) => {
        const authorization = { address: delegate, chainId: 8453, nonce: 0, r: `0x${'11'.repeat(32)}` as Hex, s: `0x${'22'.repeat(32)}` as Hex, yParity: 0 };
        const tx = parseUnsignedTransaction(serializeTransaction({ chainId: 8453, type: 'eip7702', nonce: 0, to, value: 0n, gas: 100_000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n, authorizationList: [authorization] }));
        const hit = firstListedRecipient(lists, tx);
        assert.ok(same(hit?.address, delegate));
        assert.equal(hit!.role, 'delegate of an EIP-7702 authorization');
      }),
    );
  });

  it('nothing is screened without lists', () => {
    assert.equal(firstListedRecipient(undefined, { to: LISTED[0] }), undefined);
  });
});
