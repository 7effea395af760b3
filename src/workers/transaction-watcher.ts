import type { Hash, Hex } from 'viem';
import type { ChainClient, ChainRegistry } from '../chain/chain-client.js';
import type { ReceiptView } from '../chain/receipts.js';
import { RpcFailure } from '../chain/rpc-failure.js';
import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import { listExpiredDeposits, listExpiredPreparations, listProcessing, listStaleProposals, type TransactionRow } from '../db/repositories/transactions.js';
import { WATCHER } from '../domain/transactions/record-change.js';
import { settledVaultCall } from '../domain/vaults/settlement.js';
import type { Treasury } from '../chain/treasury.js';
import { listPayoutsDue } from '../db/repositories/deposits.js';
import { payOut, payoutDue } from '../domain/deposits/payout.js';
import { expireDeposit } from '../domain/deposits/deposits.js';
import { expirePreparation } from '../domain/transactions/prepared.js';
import { expireProposal, PROPOSAL_LIFETIME_MS } from '../domain/transactions/quorum.js';
import { beingSent, sendSigned, unsentOf } from '../domain/transactions/send-signed.js';
import { ReceiptsAtHead, type AskedReceipts } from './receipts-at-head.js';
import { Rounds } from './rounds.js';
import { settleAll, type Settlement } from './transaction-settlement.js';
import type { Log } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import type { AddressScreen } from '../domain/screening/address-screen.js';

export interface TransactionWatcherDeps {
  database: Database;
  chains: ChainRegistry;
  clock: Clock;
  log: Log;
  /** Pays funded deposits out (docs/deposits.md); without it deposits wait in funds_in_transfer. */
  treasury?: Treasury;
  pollIntervalMs?: number;
  /** Told when a round ends (transaction_watcher_last_round_age_seconds). */
  metrics?: Metrics;
  /** The listed wallet addresses payouts are not signed to (docs/screening.md#wallet-addresses). */
  addressScreen?: () => AddressScreen | undefined;
}

export interface TransactionWatcher {
  /** Look at processing transactions now (after a broadcast). */
  kick(): void;
  /** Runs a round now (or right after the one under way) and resolves when it has ended: lets tests wait for one. */
  nextRound(): Promise<void>;
  stop(): Promise<void>;
}

/** How long a node may not know a broadcast transaction before it counts as dropped. */
export const DROPPED_AFTER_MS = 60_000;
const BATCH = 100;
/**
 * A kick (a broadcast) runs a round no sooner than this after the previous round started, so under load the
 * broadcasts of this long share one round: its lists, its receipt batch and its database transaction.
 */
export const KICK_GAP_MS = 100;
/** Wallets watched at once in a round. */
const WATCH_CONCURRENCY = 8;

/**
 * Pays funded deposits out (funds_in_transfer, when a treasury is configured), then polls the receipts of
 * `processing` transactions (every second, and when kicked): a successful receipt
 * completes the transaction, a reverted one fails it, and a hash the node has not known for DROPPED_AFTER_MS
 * fails it as dropped. Each move is a guarded update (status still processing) with its events, so several
 * watchers (server processes) never record one twice. RPC errors leave the transaction for the next round.
 */
