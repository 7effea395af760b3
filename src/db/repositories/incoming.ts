import { and, eq, getTableColumns, inArray, lte, ne, sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../database.js';
import { textArrayLiteral } from '../array-literal.js';
import { chainScanCursors, transactions } from '../schema/index.js';
import type { TransactionRow } from './transactions.js';

// The incoming watcher's reads and writes (docs/incoming.md): its cursor per chain, the wallets a range's recipients
// belong to, and the incoming transfers it records, moves and settles.

export interface ScanCursor {
  blockNumber: number;
  blockHash: string;
}

export async function readScanCursor(db: Executor, chainId: number): Promise<ScanCursor | undefined> {
  const [row] = await db.select({ blockNumber: chainScanCursors.blockNumber, blockHash: chainScanCursors.blockHash }).from(chainScanCursors).where(eq(chainScanCursors.chainId, chainId));
  return row;
}

/** The first cursor of a chain (the head when the watcher first ran); another process's first one stands. */
export async function startScanCursor(db: Executor, chainId: number, at: ScanCursor, now: Date): Promise<void> {
  await db.insert(chainScanCursors).values({ chainId, ...at, updatedAt: now }).onConflictDoNothing();
}

/**
 * Compare-and-set: moves the cursor from `from` to `to` (forwards after a range, backwards after a reorg). False when
 * it is no longer at `from` (another process recorded the range, or rewound): the caller records nothing.
 */
export async function moveScanCursor(db: Executor, chainId: number, from: ScanCursor, to: ScanCursor, now: Date): Promise<boolean> {
  const moved = await db
    .update(chainScanCursors)
    .set({ blockNumber: to.blockNumber, blockHash: to.blockHash, updatedAt: now })
    .where(and(eq(chainScanCursors.chainId, chainId), eq(chainScanCursors.blockNumber, from.blockNumber), eq(chainScanCursors.blockHash, from.blockHash)))
    .returning({ chainId: chainScanCursors.chainId });
  return moved.length === 1;
}

/** An account whose wallet is at one of the addresses asked for (custodial or self-custodial). */
export interface WalletOwner {
  accountId: string;
  integratorId: string;
  /** The custodial wallet; null for a self-custodial account. */
  walletId: string | null;
  /** Lower case. */
  address: string;
}

/**
 * Every account whose wallet is at one of `addresses` (lower case), in one statement whatever the number of wallets
 * (accounts_wallet_address_idx). Several accounts may share an address (self-custodial ones of two integrators).
 */
export function findWalletOwners(db: Executor, addresses: string[]): Promise<WalletOwner[]> {
  if (addresses.length === 0) return Promise.resolve([]);
  return selectRows<WalletOwner>(
    db,
    sql`select a.id as "accountId", a.integrator_id as "integratorId", w.id as "walletId", lower(a.wallet_address) as "address"
        from accounts a left join wallets w on w.account_id = a.id
        where a.wallet_address is not null and lower(a.wallet_address) = any(${textArrayLiteral(addresses)}::text[])`,
  );
}

/**
 * Of these transaction hashes (lower case), the ones this service sent or paid for an account itself (a deposit's
 * payout, a refund, a vault call), as `accountId:hash`: the transaction reports them; they are not incoming.
 */
export async function ownTransactions(db: Executor, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await db
    .select({ accountId: transactions.accountId, hash: transactions.transactionHash })
    .from(transactions)
    .where(and(inArray(transactions.transactionHash, hashes), ne(transactions.kind, 'incoming')));
  return new Set(rows.map((r) => `${r.accountId}:${r.hash!.toLowerCase()}`));
}

/**
 * The incoming transfers of a chain still waiting for confirmations (transactions_incoming_pending_idx): those of
 * its last CHAIN_CONFIRMATIONS blocks, however many wallets there are.
 */
export function listPendingIncoming(db: Executor, chainId: number): Promise<TransactionRow[]> {
  return db
    .select()
    .from(transactions)
    .where(and(eq(transactions.kind, 'incoming'), eq(transactions.status, 'processing'), eq(transactions.chainId, chainId)));
}

/** Inserts the transfers not recorded yet (the unique key: account, chain, hash, log index); answers those inserted. */
export function insertIncoming(db: Executor, rows: TransactionRow[]): Promise<TransactionRow[]> {
  if (rows.length === 0) return Promise.resolve([]);
  return db
    .insert(transactions)
    .values(rows)
    .onConflictDoNothing({ target: [transactions.accountId, transactions.chainId, transactions.transactionHash, transactions.logIndex], where: sql`kind = 'incoming' and status <> 'failed'` })
    .returning();
}

/** A pending transfer found again in another block after a reorg: it waits for its confirmations there. */
export async function moveIncoming(db: Executor, id: string, block: { number: number; hash: string }, now: Date): Promise<void> {
  await db
    .update(transactions)
    .set({ blockNumber: block.number, blockHash: block.hash, updatedAt: now })
    .where(and(eq(transactions.id, id), eq(transactions.status, 'processing')));
}

/** Completes the chain's pending transfers mined at or below `upTo` (enough confirmations); answers those moved. */
export function completeIncoming(db: Executor, chainId: number, upTo: number, now: Date): Promise<TransactionRow[]> {
  return db
    .update(transactions)
    .set({ status: 'completed', updatedAt: now })
    .where(and(eq(transactions.kind, 'incoming'), eq(transactions.status, 'processing'), eq(transactions.chainId, chainId), lte(transactions.blockNumber, upTo)))
    .returning(getTableColumns(transactions));
}

/** Fails these pending transfers: their block left the chain and they were not found again (failureReason reorged). */
export function failIncoming(db: Executor, ids: string[], now: Date): Promise<TransactionRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .update(transactions)
    .set({ status: 'failed', failureReason: 'reorged', updatedAt: now })
    .where(and(inArray(transactions.id, ids), eq(transactions.status, 'processing')))
    .returning(getTableColumns(transactions));
}
