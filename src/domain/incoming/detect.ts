import type { Address, Hash } from 'viem';
import type { ScannedRange } from '../../chain/block-scan.js';
import type { WalletOwner } from '../../db/repositories/incoming.js';
import { nativeSymbol, type TokenRegistry } from '../tokens/token-registry.js';
import { tokenAmount } from '../tokens/amounts.js';
import type { IncomingView } from './incoming-view.js';

/** A transfer seen in a scanned range, before it is matched to an account. */
export interface SeenTransfer {
  transactionHash: Hash;
  /** The Transfer log's index in its block; -1 for a native-coin transfer (no log). */
  logIndex: number;
  blockNumber: number;
  blockHash: Hash;
  /** Checksummed. */
  to: Address;
  from: Address;
  /** The listed token moved; undefined for the native coin. */
  token: { symbol: string; address: Address; decimals: number } | undefined;
  raw: bigint;
}

/** A transfer to an account's wallet: what is recorded as that account's incoming transaction. */
export interface IncomingTransfer extends SeenTransfer {
  owner: WalletOwner;
}

export const NATIVE_LOG_INDEX = -1;

/**
 * Every transfer in the range that could be to a wallet: top-level transactions moving the native coin, and Transfer
 * logs of the chain's listed tokens (scanRange asked for no other). Amounts of 0 are left out (nothing arrived).
 */
export function seenTransfers(range: ScannedRange, chainId: number, tokens: TokenRegistry): SeenTransfer[] {
  const seen: SeenTransfer[] = [];
  for (const block of range.blocks) {
    for (const tx of block.transfers) {
      seen.push({ transactionHash: tx.hash, logIndex: NATIVE_LOG_INDEX, blockNumber: block.number, blockHash: block.hash, to: tx.to, from: tx.from, token: undefined, raw: tx.value });
    }
  }
  for (const log of range.logs) {
    const token = tokens.address(chainId, log.token);
    if (!token || log.value === 0n) continue;
    seen.push({ transactionHash: log.transactionHash, logIndex: log.logIndex, blockNumber: log.blockNumber, blockHash: log.blockHash, to: log.to, from: log.from, token, raw: log.value });
  }
  return seen;
}

/**
 * The seen transfers each account receives: one per (transfer, account whose wallet is its recipient), leaving out
 * those inside a transaction this service made for that account itself (`own`: `accountId:hash`; a deposit's payout,
 * a refund, a vault call report it).
 */
export function matchOwners(seen: readonly SeenTransfer[], owners: readonly WalletOwner[], own: ReadonlySet<string>): IncomingTransfer[] {
  const byAddress = new Map<string, WalletOwner[]>();
  for (const owner of owners) byAddress.set(owner.address, [...(byAddress.get(owner.address) ?? []), owner]);
  const matched: IncomingTransfer[] = [];
  for (const transfer of seen) {
    for (const owner of byAddress.get(transfer.to.toLowerCase()) ?? []) {
      if (!own.has(`${owner.accountId}:${transfer.transactionHash}`)) matched.push({ ...transfer, owner });
    }
  }
  return matched;
}

/** The recipients of the seen transfers, lower case and once each: what findWalletOwners is asked. */
export function recipients(seen: readonly SeenTransfer[]): string[] {
  return [...new Set(seen.map((t) => t.to.toLowerCase()))];
}

/** The view of what arrived (docs/incoming.md). */
export function incomingView(transfer: SeenTransfer, chainId: number): IncomingView {
  const decimals = transfer.token?.decimals ?? 18;
  return { symbol: transfer.token?.symbol ?? nativeSymbol(chainId), tokenAddress: transfer.token?.address ?? null, from: transfer.from, ...tokenAmount(transfer.raw, decimals) };
}

/** The key of a transfer and its account: one record each (transactions_incoming_key). */
export const incomingKey = (accountId: string, transactionHash: string, logIndex: number): string => `${accountId}:${transactionHash.toLowerCase()}:${logIndex}`;
