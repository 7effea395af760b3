import { decodeFunctionData, parseAbi, type Address, type Hex, type TransactionSerializable } from 'viem';
import type { Executor } from '../../db/database.js';
import { recordAddressHit, sanctionedAddressProblem, type AddressHit } from './address-hits.js';
import type { AddressScreen, ListedAddress } from './address-screen.js';

// docs/screening.md#wallet-addresses: nothing the service signs moves or grants value to a listed address. This
// module says which addresses a transaction can move or grant value to, and screens them.

/** What is screened of a transaction (an unsigned one as parsed, or a payout's call). */
export type ScreenedTransaction = Pick<TransactionSerializable, 'to' | 'data'> & { authorizationList?: readonly { address: Address }[] };

/** An address a transaction can move or grant value to, and why (for the refusal's detail). */
export interface ValueRecipient {
  address: Address;
  /** What the address is to the call: "recipient (to) of the transaction", "spender of approve", ... */
  role: string;
}

/**
 * The calls decoded by name, with the role of each address argument. The selector decides, so `increaseAllowance`
 * is refused from the calldata alone whether or not the contract has it, and ERC-721's `transferFrom` and `approve`
 * (same selectors) are read the same way.
 */
const VALUE_CALLS = parseAbi([
  'function transfer(address to, uint256 amount)',
  'function approve(address spender, uint256 amount)',
  'function increaseAllowance(address spender, uint256 addedValue)',
  'function transferFrom(address from, address to, uint256 amount)',
  'function deposit(uint256 assets, address receiver)',
  'function mint(uint256 shares, address receiver)',
  'function withdraw(uint256 assets, address receiver, address owner)',
  'function redeem(uint256 shares, address receiver, address owner)',
]);

type ValueCall = (typeof VALUE_CALLS)[number]['name'];

const ROLES: Record<ValueCall, Record<number, string>> = {
  transfer: { 0: 'recipient of transfer' },
  approve: { 0: 'spender of approve' },
  increaseAllowance: { 0: 'spender of increaseAllowance' },
  transferFrom: { 0: 'owner (from) of transferFrom', 1: 'recipient (to) of transferFrom' },
  deposit: { 1: 'receiver of deposit' },
  mint: { 1: 'receiver of mint' },
  withdraw: { 1: 'receiver of withdraw', 2: 'owner of withdraw' },
  redeem: { 1: 'receiver of redeem', 2: 'owner of redeem' },
};

/**
 * A call VALUE_CALLS names, read from calldata: its address arguments, and whether the calldata is that call and
 * nothing more (every argument is static, so exactly 4 + 32 bytes each). Undefined for any other calldata.
 */
export function decodeValueCall(data: Hex | undefined): { recipients: ValueRecipient[]; whole: boolean } | undefined {
  if (!data || data.length < 10) return undefined;
  let decoded: ReturnType<typeof decodeFunctionData<typeof VALUE_CALLS>>;
  try {
    decoded = decodeFunctionData({ abi: VALUE_CALLS, data });
  } catch {
    return undefined;
  }
  const args = decoded.args as readonly unknown[];
  const recipients = Object.entries(ROLES[decoded.functionName]).map(([i, role]) => ({ address: args[Number(i)] as Address, role }));
  return { recipients, whole: data.length === 2 + 2 * (4 + 32 * args.length) };
}

/**
 * What a transaction names outright: its `to` (the coin it sends goes there, and a call runs that contract), the
 * address arguments of a known call, and the contracts an EIP-7702 authorization would install as an account's code.
 */
export function valueRecipients(tx: ScreenedTransaction, call = decodeValueCall(tx.data)): ValueRecipient[] {
  const named: ValueRecipient[] = tx.to ? [{ address: tx.to, role: 'recipient (to) of the transaction' }] : [];
  named.push(...(call?.recipients ?? []));
  for (const authorization of tx.authorizationList ?? []) named.push({ address: authorization.address, role: 'delegate of an EIP-7702 authorization' });
  return named;
}

const ADDRESS_BYTES = 20;

/**
 * Which first two bytes the listed 0x addresses start with, per version of the lists: with this 64 KiB bitmap the
 * calldata scan builds the hex of about one offset in 65,536 / (number of listed addresses), not of every one.
 */
const firstBytesByIndex = new WeakMap<ReadonlyMap<string, unknown>, Uint8Array>();

function firstBytesOf(index: ReadonlyMap<string, unknown>): Uint8Array {
  let seen = firstBytesByIndex.get(index);
  if (!seen) {
    seen = new Uint8Array(1 << 16);
    for (const key of index.keys()) if (/^0x[0-9a-f]{40}$/.test(key)) seen[parseInt(key.slice(2, 6), 16)] = 1;
    firstBytesByIndex.set(index, seen);
  }
  return seen;
}

/**
 * The first listed address spelled by 20 bytes of the calldata, at any byte offset: the rule for what is not decoded
 * (a router's path, a multicall's inner calls, permit, NFT transfers, an ERC-2771 sender appended unaligned, a
 * deployment's constants). 20 bytes that spell a listed address are not there by chance; a number that equals one
 * (only plausible for an address of many leading zero bytes, like 0x…dEaD) is refused too, on the cautious side.
 */
export function listedInCalldata(index: ReadonlyMap<string, ListedAddress>, data: Hex | undefined): { address: string; offset: number; listed: ListedAddress } | undefined {
  if (!data || data.length < 2 + 2 * ADDRESS_BYTES) return undefined;
  const bytes = Buffer.from(data.slice(2), 'hex');
  const firstBytes = firstBytesOf(index);
  for (let offset = 0; offset + ADDRESS_BYTES <= bytes.length; offset++) {
    if (!firstBytes[(bytes[offset]! << 8) | bytes[offset + 1]!]) continue;
    const address = `0x${bytes.toString('hex', offset, offset + ADDRESS_BYTES)}`;
    const listed = index.get(address);
    if (listed) return { address, offset, listed };
  }
  return undefined;
}

/**
 * The first address the transaction moves or grants value to that is listed, named ones first; undefined when none
 * is. The calldata is scanned unless it is a known call and nothing more, whose amounts are amounts: an amount of
 * 57,005 is not the burn address 0x…dEaD, which the shipped sample lists.
 */
export function firstListedRecipient(screen: AddressScreen | undefined, tx: ScreenedTransaction): AddressHit | undefined {
  if (!screen) return undefined;
  const call = decodeValueCall(tx.data);
  for (const { address, role } of valueRecipients(tx, call)) {
    const listed = screen.addressHit(address);
    if (listed) return { address, listed, role };
  }
  if (call?.whole) return undefined;
  const found = listedInCalldata(screen.addressIndex(), tx.data);
  return found && { address: found.address, listed: found.listed, role: `address in the calldata (bytes ${found.offset} to ${found.offset + ADDRESS_BYTES - 1})` };
}

/**
 * 403 sanctioned_address for a transaction that moves or grants value to a listed address, recorded for operators
 * first (in its own statement: the refusal writes nothing else). Callers ask before anything is signed or used up.
 */
export async function refuseListedRecipients(
  db: Executor,
  screen: AddressScreen | undefined,
  about: Parameters<typeof recordAddressHit>[1],
  tx: ScreenedTransaction,
  at: Date,
): Promise<void> {
  const hit = firstListedRecipient(screen, tx);
  if (!hit) return;
  await recordAddressHit(db, about, hit, at);
  throw sanctionedAddressProblem(hit);
}
