import { insertAccount, insertWallet } from '../../../db/repositories/accounts.js';
import { listDocuments } from '../../../db/repositories/documents.js';
import { existingAuthenticatorIds, insertAuthenticators, insertUser, updateUser as updateUserRow, type UserRow } from '../../../db/repositories/users.js';
import { runMutation, type MutationContext } from '../../context.js';
import { ApiError, type FieldError } from '../../errors.js';
import { recordEvents } from '../../events/record-event.js';
import { newId } from '../../ids.js';
import { prepareDocuments, storeDocuments } from '../document-store.js';
import { missingPersonRequirements } from '../requirements.js';
import { initialPersonStatus } from '../status.js';
import { recordInitialStatus } from '../../verification/apply-transition.js';
import { checkIfEnteredReview } from '../../verification/checks/run-checks.js';
import type { AdditionalUserInfo, Authenticator, SubmittedDocument, UserInfo } from '../types.js';
import {
  additionalUserInfoRequired,
  normalizeWalletAddress,
  prepareAuthenticators,
  validateAdditionalUserInfo,
  type PreparedAuthenticator,
  validateUserInfo,
  validateWalletAddress,
} from '../validation/index.js';
import { checkSignedAt, throwIfInvalid } from '../validation-result.js';
import { sealSsn, withoutSsn } from '../ssn-at-rest.js';
import { credentialCause } from '../../verification/cause.js';
import { toAccountView } from '../accounts/account-view.js';
import { createCustodialWallet } from './custodial-wallet.js';
import { authenticatorRow } from './authenticator-rows.js';
import { toUserAccountView, type UserAccountView } from './user-view.js';

export interface CreateUserInput {
  userInfo: UserInfo;
  serviceTermsSignedAt: string;
  additionalUserInfo?: AdditionalUserInfo;
  verificationDocuments?: SubmittedDocument[] | null;
  authenticators?: Authenticator[] | null;
  /** create-user only. */
  partnerSignedAgreementId?: string;
  /** create-individual-account only: self-custodial when given. */
  walletAddress?: string | null;
  /** The hosted onboarding flow only: the version of the terms accepted (SERVICE_TERMS_VERSION). */
  termsVersion?: string;
}

/** What validation needs from the context: the time and the configured policy. */
export type Rules = Pick<MutationContext, 'now' | 'policy'>;

/** Checks everything that JSON Schema cannot, before anything is written. */
export function validateUserSubmission(input: CreateUserInput, ctx: Rules): FieldError[] {
  const errors: FieldError[] = [...validateUserInfo(input.userInfo, '/userInfo', ctx.now), ...checkSignedAt(input.serviceTermsSignedAt, '/serviceTermsSignedAt', ctx.now)];
  if (input.additionalUserInfo) {
    errors.push(...validateAdditionalUserInfo(input.additionalUserInfo, '/additionalUserInfo'));
  } else {
    const needed = additionalUserInfoRequired(input.userInfo, ctx.now, ctx.policy.highRiskCountries);
    if (needed.required) {
      errors.push({
        pointer: '/additionalUserInfo',
        code: 'additional_user_info_required',
        detail: `additionalUserInfo is required: the user is ${needed.reason === 'over_60' ? 'over 60' : 'high risk (nationality or residence)'}`,
        in: 'body',
      });
    }
  }
  if (input.walletAddress !== undefined && input.walletAddress !== null) errors.push(...validateWalletAddress(input.walletAddress, '/walletAddress'));
  return errors;
}

/** The passkeys of a submission, each verified (attestation, relying party, origin): docs/passkeys.md. */
export function preparePasskeys(input: CreateUserInput, rules: Rules): { errors: FieldError[]; prepared: PreparedAuthenticator[] } {
  return input.authenticators ? prepareAuthenticators(input.authenticators, '/authenticators', rules.policy.webauthn) : { errors: [], prepared: [] };
}

/** Every domain-level error of a submission, passkeys and documents included (for bodies the schema already refused). */
export function userSubmissionErrors(input: CreateUserInput, rules: Rules): FieldError[] {
  return [...validateUserSubmission(input, rules), ...preparePasskeys(input, rules).errors, ...prepareDocuments(input.verificationDocuments, '/verificationDocuments').errors];
}

