import type { Hash } from 'viem';
import type { ChainRegistry } from '../chain/chain-client.js';
import type { ReceiptView } from '../chain/receipts.js';
import type { RpcFailure } from '../chain/rpc-failure.js';
import type { TransactionRow } from '../db/repositories/transactions.js';

/** Each sent transaction's receipt by "chainId:hash": the receipt, null while pending, or why it could not be asked. */
export type AskedReceipts = Map<string, ReceiptView | null | RpcFailure>;

/**
 * The transaction watcher's receipt lookups, remembering each chain's head when a hash was last answered null
 * ("chainId:hash" → block): a receipt can only appear in a later block, so a pending hash is asked again once the
 * head moved, not on every round (a round runs every KICK_GAP_MS under load, a block comes every second or more).
 * Entries leave with their row's settlement.
 */
export class ReceiptsAtHead {
  private readonly pendingAt = new Map<string, bigint>();
  private readonly headOf = new Map<number, bigint>();

  constructor(private readonly chains: ChainRegistry) {}

  /**
   * The receipts of the round's sent transactions: the chain's head, then one JSON-RPC batch per chain of the hashes
   * not yet asked at that head. A hash asked at this head already is pending (null) without asking again.
   */
  async ask(rows: TransactionRow[]): Promise<AskedReceipts> {
    const { pendingAt, headOf } = this;
    const asked: AskedReceipts = new Map();
    const byChain = new Map<number, Hash[]>();
    for (const row of rows) {
      if (row.signedRaw || !row.transactionHash) continue; // unsent: sentAgain asks on its own
      const hashes = byChain.get(row.chainId);
      if (hashes) hashes.push(row.transactionHash as Hash);
      else byChain.set(row.chainId, [row.transactionHash as Hash]);
    }
    const watched = new Set<string>();
    for (const [chainId, hashes] of byChain) {
      const client = this.chains.get(chainId);
      if (!client) continue;
      // Asked before the receipts, so a null answer means "not in any block up to this head". Unknown (the node
      // out of reach): every hash is asked, and the receipts' own failures say why.
      const head = await client.blockNumber().catch(() => undefined);
      // A head that went back (a reorganization, a node reset): what was asked at the old heads says nothing.
      if (head !== undefined && head < (headOf.get(chainId) ?? -1n)) for (const key of pendingAt.keys()) if (key.startsWith(`${chainId}:`)) pendingAt.delete(key);
      if (head !== undefined) headOf.set(chainId, head);
      const due: Hash[] = [];
      for (const hash of hashes) {
        const key = `${chainId}:${hash}`;
        watched.add(key);
        const at = pendingAt.get(key);
        if (head !== undefined && at !== undefined && at >= head) asked.set(key, null);
        else due.push(hash);
      }
      for (const [hash, answer] of await client.receipts(due)) {
        const key = `${chainId}:${hash}`;
        asked.set(key, answer);
        if (answer === null && head !== undefined) pendingAt.set(key, head);
        else pendingAt.delete(key);
      }
    }
    for (const key of pendingAt.keys()) if (!watched.has(key)) pendingAt.delete(key);
    return asked;
  }
}
