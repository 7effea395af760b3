import type { Tx } from '../../../db/database.js';
import { updateLiveOnboardingLink, type OnboardingLinkRow } from '../../../db/repositories/onboarding-links.js';
import { invalidFields } from '../../errors.js';
import type { AdditionalUserInfo, SubmittedDocument, UserInfo } from '../../onboarding/types.js';
import { createUserWithAccount } from '../../onboarding/users/create-user.js';
import { updateUser } from '../../onboarding/users/update-user.js';
import { linkMutation, type FlowContext, type FlowLink } from './flow-link.js';

// An individual's steps (docs/onboarding-links.md#the-hosted-flow), each saved through the API's own domain functions
// so the validation, the events and the verification rules are exactly the API's. Each runs inside withLiveLink's
// transaction (save.ts); a domain error (validation_failed with its field errors) rolls everything back.

/** Terms: the acceptance time and SERVICE_TERMS_VERSION kept on the link until the details step makes the user. */
export async function acceptTerms(ctx: FlowContext, tx: Tx, link: FlowLink): Promise<OnboardingLinkRow> {
  const row = await updateLiveOnboardingLink(tx, link.row.id, { termsAcceptedAt: ctx.now, termsVersion: ctx.termsVersion, updatedAt: ctx.now });
  return row ?? link.row;
}

export interface DetailsInput {
  userInfo: Partial<UserInfo>;
  additionalUserInfo?: AdditionalUserInfo;
}

/**
 * Details: a new customer's user is made by create-user's own function (serviceTermsSignedAt the terms step's time;
 * the termsVersion it accepted, both in user.created), and the link gets its userId at once, so a later step, or a fresh
 * link for that user, goes on from there. An existing user's details are changed by update-user's.
 */
export async function saveDetails(ctx: FlowContext, tx: Tx, link: FlowLink, input: DetailsInput): Promise<OnboardingLinkRow> {
  const mutation = linkMutation(ctx, tx, link.row);
  if (link.user) {
    await updateUser(mutation, { userId: link.user.id, userInfo: input.userInfo, ...(input.additionalUserInfo ? { additionalUserInfo: input.additionalUserInfo } : {}) });
    return link.row;
  }
  if (!link.row.termsAcceptedAt) {
    throw invalidFields([{ pointer: '/serviceTermsSignedAt', code: 'required', detail: 'The service terms must be accepted first', in: 'body' }]);
  }
  const created = await createUserWithAccount(
    mutation,
    {
      userInfo: input.userInfo as UserInfo,
      serviceTermsSignedAt: link.row.termsAcceptedAt.toISOString(),
      ...(link.row.termsVersion ? { termsVersion: link.row.termsVersion } : {}),
      ...(input.additionalUserInfo ? { additionalUserInfo: input.additionalUserInfo } : {}),
    },
    'none',
  );
  return (await updateLiveOnboardingLink(tx, link.row.id, { userId: created.userId, updatedAt: ctx.now }))!;
}

/** Documents: added by update-user's function, with the same checks as the API's data URLs (type, size, content). */
export async function saveDocuments(ctx: FlowContext, tx: Tx, link: FlowLink, documents: SubmittedDocument[]): Promise<void> {
  if (!link.user) throw invalidFields([{ pointer: '/userInfo', code: 'required', detail: 'Your details come first', in: 'body' }]);
  await updateUser(linkMutation(ctx, tx, link.row), { userId: link.user.id, verificationDocuments: documents });
}