/**
 * Creates a user and its individual account in one transaction, with user.created and account.created.
 * `custody`: 'none' for create-user (no wallet); 'auto' for create-individual-account (self-custodial with a
 * walletAddress, else a custodial wallet is generated).
 */
export async function createUserWithAccount(ctx: MutationContext, input: CreateUserInput, custody: 'none' | 'auto'): Promise<UserAccountView> {
  const errors = validateUserSubmission(input, ctx);
  const passkeys = preparePasskeys(input, ctx);
  const documents = prepareDocuments(input.verificationDocuments, '/verificationDocuments');
  throwIfInvalid([...errors, ...passkeys.errors, ...documents.errors]);

  return runMutation(ctx, async (tx) => {
    const integratorId = ctx.actor.integratorId;
    const credentialIds = passkeys.prepared.map((a) => a.credentialId);
    const taken = await existingAuthenticatorIds(tx, integratorId, credentialIds);
    if (taken.length > 0) throw new ApiError('authenticator_exists', `Authenticator credential id already registered: ${taken.join(', ')}`);

    const userId = newId();
    const missing = missingPersonRequirements(input.userInfo, documents.prepared.map((d) => d.documentType));
    const user: UserRow = await insertUser(tx, {
      id: userId,
      integratorId,
      userInfo: withoutSsn(input.userInfo),
      ...sealSsn(ctx, input.userInfo.socialSecurityNumber, userId),
      additionalUserInfo: input.additionalUserInfo ?? null,
      partnerSignedAgreementId: input.partnerSignedAgreementId ?? null,
      serviceTermsSignedAt: new Date(input.serviceTermsSignedAt),
      termsVersion: input.termsVersion ?? null,
      verificationStatus: initialPersonStatus(missing),
      createdAt: ctx.now,
      updatedAt: ctx.now,
    });

    await recordInitialStatus(tx, { type: 'user', id: userId, integratorId, status: user.verificationStatus }, credentialCause(ctx), ctx.now);

    const accountId = newId();
    const selfCustodial = custody === 'auto' && input.walletAddress ? normalizeWalletAddress(input.walletAddress) : undefined;
    const walletId = newId();
    const custodial = custody === 'auto' && !selfCustodial ? await createCustodialWallet(ctx, walletId) : undefined;
    const account = await insertAccount(tx, {
      id: accountId,
      integratorId,
      type: 'individual',
      userId,
      walletAddress: selfCustodial ?? custodial?.address ?? null,
      custody: selfCustodial ? 'self_custodial' : custodial ? 'custodial' : null,
      organizationId: custodial ? newId() : null,
      // Self-custodial: the end user signs alone, so no custody approvals (spec: required_approvals 0).
      requiredApprovals: selfCustodial ? 0 : custodial ? 1 : null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    });
    if (custodial) await insertWallet(tx, { id: walletId, integratorId, accountId, ...custodial, createdAt: ctx.now });

    const registered = await insertAuthenticators(
      tx,
      integratorId,
      passkeys.prepared.map((a) => authenticatorRow(a, userId, ctx.now)),
    );
    // Registered meanwhile by a concurrent request (the check above saw it free): the same answer as the check.
    const lost = credentialIds.filter((id) => !registered.includes(id));
    if (lost.length > 0) throw new ApiError('authenticator_exists', `Authenticator credential id already registered: ${lost.join(', ')}`);
    const stored = await storeDocuments(tx, ctx.secrets, { integratorId, type: 'user', id: userId }, documents.prepared, ctx.now);
    // Created complete means verification requested: the checks run now.
    const checked = await checkIfEnteredReview(tx, { type: 'user', id: userId, integratorId, status: user.verificationStatus }, 'not_started', ctx.policy, ctx.now);

    // A new user's documents and passkeys are those stored now, unless the checks just wrote findings on them.
    const view = toUserAccountView(user, account, checked ? await listDocuments(tx, 'user', userId) : stored, registered.length);
    await recordEvents(tx, [
      { integratorId, type: 'user.created', objectType: 'user', objectId: userId, object: view, at: ctx.now },
      { integratorId, type: 'account.created', objectType: 'account', objectId: accountId, object: toAccountView(account, user.verificationStatus), at: ctx.now },
    ]);
    // Stored, not announced: user.created carries them (those of the view it carries, so the next change compares
    // with what was announced; one write, where a re-read would cost two more round trips per creation).
    await updateUserRow(tx, userId, { requirements: view.requirements });
    return view;
  });
}