export function startTransactionWatcher(deps: TransactionWatcherDeps): TransactionWatcher {
  const { database, chains, clock, log } = deps;
  const pollIntervalMs = deps.pollIntervalMs ?? 1000;
  let stopped = false;
  /** Callers of nextRound(), served by the first round that starts after they asked. */
  let waiting: (() => void)[] = [];
  let lastExpiries = -Infinity;
  /** Kept across rounds: a hash still pending at the chain's head is not asked again until the head moves. */
  const receipts = new ReceiptsAtHead(chains);
  const rounds = new Rounds(
    async () => {
      const served = waiting;
      waiting = [];
      // Expiries are the clock's: looked for once a poll interval (and for nextRound), not on every kick, which
      // comes after each broadcast (three statements a round under load for nothing).
      const expiries = served.length > 0 || performance.now() - lastExpiries >= pollIntervalMs;
      if (expiries) lastExpiries = performance.now();
      try {
        await look(expiries);
        deps.metrics?.watcherRound();
      } finally {
        served.forEach((resolve) => resolve());
        rounds.wakeIn(pollIntervalMs);
      }
    },
    (err) => log.error({ err }, 'transaction watcher round failed'),
    pollIntervalMs,
    Math.min(KICK_GAP_MS, pollIntervalMs),
  );

  async function look(expiries: boolean): Promise<void> {
    if (deps.treasury) await payOutDeposits(deps.treasury);
    if (expiries) await expireQuotes();
    const rows = await listProcessing(database.db, BATCH);
    // One wallet's transactions in order (an unsent one is sent again before its successor), wallets side by side:
    // each row waits on the node and on its own database transaction, so one at a time the watcher fell behind
    // the submissions under load (docs/benchmarks.md#transactions).
    const byWallet = new Map<string, TransactionRow[]>();
    for (const row of rows) {
      const sender = row.walletId ?? row.fromAddress ?? row.id;
      const queue = byWallet.get(sender);
      if (queue) queue.push(row);
      else byWallet.set(sender, [row]);
    }
    const queues = [...byWallet.values()];
    const asked = await receipts.ask(rows);
    const settlements: Settlement[] = [];
    await Promise.all(
      Array.from({ length: Math.min(WATCH_CONCURRENCY, queues.length) }, async () => {
        for (let queue = queues.shift(); queue && !stopped; queue = queues.shift()) {
          for (const row of queue) {
            if (stopped) return;
            const settlement = await watch(row, asked);
            if (settlement) settlements.push(settlement);
          }
        }
      }),
    );
    await settleAll({ database, clock, log }, settlements);
  }

  /** One processing transaction: sent again, or how it settles (from its receipt, or failed as dropped). */
  async function watch(row: TransactionRow, asked: AskedReceipts): Promise<Settlement | undefined> {
    const client = chains.get(row.chainId);
    if (!client || !row.transactionHash) return;
    try {
      if (await sentAgain(client, row)) return;
      const key = `${row.chainId}:${row.transactionHash}`;
      const answer = asked.get(key);
      if (answer instanceof RpcFailure) throw answer;
      const receipt = asked.has(key) ? (answer as ReceiptView | null) : await client.receipt(row.transactionHash as Hash);
      if (receipt?.status === 'success') {
        // A vault call records what the vault's event says it moved (docs/products.md#positions).
        const vault = row.kind === 'vault_deposit' || row.kind === 'vault_withdrawal' ? await settledVaultCall(client, row) : undefined;
        return { row, status: 'completed', receipt, ...(vault ? { vault } : {}) };
      }
      if (receipt) return { row, status: 'failed', receipt, failureReason: 'reverted' };
      // Whether the node still knows a pending transaction matters for a payout (sent again once forgotten) and,
      // past DROPPED_AFTER_MS, for failing it as dropped; a young transfer waiting for its block is not asked about
      // on every round (one RPC call per pending transaction and round, on a chain whose blocks take seconds).
      const overdue = clock().getTime() - (row.broadcastedAt ?? row.createdAt).getTime() > DROPPED_AFTER_MS;
      if ((overdue || resendable(row)) && !(await client.known(row.transactionHash as Hash)) && !(await resent(client, row)) && overdue) {
        return { row, status: 'failed', failureReason: 'dropped' };
      }
    } catch (err) {
      log.warn({ err, chainId: row.chainId, transactionHash: row.transactionHash }, 'transaction watcher: receipt lookup failed; retrying next round');
    }
    return undefined;
  }

  /**
   * A transaction committed signed but not sent (its request crashed, or the node could not be reached then):
   * settled if it was mined meanwhile, otherwise sent now (send-signed.ts). True when this round is done with it.
   */
  async function sentAgain(client: ChainClient, row: TransactionRow): Promise<boolean> {
    const unsent = unsentOf(row);
    if (!unsent) return false;
    // Its request (or an earlier round) is sending it now: the node's answer settles it either way.
    if (beingSent(unsent.rowId)) return true;
    // A request that timed out may have reached the node: a receipt settles it without a second send.
    if (await client.receipt(unsent.transactionHash)) return false;
    const outcome = await sendSigned({ database, now: clock, log }, client, unsent, WATCHER);
    if (outcome.kind === 'sent') log.info?.({ transactionId: row.transactionId, chainId: row.chainId, transactionHash: row.transactionHash }, 'sent a transaction committed while unsent');
    else if (outcome.kind === 'pending') log.warn({ transactionId: row.transactionId, chainId: row.chainId, reason: outcome.failure.code }, 'transaction watcher: the node is still out of reach for an unsent transaction; retrying next round');
    return true;
  }

  /**
   * A deposit payout the node forgot (evicted from its pool) is sent again: the stored signed transaction, the
   * same nonce and hash, so it can be mined once at most. A transfer is the end user's signature for one moment,
   * not ours to repeat: it fails as dropped instead. False when there is nothing to re-send or the node refused it.
   */
  async function resent(client: ChainClient, row: TransactionRow): Promise<boolean> {
    if (!resendable(row)) return false;
    try {
      await client.broadcast(row.payoutRaw as Hex);
      log.warn({ transactionId: row.transactionId, chainId: row.chainId, transactionHash: row.transactionHash }, 'deposit payout unknown to the node; sent the same signed transaction again');
      return true;
    } catch {
      return false;
    }
  }

  /** A deposit's or refund's payout: ours, signed and stored, so sent again if the node forgets it (resent). */
  function resendable(row: TransactionRow): boolean {
    return (row.kind === 'deposit' || row.kind === 'refund') && !!row.payoutRaw;
  }

  /** Funded deposits, one at a time (each payout takes the treasury's nonce lock); failures wait their backoff. */
  async function payOutDeposits(treasury: Treasury): Promise<void> {
    const now = clock();
    for (const row of await listPayoutsDue(database.db, BATCH)) {
      if (stopped) return;
      if (!payoutDue(row, now)) continue;
      try {
        await payOut({ database, chains, treasury, clock, log, ...(deps.addressScreen ? { addressScreen: deps.addressScreen } : {}) }, row);
      } catch (err) {
        log.error({ err, transactionId: row.transactionId }, 'deposit payout failed unexpectedly; retrying next round');
      }
    }
  }

  /**
   * Prepared transactions nobody approved in time fail as quote_expired; entity proposals without a quorum in 24 h,
   * and deposits whose bank transfer did not arrive by their expiresAt, as expired.
   */
  async function expireQuotes(): Promise<void> {
    const now = clock();
    for (const row of await listExpiredPreparations(database.db, now, BATCH)) {
      if (stopped) return;
      await database.db.transaction((tx) => expirePreparation(tx, row, WATCHER, now));
    }
    for (const row of await listStaleProposals(database.db, new Date(now.getTime() - PROPOSAL_LIFETIME_MS), BATCH)) {
      if (stopped) return;
      await database.db.transaction((tx) => expireProposal(tx, row, now));
    }
    for (const row of await listExpiredDeposits(database.db, now, BATCH)) {
      if (stopped) return;
      await database.db.transaction((tx) => expireDeposit(tx, row, now));
    }
  }

  rounds.kick();
  return {
    kick: rounds.kick,
    nextRound() {
      if (stopped) return Promise.resolve();
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        rounds.now();
      });
    },
    async stop() {
      stopped = true;
      await rounds.stop();
      waiting.forEach((resolve) => resolve());
      waiting = [];
    },
  };
}
