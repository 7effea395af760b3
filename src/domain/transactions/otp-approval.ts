import { findApprovalToken, useApprovalTokenWrite } from '../../db/repositories/otp.js';
import { exactlyOne, runCheckedWrites } from '../checked-writes.js';
import type { MutationContext } from '../context.js';
import { ApiError } from '../errors.js';
import { APPROVAL_TOKEN_PREFIX, approvalTokenHash } from '../otp/otp.js';
import type { Approval, Approve } from './approval.js';
import type { TransactionView } from './transaction-view.js';
import { sendTransaction, type SendTransactionInput, type TransactionDeps } from './send-transaction.js';

export interface SendTransactionOtpInput extends SendTransactionInput {
  approvalToken: string;
}

const invalidToken = (reason: string, detail: string) => new ApiError('invalid_approval_token', detail, { extensions: { reason } });
const reuse = () => new ApiError('approval_token_reused', 'This approvalToken was already used; verify a new code (otp/init, otp/verify)');

/** An approval token from otp/verify of the approving user: unexpired, unused, used up by what it approves (docs/otp.md). */
export function otpApproval(approvalToken: string): Approve {
  return async (ctx, userId) => {
    const token = approvalToken.startsWith(APPROVAL_TOKEN_PREFIX) ? await findApprovalToken(ctx.db.db, ctx.actor.integratorId, approvalTokenHash(approvalToken)) : undefined;
    if (!token) throw invalidToken('unknown', 'approvalToken is not a token issued by otp/verify');
    if (token.usedAt) throw reuse();
    if (token.userId !== userId) throw invalidToken('user_mismatch', 'approvalToken was issued to another user than the approving one (the account’s user, or actingUserId)');
    if (token.expiresAt.getTime() <= ctx.now.getTime()) throw invalidToken('expired', `approvalToken expired at ${token.expiresAt.toISOString()}; verify a new code`);
    // Guarded on used_at: of two requests racing with one token, the second waits and then finds it used.
    const writes: Approval['writes'] = (target) => [
      exactlyOne(useApprovalTokenWrite(token.id, target, ctx.now), reuse),
    ];
    return {
      kind: 'otp',
      authenticatorId: null,
      writes,
      use: (tx, target) => runCheckedWrites(tx, writes(target)),
      async recheck() {
        if ((await findApprovalToken(ctx.db.db, ctx.actor.integratorId, token.tokenHash))?.usedAt) throw reuse();
      },
    };
  };
}

/** send-transaction-otp (docs/transactions.md, docs/otp.md). */
export function sendTransactionOtp(
  ctx: MutationContext,
  deps: TransactionDeps,
  chainId: number,
  input: SendTransactionOtpInput,
): Promise<{ created: boolean; transaction: TransactionView }> {
  return sendTransaction(ctx, deps, chainId, input, otpApproval(input.approvalToken));
}
