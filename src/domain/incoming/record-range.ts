import { createHash } from 'node:crypto';
import type { Executor } from '../../db/database.js';
import { completeIncoming, failIncoming, insertIncoming, listPendingIncoming, moveIncoming, moveScanCursor, type ScanCursor } from '../../db/repositories/incoming.js';
import { type TransactionRow } from '../../db/repositories/transactions.js';
import { newTransactionRow } from '../../db/repositories/transaction-writes.js';
import { newId } from '../ids.js';
import { recordTransactionChanges, type TransactionCause, type TransactionChange } from '../transactions/record-change.js';
import { incomingKey, incomingView, type IncomingTransfer } from './detect.js';
import type { AddressScreen } from '../screening/address-screen.js';
import { openCaseOnAccountOwner } from '../cases/open-case.js';
import { firstListed, recordAddressHit } from '../screening/address-hits.js';
import { postLedger } from '../ledger/post.js';

/** The incoming watcher, as transaction_transitions name it. */
export const INCOMING_WATCHER: TransactionCause = { actorType: 'system', actorId: 'incoming-watcher' };

/** Another process recorded this range (or rewound) first: nothing of this round is kept. */
export class CursorMoved extends Error {
  override readonly name = 'CursorMoved';
}

export interface ScannedRangeRecord {
  chainId: number;
  /** Where the cursor was when the range was read, and where it goes: the range is (cursor, to]. */
  cursor: ScanCursor;
  to: ScanCursor;
  /** Blocks a transfer needs, its own included, before it completes. */
  confirmations: number;
  /** The range's transfers to wallets (matchOwners). */
  transfers: IncomingTransfer[];
  /** Listed wallet addresses: a new transfer from one is recorded for operators with it. */
  screen?: AddressScreen | undefined;
}

export interface RangeOutcome {
  created: TransactionRow[];
  completed: TransactionRow[];
  failed: TransactionRow[];
  /** Pending transfers found again in another block (a reorg): they wait there. */
  moved: number;
}

/**
 * Records a scanned range in the caller's database transaction (docs/incoming.md): moves the cursor (compare-and-set;
 * CursorMoved when another process did), records the transfers not seen before as `processing`, moves a pending one
 * found in another block, fails as `reorged` a pending one of these blocks that is not there any more, and completes
 * those with enough confirmations, each with its events. Everything or nothing: a crash in between leaves the cursor
 * where it was, and the range is read again.
 */
export async function recordRange(tx: Executor, range: ScannedRangeRecord, now: Date): Promise<RangeOutcome> {
  const { chainId, cursor, to } = range;
  if (!(await moveScanCursor(tx, chainId, cursor, to, now))) throw new CursorMoved(`chain ${chainId}: the cursor is no longer at block ${cursor.blockNumber}`);
  const found = new Map(range.transfers.map((t) => [incomingKey(t.owner.accountId, t.transactionHash, t.logIndex), t]));
  // Every pending transfer of the chain (those of the last few blocks): one found in this range again moves here even
  // from a block the range does not reach (a reorg may mine it lower); one of these blocks not found again is gone.
  const pending = await listPendingIncoming(tx, chainId);
  const known = new Set<string>();
  const gone: string[] = [];
  let moved = 0;
  for (const row of pending) {
    const key = incomingKey(row.accountId, row.transactionHash!, row.logIndex!);
    const again = found.get(key);
    if (!again) {
      if (row.blockNumber! > cursor.blockNumber && row.blockNumber! <= to.blockNumber) gone.push(row.id);
      continue;
    }
    known.add(key);
    if (again.blockHash !== row.blockHash) {
      await moveIncoming(tx, row.id, { number: again.blockNumber, hash: again.blockHash }, now);
      moved++;
    }
  }
  const fresh = [...found].filter(([key]) => !known.has(key)).map(([, transfer]) => incomingRow(transfer, chainId, now));
  const created = await insertIncoming(tx, fresh);
  for (const row of created) {
    const listed = firstListed(range.screen, [row.fromAddress]);
    if (!listed) continue;
    await recordAddressHit(tx, { integratorId: row.integratorId, accountId: row.accountId, chainId, activity: 'incoming', transactionRowId: row.id }, listed, now);
    const detail = { transactionRowId: row.id, chainId, fromAddress: row.fromAddress, list: listed.listed.list, entryNumber: listed.listed.entryNumber, listedName: listed.listed.name };
    await openCaseOnAccountOwner(tx, row.integratorId, row.accountId, now, detail);
  }
  const failed = await failIncoming(tx, gone, now);
  const completed = await completeIncoming(tx, chainId, to.blockNumber - range.confirmations + 1, now);
  const changes: TransactionChange[] = [
    ...created.map((row) => ({ row, from: null, cause: INCOMING_WATCHER })),
    ...failed.map((row) => ({ row, from: 'processing' as const, cause: { ...INCOMING_WATCHER, detail: 'its block left the chain (reorg)' } })),
    ...completed.map((row) => ({ row, from: 'processing' as const, cause: { ...INCOMING_WATCHER, detail: `${range.confirmations} confirmations` } })),
  ];
  // What this service sent and saw mined is posted in the books once its block is as final as an incoming transfer's:
  // with the round's own postings, in its one posting (docs/ledger.md#locking).
  const final = { chainId, finalBlock: to.blockNumber - range.confirmations + 1 };
  if (changes.length > 0) await recordTransactionChanges(tx, changes, now, [], { final });
  else await postLedger(tx, [], now, { final });
  return { created, completed, failed, moved };
}

/** A new incoming transaction: its own id is also its transactionId (the integrator did not name it). */
function incomingRow(transfer: IncomingTransfer, chainId: number, now: Date): TransactionRow {
  const id = newId();
  return newTransactionRow({
    id,
    integratorId: transfer.owner.integratorId,
    transactionId: id,
    accountId: transfer.owner.accountId,
    walletId: transfer.owner.walletId,
    chainId,
    kind: 'incoming',
    status: 'processing',
    requestHash: createHash('sha256').update(`incoming:${chainId}:${transfer.transactionHash}:${transfer.logIndex}`).digest('hex'),
    fromAddress: transfer.from,
    toAddress: transfer.to,
    value: transfer.token ? '0' : transfer.raw.toString(),
    transactionHash: transfer.transactionHash,
    blockNumber: transfer.blockNumber,
    blockHash: transfer.blockHash,
    logIndex: transfer.logIndex,
    incoming: incomingView(transfer, chainId),
    createdAt: now,
    updatedAt: now,
  });
}
