import { findApprovalToken, useApprovalToken } from '../../db/repositories/otp.js';
import type { MutationContext } from '../context.js';
import { ApiError } from '../errors.js';
import { APPROVAL_TOKEN_PREFIX, approvalTokenHash } from '../otp/otp.js';
import type { TransactionView } from './transaction-view.js';
import { sendTransaction, type Approve, type SendTransactionInput, type TransactionDeps } from './send-transaction.js';

export interface SendTransactionOtpInput extends SendTransactionInput {
  approvalToken: string;
}

const invalidToken = (reason: string, detail: string) => new ApiError('invalid_approval_token', detail, { extensions: { reason } });
const reuse = () => new ApiError('approval_token_reused', 'This approvalToken already approved a transaction; verify a new code (otp/init, otp/verify)');

/** An approval token from otp/verify of the account's user: unexpired, unused, used up by this transaction (docs/otp.md). */
export function otpApproval(approvalToken: string): Approve {
  return async (ctx, account) => {
    const token = approvalToken.startsWith(APPROVAL_TOKEN_PREFIX) ? await findApprovalToken(ctx.db.db, ctx.actor.integratorId, approvalTokenHash(approvalToken)) : undefined;
    if (!token) throw invalidToken('unknown', 'approvalToken is not a token issued by otp/verify');
    if (token.usedAt) throw reuse();
    if (token.userId !== account.userId) throw invalidToken('user_mismatch', 'approvalToken was issued to another user than the account’s');
    if (token.expiresAt.getTime() <= ctx.now.getTime()) throw invalidToken('expired', `approvalToken expired at ${token.expiresAt.toISOString()}; verify a new code`);
    return {
      kind: 'otp',
      authenticatorId: null,
      async use(tx, transactionRowId) {
        // Guarded on used_at: of two requests racing with one token, the second waits here and then finds it used.
        if (!(await useApprovalToken(tx, token.id, transactionRowId, ctx.now))) throw reuse();
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
