import type { Executor } from '../../db/database.js';
import { findUser } from '../../db/repositories/users.js';
import { ApiError } from '../errors.js';

/**
 * A member acts on transactions (proposes, approves, rejects) only while their user is verified (active), as any
 * end user must be to move funds: someone who joined through an invitation with a name and a passkey is verified
 * first (docs/members.md#verified-members). 409 member_not_verified otherwise.
 */
export async function requireVerifiedMember(db: Executor, integratorId: string, userId: string): Promise<void> {
  const user = await findUser(db, integratorId, userId);
  if (user?.verificationStatus === 'active') return;
  throw new ApiError(
    'member_not_verified',
    `The member’s user is not verified (verificationStatus ${user?.verificationStatus ?? 'unknown'}): complete their details with update-user and request-verification; they act on transactions once active`,
  );
}
