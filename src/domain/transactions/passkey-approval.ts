import { parseStamp, stampChallenge, stampedBodyText, verifyStamp } from '../../crypto/webauthn/stamp.js';
import { findUserAuthenticator, isChallengeUsed } from '../../db/repositories/transactions.js';
import { advanceSignCountWrite, useChallengeWrite } from '../../db/repositories/transaction-writes.js';
import { exactlyOne, runCheckedWrites } from '../checked-writes.js';
import type { MutationContext } from '../context.js';
import { ApiError } from '../errors.js';
import type { Approval, Approve } from './approval.js';
import type { TransactionView } from './transaction-view.js';
import { sendTransaction, type SendTransactionInput, type TransactionDeps } from './send-transaction.js';

export interface SendTransactionPasskeyInput extends SendTransactionInput {
  webAuthnStamp: string;
}

const invalidStamp = (reason: string, detail: string) => new ApiError('invalid_stamp', detail, { extensions: { reason } });
const reuse = () => new ApiError('stamp_reused', 'This webAuthnStamp was already used; stamp the body again');

/** A passkey of the approving user over exactly this signedBody (docs/passkeys.md); its challenge is single-use. */
export function passkeyApproval(webAuthnStamp: string): Approve {
  const parsed = parseStamp(webAuthnStamp);
  // The passkey the stamp names, and the challenge a stamp over this body carries (whether it was used already is
  // read with the passkey).
  // Asked by the submission's read and again by the approval: the body is serialized and hashed once.
  let last: { signedBody: unknown; found: { credentialId: string; challenge: string } | undefined } | undefined;
  const lookup = (signedBody: unknown) => {
    if (!last || last.signedBody !== signedBody) last = { signedBody, found: parsed.ok ? { credentialId: parsed.stamp.credentialId.toString('base64url'), challenge: stampChallenge(stampedBodyText(signedBody)) } : undefined };
    return last.found;
  };
  const approve: Approve = async (ctx, userId, signedBody, read) => {
    if (!parsed.ok) throw invalidStamp(parsed.code, `webAuthnStamp ${parsed.detail}`);
    const stampedBody = stampedBodyText(signedBody);
    const { credentialId, challenge } = lookup(signedBody)!;
    // Scoped by integrator and user: credential ids are unique per integrator only (docs/passkeys.md). Read with the
    // submission when it was read for this user, this passkey and this body; otherwise now.
    const authenticator =
      read && read.userId === userId && read.credentialId === credentialId && read.challenge === challenge
        ? (read.authenticator ?? undefined)
        : await findUserAuthenticator(ctx.db.db, ctx.actor.integratorId, userId, credentialId, challenge);
    if (!authenticator) throw invalidStamp('credential_mismatch', 'The stamp’s credential is not a passkey of the approving user (the account’s user, or actingUserId)');
    const verified = verifyStamp({
      stamp: parsed.stamp,
      stampedBody,
      credential: { credentialId: authenticator.credentialId, publicKey: authenticator.publicKey, rpIdHash: authenticator.rpIdHash, signCount: authenticator.signCount },
      origins: ctx.policy.webauthn?.origins ?? [],
    });
    if (!verified.ok) {
      // A replayed stamp also fails the counter check (its counter is the stored one): name it for what it is.
      if (verified.code === 'counter_regression' && authenticator.challengeUsed) throw reuse();
      throw invalidStamp(verified.code, verified.detail);
    }
    // A verified stamp's challenge is the body's (verifyStamp checks it).
    if (authenticator.challengeUsed) throw reuse();

    const writes: Approval['writes'] = (target) => [
      // Unique: of two requests racing with one stamp, the second waits here and then finds it used.
      exactlyOne(useChallengeWrite({ challenge: verified.challenge, integratorId: ctx.actor.integratorId, authenticatorId: authenticator.id, ...target, createdAt: ctx.now }), reuse),
      ...(verified.signCount === authenticator.signCount
        ? []
        : [
            exactlyOne(advanceSignCountWrite(ctx.actor.integratorId, authenticator.id, authenticator.signCount, verified.signCount), () =>
              invalidStamp('counter_regression', 'The passkey’s signature counter moved meanwhile (a concurrent request); stamp the body again'),
            ),
          ]),
    ];
    return {
      kind: 'passkey',
      authenticatorId: authenticator.id,
      writes,
      use: (tx, target) => runCheckedWrites(tx, writes(target)),
      async recheck() {
        if (await isChallengeUsed(ctx.db.db, ctx.actor.integratorId, verified.challenge)) throw reuse();
      },
    };
  };
  approve.passkey = lookup;
  return approve;
}

/** send-transaction-passkey (docs/transactions.md). */
export function sendTransactionPasskey(
  ctx: MutationContext,
  deps: TransactionDeps,
  chainId: number,
  input: SendTransactionPasskeyInput,
): Promise<{ created: boolean; transaction: TransactionView }> {
  return sendTransaction(ctx, deps, chainId, input, passkeyApproval(input.webAuthnStamp));
}
