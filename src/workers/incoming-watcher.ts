import type { Address, Hash } from 'viem';
import { ChainMoved, readHeader, scanRange } from '../chain/block-scan.js';
import type { ChainClient, ChainRegistry } from '../chain/chain-client.js';
import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import { findWalletOwners, moveScanCursor, ownTransactions, readScanCursor, startScanCursor, type ScanCursor } from '../db/repositories/incoming.js';
import { matchOwners, NATIVE_LOG_INDEX, recipients, seenTransfers, type IncomingTransfer } from '../domain/incoming/detect.js';
import { confirmationsFor, pollMsFor, type IncomingConfig } from '../domain/incoming/incoming-config.js';
import { CursorMoved, recordRange } from '../domain/incoming/record-range.js';
import type { TokenRegistry } from '../domain/tokens/token-registry.js';
import type { AddressScreen } from '../domain/screening/address-screen.js';
import type { Log } from '../log.js';
import { Rounds } from './rounds.js';
import { openLedger } from '../domain/ledger/opening.js';

export interface IncomingWatcherDeps {
  database: Database;
  chains: ChainRegistry;
  tokens: TokenRegistry;
  config: IncomingConfig;
  clock: Clock;
  log: Pick<Log, 'info' | 'warn' | 'error'>;
  /** Listed wallet addresses: a transfer from one is recorded for operators (docs/screening.md#wallet-addresses). */
  addressScreen?: () => AddressScreen | undefined;
  /** The treasury, whose holdings open the ledger on each chain with the custodial wallets' (docs/ledger.md). */
  treasury?: Address | undefined;
}

/** What one round of a chain did (tests and the bench read it). */
export type RoundResult = 'started' | 'idle' | 'recorded' | 'rewound' | 'raced' | 'failed';

export interface IncomingWatcher {
  /** Runs a round on every chain now (or right after the one under way) and resolves when they have all ended. */
  runOnce(): Promise<RoundResult[]>;
  stop(): Promise<void>;
}

/**
 * Follows each configured chain's new blocks and records every transfer to a wallet of any account as an incoming
 * transaction (docs/incoming.md): per round, the head (eth_blockNumber), then the blocks after the cursor with their
 * transactions and the listed tokens' Transfer logs in one batch, matched against every wallet in one statement.
 * A chain's rounds run one at a time; processes sharing the database race on the cursor and one of them records.
 */
