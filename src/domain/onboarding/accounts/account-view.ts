import type { VerificationStatus } from '../../../db/schema/index.js';
import type { AccountRow } from '../../../db/repositories/accounts.js';

/** get-account-details / list-accounts item: the account itself, whoever owns it. */
export interface AccountView {
  accountId: string;
  type: 'individual' | 'entity';
  userId?: string;
  entityId?: string;
  verificationStatus: VerificationStatus;
  walletAddress: string | null;
  custody: 'custodial' | 'self_custodial' | null;
  organizationId?: string;
  requiredApprovals: number | null;
  createdAt: string;
}

export function toAccountView(account: AccountRow, verificationStatus: VerificationStatus): AccountView {
  const view: AccountView = {
    accountId: account.id,
    type: account.type,
    verificationStatus,
    walletAddress: account.walletAddress,
    custody: account.custody,
    requiredApprovals: account.requiredApprovals,
    createdAt: account.createdAt.toISOString(),
  };
  if (account.userId) view.userId = account.userId;
  if (account.entityId) view.entityId = account.entityId;
  if (account.organizationId) view.organizationId = account.organizationId;
  return view;
}
