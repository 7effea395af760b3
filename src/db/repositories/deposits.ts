import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { accounts, entities, integrators, transactions, transactionTransitions, users, wallets, type TransactionStatus, type VerificationStatus } from '../schema/index.js';
import type { TransactionRow } from './transactions.js';

/** The integrator's account with its owner's status and its custody wallet, if any. */
export async function findDepositAccount(db: Executor, integratorId: string, accountId: string) {
  const status = sql<VerificationStatus | null>`coalesce(${users.verificationStatus}, ${entities.verificationStatus})`;
  const [row] = await db
    .select({ account: accounts, verificationStatus: status, walletId: wallets.id })
    .from(accounts)
    .leftJoin(users, eq(users.id, accounts.userId))
    .leftJoin(entities, eq(entities.id, accounts.entityId))
    .leftJoin(wallets, eq(wallets.accountId, accounts.id))
    .where(and(eq(accounts.integratorId, integratorId), eq(accounts.id, accountId)));
  return row;
}

/** Operators address deposits by their reference (unique across integrators). */
export async function findDepositByReference(db: Executor, reference: string): Promise<TransactionRow | undefined> {
  const [row] = await db
    .select()
    .from(transactions)
    .where(and(eq(transactions.kind, 'deposit'), eq(transactions.depositReference, reference)));
  return row;
}

/**
 * Every integrator's deposits for operators (/admin/api/deposits), newest first by our id (UUIDv7: creation order),
 * with the integrator's name: `limit` rows in `status` when given, after the row `before` (the keyset cursor of the
 * previous page). The primary key's index is read backwards, skipping other kinds of transactions.
 */
export async function listDeposits(db: Executor, options: { status?: TransactionStatus; before?: string; limit: number }): Promise<{ transaction: TransactionRow; integratorName: string }[]> {
  const where = [eq(transactions.kind, 'deposit')];
  if (options.status) where.push(eq(transactions.status, options.status));
  if (options.before) where.push(lt(transactions.id, options.before));
  return db
    .select({ transaction: transactions, integratorName: integrators.name })
    .from(transactions)
    .innerJoin(integrators, eq(integrators.id, transactions.integratorId))
    .where(and(...where))
    .orderBy(desc(transactions.id))
    .limit(options.limit);
}

/** Deposits whose funds arrived and refunds of returned withdrawals, not broadcast yet, oldest change first. */
export async function listPayoutsDue(db: Executor, limit: number): Promise<TransactionRow[]> {
  return db
    .select()
    .from(transactions)
    .where(and(eq(transactions.status, 'funds_in_transfer'), inArray(transactions.kind, ['deposit', 'refund'])))
    .orderBy(asc(transactions.updatedAt))
    .limit(limit);
}

/** Payouts whose last attempt failed (payoutError) and that still wait, oldest first: what operators see at /admin/api/treasury. */
export async function listWaitingPayouts(db: Executor, limit: number): Promise<TransactionRow[]> {
  return db
    .select()
    .from(transactions)
    .where(and(eq(transactions.status, 'funds_in_transfer'), inArray(transactions.kind, ['deposit', 'refund']), isNotNull(transactions.payoutError)))
    .orderBy(asc(transactions.updatedAt))
    .limit(limit);
}

/**
 * Serializes payout signing per (chain, treasury) until the caller's transaction ends, so two processes never pick
 * the same nonce.
 */
export async function lockTreasuryNonces(tx: Executor, chainId: number, treasuryAddress: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`treasury:${chainId}:${treasuryAddress.toLowerCase()}`}, 0))`);
}

/** Nonces of payouts from `from` on a chain that are signed but not yet accepted by the node. */
export async function signedPayoutNonces(db: Executor, chainId: number, from: string): Promise<number[]> {
  const rows = await db
    .select({ nonce: transactions.nonce })
    .from(transactions)
    .where(and(eq(transactions.status, 'funds_in_transfer'), eq(transactions.chainId, chainId), eq(transactions.fromAddress, from), isNotNull(transactions.payoutRaw)));
  return rows.map((r) => Number(r.nonce));
}

/**
 * Base units of a token the treasury `from` has committed on a chain and that may not have left it yet: payouts signed
 * and not accepted by the node, and payouts accepted but not settled (some of those may be mined already, which only
 * makes the sum cautious: a payout then waits a round longer, never pays what is not there).
 */
export async function reservedTokenPayouts(db: Executor, chainId: number, from: string, token: string): Promise<bigint> {
  const rows = await db
    .select({ amount: transactions.tokenAmount })
    .from(transactions)
    .where(
      and(
        inArray(transactions.kind, ['deposit', 'refund']),
        eq(transactions.chainId, chainId),
        eq(transactions.fromAddress, from),
        sql`${transactions.token}->>'address' = ${token}`,
        or(eq(transactions.status, 'processing'), and(eq(transactions.status, 'funds_in_transfer'), isNotNull(transactions.payoutRaw))),
      ),
    );
  return rows.reduce((sum, r) => sum + BigInt(r.amount ?? '0'), 0n);
}

/** Stores a signed payout, only if the deposit still waits for one (no other process signed it meanwhile). */
export async function storeSignedPayout(db: Executor, id: string, payout: { payoutRaw: string; transactionHash: string; nonce: number; fromAddress: string; value: string; updatedAt: Date }): Promise<boolean> {
  const updated = await db
    .update(transactions)
    .set(payout)
    .where(and(eq(transactions.id, id), eq(transactions.status, 'funds_in_transfer'), isNull(transactions.payoutRaw)))
    .returning({ id: transactions.id });
  return updated.length === 1;
}

/** A failed payout attempt: counted, its reason kept; `discard` forgets the signed payout so the next attempt signs anew. */
export async function recordPayoutFailure(db: Executor, id: string, error: string, discard: boolean, at: Date): Promise<void> {
  await db
    .update(transactions)
    .set({
      payoutError: error,
      payoutAttempts: sql`${transactions.payoutAttempts} + 1`,
      updatedAt: at,
      ...(discard ? { payoutRaw: null, transactionHash: null, nonce: null } : {}),
    })
    .where(and(eq(transactions.id, id), eq(transactions.status, 'funds_in_transfer')));
}

/** A transaction's audit trail, oldest first. */
export async function listTransactionTransitions(db: Executor, transactionRowId: string) {
  return db.select().from(transactionTransitions).where(eq(transactionTransitions.transactionRowId, transactionRowId)).orderBy(asc(transactionTransitions.id));
}
