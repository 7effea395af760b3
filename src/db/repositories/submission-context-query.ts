import { and, eq, sql } from 'drizzle-orm';
import { preparedStatement } from '../prepared.js';
import { accountProducts, accounts, authenticators, entities, transactions, usedStampChallenges, users, wallets, type VerificationStatus } from '../schema/index.js';

/**
 * The one statement behind findSubmissionContext (transactions.ts): every read a submission needs, in one round trip
 * on the hot path. Kept apart from the repository's reads and writes for its size; its rows are mapped there.
 */
export const submissionContext = preparedStatement<
  {
    integratorId: string;
    transactionId: string;
    organizationId: string | null;
    signWith: string;
    productOfKind: string;
    defaultProduct: string;
    actingUserId: string | null;
    credentialId: string | null;
    challenge: string | null;
  },
  {
    earlier: typeof transactions.$inferSelect | null;
    account: typeof accounts.$inferSelect | null;
    verificationStatus: VerificationStatus | null;
    wallet: typeof wallets.$inferSelect | null;
    productStatus: string | null;
    approverId: string | null;
    authenticator: typeof authenticators.$inferSelect | null;
    challengeUsed: boolean;
  }[]
>('find_submission_context', (db) => {
  // A null organizationId (not a UUID) matches no account by organization: `= null` is never true.
  const byOrg = sql`${accounts.organizationId} = ${sql.placeholder('organizationId')}::uuid`;
  // The product asked about is the earlier transaction's (a prepared withdrawal or vault call approved now), or the
  // default one: productOfKind maps kinds to products, as JSON.
  const productId = sql`coalesce(${sql.placeholder('productOfKind')}::jsonb ->> ${transactions.kind}, ${sql.placeholder('defaultProduct')})`;
  // Who approves: the account's user, or for an entity wallet the acting member (send-transaction.ts approverOf).
  const approverId = sql<string | null>`coalesce(${accounts.userId}, ${sql.placeholder('actingUserId')}::uuid)`;
  return (
    db
      .select({
        earlier: transactions,
        account: accounts,
        verificationStatus: sql<VerificationStatus | null>`coalesce(${users.verificationStatus}, ${entities.verificationStatus})`,
        wallet: wallets,
        productStatus: accountProducts.status,
        approverId,
        authenticator: authenticators,
        challengeUsed: sql<boolean>`exists (select 1 from ${usedStampChallenges} where ${usedStampChallenges.integratorId} = ${sql.placeholder('integratorId')} and ${usedStampChallenges.challenge} = ${sql.placeholder('challenge')})`,
      })
      // One row whether or not either exists: each is joined to it.
      .from(sql`(select 1) as probe`)
      .leftJoin(transactions, and(eq(transactions.integratorId, sql.placeholder('integratorId')), eq(transactions.transactionId, sql.placeholder('transactionId'))))
      .leftJoin(accounts, and(eq(accounts.integratorId, sql.placeholder('integratorId')), sql`(${byOrg} or (${accounts.custody} = 'self_custodial' and lower(${accounts.walletAddress}) = lower(${sql.placeholder('signWith')})))`))
      .leftJoin(users, eq(users.id, accounts.userId))
      .leftJoin(entities, eq(entities.id, accounts.entityId))
      .leftJoin(wallets, eq(wallets.accountId, accounts.id))
      .leftJoin(accountProducts, and(eq(accountProducts.accountId, accounts.id), sql`${accountProducts.productId} = ${productId}`))
      // The stamp's passkey among the approver's own, scoped by integrator (findUserAuthenticator); a null credentialId
      // (no passkey asked for) matches none.
      .leftJoin(authenticators, and(eq(authenticators.integratorId, sql.placeholder('integratorId')), sql`${authenticators.userId} = ${approverId}`, eq(authenticators.credentialId, sql.placeholder('credentialId'))))
      // The organization's own account first.
      .orderBy(sql`case when ${byOrg} then 0 else 1 end`)
      .limit(1)
  );
});
