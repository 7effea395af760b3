import type { Tx } from '../../../db/database.js';
import { findAccountByUser } from '../../../db/repositories/accounts.js';
import { listDocuments } from '../../../db/repositories/documents.js';
import { existingAuthenticatorIds, findUser, insertAuthenticators } from '../../../db/repositories/users.js';
import { ApiError, invalidFields } from '../../errors.js';
import { recordEvent } from '../../events/record-event.js';
import { challengeValid, registrationChallenge } from '../../members/invitation-token.js';
import type { Authenticator } from '../../onboarding/types.js';
import { authenticatorRow } from '../../onboarding/users/authenticator-rows.js';
import { toUserAccountView } from '../../onboarding/users/user-view.js';
import { prepareAuthenticators } from '../../onboarding/validation/index.js';
import type { FlowContext, FlowLink } from './flow-link.js';

// The passkey step (docs/onboarding-links.md#the-hosted-flow): the browser registers a passkey over a challenge this
// server issued for this link, and it is stored as the user's authenticator after create-user's own verification
// (prepareAuthenticators: attestation, relying party, origin, one credential id per integrator).

/** A registration challenge for the link's page: stateless, bound to the link's token hash, good for 10 minutes. */
export function linkChallenge(ctx: Pick<FlowContext, 'secrets' | 'now'>, link: FlowLink): string {
  return registrationChallenge(ctx.secrets, link.row.tokenHash, ctx.now);
}

/** Registers the passkey for the link's user: user.updated (isPasskeyActivated) in the same transaction. */
export async function registerPasskey(ctx: FlowContext, tx: Tx, link: FlowLink, authenticator: Authenticator): Promise<void> {
  const user = link.user;
  if (!user) throw invalidFields([{ pointer: '/userInfo', code: 'required', detail: 'Your details come first', in: 'body' }]);
  if (typeof authenticator.challenge !== 'string' || !challengeValid(ctx.secrets, link.row.tokenHash, authenticator.challenge, ctx.now)) {
    throw invalidFields([{ pointer: '/authenticators/0/challenge', code: 'challenge_invalid', detail: 'The passkey must be made over a challenge this page issued in the last 10 minutes', in: 'body' }]);
  }
  const passkeys = prepareAuthenticators([authenticator], '/authenticators', ctx.policy.webauthn);
  if (passkeys.errors.length > 0) throw invalidFields(passkeys.errors);
  const integratorId = link.row.integratorId;
  const ids = passkeys.prepared.map((a) => a.credentialId);
  const inserted = (await existingAuthenticatorIds(tx, integratorId, ids)).length === 0
    ? await insertAuthenticators(
        tx,
        integratorId,
        passkeys.prepared.map((a) => authenticatorRow(a, user.id, ctx.now)),
      )
    : [];
  if (inserted.length !== ids.length) throw new ApiError('authenticator_exists', 'This passkey is already registered');
  const account = (await findAccountByUser(tx, user.id))!;
  const documents = await listDocuments(tx, 'user', user.id);
  const current = (await findUser(tx, integratorId, user.id))!;
  const after = toUserAccountView(current, account, documents, link.passkeys + inserted.length);
  if (link.passkeys === 0) {
    await recordEvent(tx, { integratorId, type: 'user.updated', objectType: 'user', objectId: user.id, object: after, previousAttributes: { isPasskeyActivated: false }, at: ctx.now });
  }
}
