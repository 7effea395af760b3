import type { VerificationStatus } from '../../../db/schema/index.js';
import type { AccountRow } from '../../../db/repositories/accounts.js';

interface AccountViewFields {
  accountId: string;
  verificationStatus: VerificationStatus;
  walletAddress: string | null;
  custody: 'custodial' | 'self_custodial' | null;
  organizationId?: string;
  requiredApprovals: number | null;
  createdAt: string;
}

/** get-account-details / list-accounts item: the account itself, keyed on `type` (its owner's id differs). */
export type AccountView = (AccountViewFields & { type: 'individual'; userId: string }) | (AccountViewFields & { type: 'entity'; entityId: string });

export function toAccountView(account: AccountRow, verificationStatus: VerificationStatus): AccountView {
  const fields: AccountViewFields = {
    accountId: account.id,
    verificationStatus,
    walletAddress: account.walletAddress,
    custody: account.custody,
    requiredApprovals: account.requiredApprovals,
    createdAt: account.createdAt.toISOString(),
    ...(account.organizationId ? { organizationId: account.organizationId } : {}),
  };
  // accounts_owner_check: an individual account has its user, an entity account its entity.
  if (account.type === 'individual') return { ...fields, type: 'individual', userId: account.userId! };
  return { ...fields, type: 'entity', entityId: account.entityId! };
}
