import type { VerificationStatus } from '../../../db/schema/index.js';
import type { AccountRow } from '../../../db/repositories/accounts.js';
import type { DocumentMeta } from '../../../db/repositories/documents.js';
import type { UserRow } from '../../../db/repositories/users.js';
import { toDocumentView, usableDocumentTypes } from '../document-store.js';
import { missingPersonRequirements } from '../requirements.js';
import { personRequirements, type Requirements } from '../../requirements/requirements.js';
import type { AdditionalUserInfo, DocumentView, UserInfo } from '../types.js';

/** The stored UserInfo with the SSN put back in masked form (only the last four digits are kept in clear). */
export function maskedUserInfo(stored: unknown, ssnLast4: string | null): UserInfo {
  const info = { ...(stored as UserInfo) };
  if (ssnLast4) info.socialSecurityNumber = `***-**-${ssnLast4}`;
  return info;
}

export interface UserAccountView {
  userId: string;
  accountId: string;
  verificationStatus: VerificationStatus;
  userInfo: UserInfo;
  walletAddress?: string;
  organizationId?: string;
  partnerSignedAgreementId?: string;
  serviceTermsSignedAt: string;
  isPasskeyActivated: boolean;
  isOtpActivated: boolean;
  additionalUserInfo?: AdditionalUserInfo;
  verificationDocuments: DocumentView[];
  missingDocuments?: string[];
  /** When the service terms were accepted: serviceTermsSignedAt (the hosted flow sets both). */
  termsAcceptedAt: string;
  termsVersion: string | null;
  requirements: Requirements;
}

/** The full view (get-user-details, events); create-user and create-individual-account trim it to the spec's shapes. */
export function toUserAccountView(user: UserRow, account: AccountRow, documents: DocumentMeta[], authenticatorCount: number): UserAccountView {
  const userInfo = maskedUserInfo(user.userInfo, user.ssnLast4);
  const missing = missingPersonRequirements(user.userInfo as UserInfo, usableDocumentTypes(documents));
  const view: UserAccountView = {
    userId: user.id,
    accountId: account.id,
    verificationStatus: user.verificationStatus,
    userInfo,
    serviceTermsSignedAt: user.serviceTermsSignedAt.toISOString(),
    isPasskeyActivated: authenticatorCount > 0,
    // Set by the first verified one-time code (docs/otp.md).
    isOtpActivated: user.otpActivatedAt !== null,
    verificationDocuments: documents.map(toDocumentView),
    termsAcceptedAt: '',
    termsVersion: null,
    requirements: { currentlyDue: [], pastDue: [], pendingVerification: [], errors: [] },
  };
  if (account.walletAddress) view.walletAddress = account.walletAddress;
  if (account.organizationId) view.organizationId = account.organizationId;
  if (user.partnerSignedAgreementId) view.partnerSignedAgreementId = user.partnerSignedAgreementId;
  if (user.additionalUserInfo) view.additionalUserInfo = user.additionalUserInfo as AdditionalUserInfo;
  if (missing.length > 0) view.missingDocuments = missing;
  view.termsAcceptedAt = view.serviceTermsSignedAt;
  view.termsVersion = user.termsVersion;
  view.requirements = personRequirements(user.userInfo as UserInfo, documents, user.verificationStatus);
  return view;
}