export function startIncomingWatcher(deps: IncomingWatcherDeps): IncomingWatcher {
  const { database, chains, tokens, config, clock, log } = deps;
  const watchers = chains.chainIds().map((chainId) => {
    const chain = chains.get(chainId)!;
    const tokenAddresses = tokens.list(chainId).map((t) => t.address);
    const confirmations = confirmationsFor(config, chainId);
    const pollMs = pollMsFor(config, chainId);
    let waiting: ((result: RoundResult) => void)[] = [];
    let last: RoundResult = 'idle';
    let failingSince: number | undefined;
    let lastWarning = 0;

    let ledgerOpen = false;

    async function round(): Promise<RoundResult> {
      // The ledger opens on the chain before the first transfer is recorded: its opening balances come first.
      if (!ledgerOpen) {
        await openLedger({ database, chainId, chain, tokens: tokens.list(chainId), treasury: deps.treasury, confirmations, now: clock });
        ledgerOpen = true;
      }
      const cursor = await readScanCursor(database.db, chainId);
      if (!cursor) {
        // The first round on a chain starts at its head: history before it is not read (docs/incoming.md).
        const head = await readHeader(chain, 'latest');
        await startScanCursor(database.db, chainId, { blockNumber: head.number, blockHash: head.hash }, clock());
        return 'started';
      }
      const head = Number(await chain.blockNumber());
      if (head < cursor.blockNumber) return rewind(cursor, head);
      if (head === cursor.blockNumber) return 'idle';
      const to = Math.min(head, cursor.blockNumber + config.maxBlocks);
      const range = await scanRange(chain, cursor.blockNumber + 1, to, tokenAddresses);
      if (range.blocks[0]!.parentHash !== cursor.blockHash) return rewind(cursor, head);
      const seen = seenTransfers(range, chainId, tokens);
      const owned = matchOwners(seen, await findWalletOwners(database.db, recipients(seen)), new Set());
      const own = await ownTransactions(database.db, [...new Set(owned.map((t) => t.transactionHash))]);
      const transfers = await withoutReverted(chain, owned.filter((t) => !own.has(`${t.owner.accountId}:${t.transactionHash}`)));
      const tip = range.blocks[range.blocks.length - 1]!;
      try {
        const outcome = await database.db.transaction((tx) => recordRange(tx, { chainId, cursor, to: { blockNumber: tip.number, blockHash: tip.hash }, confirmations, transfers, screen: deps.addressScreen?.() }, clock()));
        if (outcome.failed.length > 0 || outcome.moved > 0) log.warn({ chainId, failed: outcome.failed.length, moved: outcome.moved }, 'incoming transfers: a reorg took pending transfers out of their blocks');
      } catch (err) {
        if (err instanceof CursorMoved) return 'raced';
        throw err;
      }
      if (to < head) rounds.again();
      return 'recorded';
    }

    /**
     * The chain is not the one the cursor follows (a reorg): the cursor goes back to where no pending transfer can be
     * behind it (confirmations − 1 below the lower of cursor and head), at the block the chain has there now, and the
     * next round reads forwards again from there.
     */
    async function rewind(cursor: ScanCursor, head: number): Promise<RoundResult> {
      const back = Math.max(0, Math.min(head, cursor.blockNumber) - confirmations + 1);
      const anchor = await readHeader(chain, back);
      const moved = await moveScanCursor(database.db, chainId, cursor, { blockNumber: anchor.number, blockHash: anchor.hash }, clock());
      if (moved) log.warn({ chainId, from: cursor.blockNumber, to: anchor.number }, 'incoming transfers: reorg; reading the chain again from an earlier block');
      rounds.again();
      return moved ? 'rewound' : 'raced';
    }

    const rounds: Rounds = new Rounds(
      async () => {
        const served = waiting;
        waiting = [];
        let wake = pollMs;
        try {
          last = await round();
          if (failingSince !== undefined) log.info?.({ chainId, failedForMs: performance.now() - failingSince }, 'incoming transfers: rounds succeed again');
          failingSince = undefined;
        } catch (err) {
          last = 'failed';
          // The chain moved between reads: read again soon. A node that fails is tried again at the next poll, and
          // said once a minute while it keeps failing (a poll is every second or less).
          if (err instanceof ChainMoved) {
            wake = Math.min(pollMs, 200);
            log.info?.({ chainId, reason: err.message }, 'incoming transfers: the chain moved under the round; reading again');
          } else if (failingSince === undefined || performance.now() - lastWarning >= 60_000) {
            failingSince ??= performance.now();
            lastWarning = performance.now();
            log.warn({ err, chainId }, 'incoming transfers: the round failed; trying again at every poll');
          }
        } finally {
          served.forEach((resolve) => resolve(last));
          rounds.wakeIn(wake);
        }
      },
      (err) => log.error({ err, chainId }, 'incoming transfers: round failed'),
      pollMs,
    );
    rounds.kick();
    return {
      runOnce: () => {
        const done = new Promise<RoundResult>((resolve) => waiting.push(resolve));
        rounds.now();
        return done;
      },
      async stop() {
        await rounds.stop();
        waiting.forEach((resolve) => resolve('idle'));
        waiting = [];
      },
    };
  });
  return {
    runOnce: () => Promise.all(watchers.map((w) => w.runOnce())),
    async stop() {
      await Promise.all(watchers.map((w) => w.stop()));
    },
  };
}

/**
 * A native-coin transfer is recorded only if its transaction succeeded: a wallet with code (EIP-7702) may revert it.
 * Token transfers need no check (a reverted transaction leaves no logs). One batch, only when there are any.
 */
async function withoutReverted(chain: ChainClient, transfers: IncomingTransfer[]): Promise<IncomingTransfer[]> {
  const native = [...new Set(transfers.filter((t) => t.logIndex === NATIVE_LOG_INDEX).map((t) => t.transactionHash))] as Hash[];
  if (native.length === 0) return transfers;
  const receipts = await chain.receipts(native);
  const reverted = new Set<string>();
  for (const [hash, receipt] of receipts) {
    if (receipt instanceof Error) throw receipt;
    if (receipt === null) throw new ChainMoved(`the receipt of ${hash}, in a block just read, is not there`);
    if (receipt.status === 'reverted') reverted.add(hash.toLowerCase());
  }
  return transfers.filter((t) => t.logIndex !== NATIVE_LOG_INDEX || !reverted.has(t.transactionHash));
}
