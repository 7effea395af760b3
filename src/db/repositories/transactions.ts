import { and, asc, desc, eq, lt, ne, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { preparedStatement } from '../prepared.js';
import { authenticators, transactions, usedStampChallenges, wallets, type accounts, type VerificationStatus } from '../schema/index.js';
import { submissionContext } from './submission-context-query.js';

// Reads of transactions and of what signing one needs; transaction-writes.ts changes them.

export type TransactionRow = typeof transactions.$inferSelect;
export type WalletRow = typeof wallets.$inferSelect;
export type AccountRowWithStatus = typeof accounts.$inferSelect & { verificationStatus: VerificationStatus | null };

const transactionById = preparedStatement<{ integratorId: string; transactionId: string }, TransactionRow[]>('find_transaction', (db) =>
  db
    .select()
    .from(transactions)
    .where(and(eq(transactions.integratorId, sql.placeholder('integratorId')), eq(transactions.transactionId, sql.placeholder('transactionId')))),
);

export async function findTransaction(db: Executor, integratorId: string, transactionId: string): Promise<TransactionRow | undefined> {
  const [row] = await transactionById(db, { integratorId, transactionId });
  return row;
}

/** What a submission is checked against, in one statement: the signing account, its wallet, its choice of the product. */
export interface SigningContext {
  account: AccountRowWithStatus;
  /** Custodial accounts' wallet (null for self-custodial ones). */
  wallet: WalletRow | null;
  /** The account's row for the product asked about; null while the product's default applies. */
  productStatus: 'enabled' | 'disabled' | null;
}

/** A passkey of a user and whether a challenge was used already (findUserAuthenticator's answer). */
export type UserAuthenticator = typeof authenticators.$inferSelect & { challengeUsed: boolean };

/** The passkey a submission's stamp names, read with the submission (findSubmissionContext's `passkey`). */
export interface PasskeyRead {
  /** Whose passkeys were searched: the account's user, or for an entity wallet the acting member. */
  userId: string | null;
  credentialId: string;
  challenge: string;
  /** Null when that user has no passkey under credentialId. */
  authenticator: UserAuthenticator | null;
}

/** A submission's reads: the transaction already under its transactionId, the signing context, the stamp's passkey. */
export interface SubmissionContext {
  earlier: TransactionRow | undefined;
  signing: SigningContext | undefined;
  /** Read when asked for (`passkey` of findSubmissionContext). */
  passkey?: PasskeyRead;
}

/**
 * The transaction under `transactionId` (a replay, or a prepared one approved now) and the signing context, in one
 * round trip: the account a signedBody names (by its custody organizationId, else a self-custodial account holding
 * signWith), with its wallet and its row for the product, which is `productOfKind` of the earlier transaction's kind,
 * else `defaultProduct`.
 */
export async function findSubmissionContext(
  db: Executor,
  where: { integratorId: string; transactionId: string; organizationId: string | null; signWith: string; actingUserId?: string },
  products: { productOfKind: Record<string, string>; defaultProduct: string },
  passkey?: { credentialId: string; challenge: string },
): Promise<SubmissionContext> {
  const [row] = await submissionContext(db, {
    ...where,
    productOfKind: JSON.stringify(products.productOfKind),
    defaultProduct: products.defaultProduct,
    // Not a UUID: no user (the submission fails on it before any approval).
    actingUserId: where.actingUserId && UUID_TEXT.test(where.actingUserId) ? where.actingUserId : null,
    credentialId: passkey?.credentialId ?? null,
    challenge: passkey?.challenge ?? null,
  });
  return {
    earlier: row?.earlier ?? undefined,
    signing: row?.account ? { account: { ...row.account, verificationStatus: row.verificationStatus }, wallet: row.wallet, productStatus: row.productStatus as SigningContext['productStatus'] } : undefined,
    ...(passkey ? { passkey: { ...passkey, userId: row?.approverId ?? null, authenticator: row?.authenticator ? { ...row.authenticator, challengeUsed: row.challengeUsed } : null } } : {}),
  };
}

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findWalletOfAccount(db: Executor, accountId: string, options: { lock?: boolean } = {}): Promise<WalletRow | undefined> {
  const query = db.select().from(wallets).where(eq(wallets.accountId, accountId));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/**
 * The passkey a stamp names, among this integrator's user's own: credential ids are unique per integrator
 * only, so the lookup is always scoped by integrator and user (another integrator's row with the same id is
 * never found).
 */
const userAuthenticator = preparedStatement<{ integratorId: string; userId: string; credentialId: string; challenge: string }, { authenticator: typeof authenticators.$inferSelect; challengeUsed: boolean }[]>('find_user_authenticator', (db) =>
  db
    .select({
      authenticator: authenticators,
      challengeUsed: sql<boolean>`exists (select 1 from ${usedStampChallenges} where ${usedStampChallenges.integratorId} = ${authenticators.integratorId} and ${usedStampChallenges.challenge} = ${sql.placeholder('challenge')})`,
    })
    .from(authenticators)
    .where(and(eq(authenticators.integratorId, sql.placeholder('integratorId')), eq(authenticators.userId, sql.placeholder('userId')), eq(authenticators.credentialId, sql.placeholder('credentialId')))),
);

/**
 * The passkey a stamp names, among this integrator's user's own, and whether `challenge` (the stamped body's) was
 * used already (one round trip for both). Credential ids are unique per integrator only, so the lookup is always
 * scoped by integrator and user (another integrator's row with the same id is never found).
 */
export async function findUserAuthenticator(db: Executor, integratorId: string, userId: string, credentialId: string, challenge: string): Promise<UserAuthenticator | undefined> {
  const [row] = await userAuthenticator(db, { integratorId, userId, credentialId, challenge });
  return row && { ...row.authenticator, challengeUsed: row.challengeUsed };
}

export async function isChallengeUsed(db: Executor, integratorId: string, challenge: string): Promise<boolean> {
  const [row] = await db
    .select({ challenge: usedStampChallenges.challenge })
    .from(usedStampChallenges)
    .where(and(eq(usedStampChallenges.integratorId, integratorId), eq(usedStampChallenges.challenge, challenge)));
  return row !== undefined;
}

const processing = preparedStatement<{ limit: number }, TransactionRow[]>('list_processing', (db) =>
  // Incoming transfers wait for confirmations, not receipts: the incoming watcher settles them (docs/incoming.md).
  db
    .select()
    .from(transactions)
    .where(and(eq(transactions.status, 'processing'), ne(transactions.kind, 'incoming')))
    .orderBy(asc(transactions.id))
    .limit(sql.placeholder('limit')),
);

/** Processing transactions, oldest first (the watcher's every round). */
export function listProcessing(db: Executor, limit: number): Promise<TransactionRow[]> {
  return processing(db, { limit });
}

/** Newest first (ids are UUIDv7), `limit + 1` rows so the caller can tell whether more exist. */
export async function listAccountTransactions(db: Executor, integratorId: string, accountId: string, options: { limit: number; before?: string }): Promise<TransactionRow[]> {
  const where = [eq(transactions.integratorId, integratorId), eq(transactions.accountId, accountId)];
  if (options.before) where.push(lt(transactions.id, options.before));
  return db
    .select()
    .from(transactions)
    .where(and(...where))
    .orderBy(desc(transactions.id))
    .limit(options.limit + 1);
}

/** The row by our id, locked for the caller's transaction (member approvals of one transaction go one at a time). */
export async function lockTransaction(db: Executor, id: string): Promise<TransactionRow | undefined> {
  const [row] = await db.select().from(transactions).where(eq(transactions.id, id)).for('update');
  return row;
}

/** Entity members' transfer proposals still waiting for their quorum, created before `before`. */
export function listStaleProposals(db: Executor, before: Date, limit: number): Promise<TransactionRow[]> {
  return db
    .select()
    .from(transactions)
    .where(and(eq(transactions.status, 'created'), eq(transactions.kind, 'transfer'), lt(transactions.createdAt, before)))
    .orderBy(asc(transactions.createdAt))
    .limit(limit);
}

/** Deposits still waiting for their bank transfer past their expiry. */
export function listExpiredDeposits(db: Executor, now: Date, limit: number): Promise<TransactionRow[]> {
  return db
    .select()
    .from(transactions)
    .where(and(eq(transactions.status, 'waiting_for_funds'), lt(transactions.expiresAt, now)))
    .orderBy(asc(transactions.expiresAt))
    .limit(limit);
}

/** Prepared transactions (withdrawals, vault calls) still waiting for their approval past their expiry. */
export function listExpiredPreparations(db: Executor, now: Date, limit: number): Promise<TransactionRow[]> {
  return db
    .select()
    .from(transactions)
    .where(and(eq(transactions.status, 'created'), lt(transactions.expiresAt, now)))
    .orderBy(asc(transactions.createdAt))
    .limit(limit);
}
