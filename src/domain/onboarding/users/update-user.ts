import { findAccountByUser } from '../../../db/repositories/accounts.js';
import { listDocuments } from '../../../db/repositories/documents.js';
import { countAuthenticators, findUser, updateUser as updateUserRow } from '../../../db/repositories/users.js';
import { runMutation, type MutationContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { recordEvent } from '../../events/record-event.js';
import { afterDataChange } from '../../verification/after-data-change.js';
import { checkIfEnteredReview } from '../../verification/checks/run-checks.js';
import { prepareDocuments, storeDocuments, usableDocumentTypes } from '../document-store.js';
import { missingPersonRequirements } from '../requirements.js';
import type { AdditionalUserInfo, SubmittedDocument, UserInfo } from '../types.js';
import { validateAdditionalUserInfo } from '../validation/index.js';
import { throwIfInvalid } from '../validation-result.js';
import { mergeUserInfo, previousAttributesOf } from '../person-update.js';
import { credentialCause } from '../../verification/cause.js';
import { withoutSsn } from '../ssn-at-rest.js';
import { toUserAccountView, type UserAccountView } from './user-view.js';
import { syncUserRequirements } from '../../requirements/sync.js';

export interface UpdateUserInput {
  userId: string;
  userInfo?: Partial<UserInfo>;
  additionalUserInfo?: AdditionalUserInfo;
  verificationDocuments?: SubmittedDocument[] | null;
}

/**
 * Changes only what is given (an address as a whole) and adds documents: how an integrator completes a user or
 * answers a resubmission request. A stored SSN stays unless a new one is sent.
 */
export function updateUser(ctx: MutationContext, input: UpdateUserInput): Promise<UserAccountView> {
  const documents = prepareDocuments(input.verificationDocuments, '/verificationDocuments');
  throwIfInvalid([...documents.errors, ...(input.additionalUserInfo ? validateAdditionalUserInfo(input.additionalUserInfo, '/additionalUserInfo') : [])]);
  return runMutation(ctx, async (tx) => {
    const integratorId = ctx.actor.integratorId;
    const user = await findUser(tx, integratorId, input.userId, { lock: true });
    if (!user) throw notFound('User');
    const account = (await findAccountByUser(tx, user.id))!;
    const before = toUserAccountView(user, account, await listDocuments(tx, 'user', user.id), await countAuthenticators(tx, user.id));

    const { userInfo, sealed, ssnChanged, errors } = mergeUserInfo(ctx, user, input.userInfo);
    throwIfInvalid(errors);
    await updateUserRow(tx, user.id, {
      userInfo: withoutSsn(userInfo),
      ...sealed,
      ...(input.additionalUserInfo ? { additionalUserInfo: input.additionalUserInfo } : {}),
      updatedAt: ctx.now,
    });
    await storeDocuments(tx, ctx.secrets, { integratorId, type: 'user', id: user.id }, documents.prepared, ctx.now);
    const docs = await listDocuments(tx, 'user', user.id);
    const complete = missingPersonRequirements(userInfo, usableDocumentTypes(docs)).length === 0;
    const ref = { type: 'user' as const, id: user.id, integratorId, status: user.verificationStatus };
    await afterDataChange(tx, ref, complete, credentialCause(ctx), ctx.now);
    await checkIfEnteredReview(tx, ref, user.verificationStatus, ctx.policy, ctx.now);

    // Re-read: the checks may have just written warnings or errors on the documents.
    const after = toUserAccountView((await findUser(tx, integratorId, user.id))!, account, await listDocuments(tx, 'user', user.id), await countAuthenticators(tx, user.id));
    const previousAttributes = previousAttributesOf(before, after, ['userInfo', 'additionalUserInfo', 'verificationDocuments'], ssnChanged);
    if (Object.keys(previousAttributes).length > 0) {
      await recordEvent(tx, { integratorId, type: 'user.updated', objectType: 'user', objectId: user.id, object: after, previousAttributes, at: ctx.now });
    }
    await syncUserRequirements(tx, integratorId, user.id, ctx.now);
    return after;
  });
}
