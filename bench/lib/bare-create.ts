/**
 * The bare equivalent of create-individual-account (custodial: the bench sends no walletAddress): the writes
 * src/domain/onboarding/users/create-user.ts makes, through the same repository and domain functions, in one
 * transaction, with the same sealing (documents, the wallet key) and the same event payloads; before it, the
 * replay guard's insert, as every signed POST of the API writes one.
 *
 * Left out, as not essential to storing the account: JSON Schema and domain validation, passkeys (the bench sends
 * none), Idempotency-Key handling (none sent) and the screening of the new user against the watch lists
 * (checkIfEnteredReview; the sandbox's sample list).
 */
import { sealedCustodyKeys } from '../../src/chain/custody-keys.js';
import { sha256 } from '../../src/crypto/request-signature.js';
import type { SecretBox } from '../../src/crypto/secret-box.js';
import type { Database } from '../../src/db/database.js';
import { insertAccount, insertWallet } from '../../src/db/repositories/accounts.js';
import { rememberNonce } from '../../src/db/repositories/request-nonces.js';
import { insertUser, updateUser } from '../../src/db/repositories/users.js';
import type { MutationContext } from '../../src/domain/context.js';
import { recordEvents } from '../../src/domain/events/record-event.js';
import { newId } from '../../src/domain/ids.js';
import { toAccountView } from '../../src/domain/onboarding/accounts/account-view.js';
import { prepareDocuments, storeDocuments } from '../../src/domain/onboarding/document-store.js';
import { missingPersonRequirements } from '../../src/domain/onboarding/requirements.js';
import { sealSsn, withoutSsn } from '../../src/domain/onboarding/ssn-at-rest.js';
import { initialPersonStatus } from '../../src/domain/onboarding/status.js';
import type { CreateUserInput } from '../../src/domain/onboarding/users/create-user.js';
import { toUserAccountView } from '../../src/domain/onboarding/users/user-view.js';
import { recordInitialStatus } from '../../src/domain/verification/apply-transition.js';

/** Who signed the request: what authenticate.ts establishes. */
export interface Signer {
  integratorId: string;
  credentialId: string;
  publicKey: string;
  /** The signed message: a mutation's replay key is its SHA-256, as in src/http/auth/replay-guard.ts. */
  message: Buffer;
  timestamp: number;
}

/** The message stays acceptable for 60 s after its timestamp (+1 s rounding), as in src/http/auth/replay-guard.ts. */
const NONCE_SECONDS = 61;

export async function createIndividualAccount(database: Database, secrets: SecretBox, signer: Signer, body: Buffer): Promise<object> {
  const now = new Date();
  const messageHash = (await sha256(signer.message)).toString('hex');
  if (!(await rememberNonce(database.db, signer.publicKey, messageHash, new Date((signer.timestamp + NONCE_SECONDS) * 1000), now))) {
    throw new Error('duplicate request');
  }
  const input = JSON.parse(body.toString('utf8')) as CreateUserInput;
  const documents = prepareDocuments(input.verificationDocuments, '/verificationDocuments');
  if (documents.errors.length > 0) throw new Error(`bad document: ${JSON.stringify(documents.errors)}`);
  const { integratorId } = signer;
  const cause = { actorType: 'integrator' as const, actorId: signer.credentialId };
  // sealSsn reads only `secrets` from its context.
  const sealing = { secrets } as MutationContext;

  return database.db.transaction(async (tx) => {
    const userId = newId();
    const missing = missingPersonRequirements(input.userInfo, documents.prepared.map((d) => d.documentType));
    const user = await insertUser(tx, {
      id: userId,
      integratorId,
      userInfo: withoutSsn(input.userInfo),
      ...sealSsn(sealing, input.userInfo.socialSecurityNumber, userId),
      additionalUserInfo: input.additionalUserInfo ?? null,
      partnerSignedAgreementId: null,
      serviceTermsSignedAt: new Date(input.serviceTermsSignedAt),
      verificationStatus: initialPersonStatus(missing),
      createdAt: now,
      updatedAt: now,
    });
    await recordInitialStatus(tx, { type: 'user', id: userId, integratorId, status: user.verificationStatus }, cause, now);

    const accountId = newId();
    const walletId = newId();
    // CUSTODY_KEYS=sealed, the API's default: a new secp256k1 key sealed under the same key ring.
    const custodial = await sealedCustodyKeys(secrets).newWalletKey(walletId);
    const account = await insertAccount(tx, {
      id: accountId,
      integratorId,
      type: 'individual',
      userId,
      walletAddress: custodial.address,
      custody: 'custodial',
      organizationId: newId(),
      requiredApprovals: 1,
      createdAt: now,
      updatedAt: now,
    });
    await insertWallet(tx, { id: walletId, integratorId, accountId, ...custodial, createdAt: now });
    const stored = await storeDocuments(tx, secrets, { integratorId, type: 'user', id: userId }, documents.prepared, now);

    const view = toUserAccountView(user, account, stored, 0);
    // Issue 57: the requirements user.created carries are stored with the user (what create-user.ts writes).
    await updateUser(tx, userId, { requirements: view.requirements });
    await recordEvents(tx, [
      { integratorId, type: 'user.created', objectType: 'user', objectId: userId, object: view, at: now },
      { integratorId, type: 'account.created', objectType: 'account', objectId: accountId, object: toAccountView(account, user.verificationStatus), at: now },
    ]);
    const { partnerSignedAgreementId: _p, ...rest } = view;
    return { ...rest, walletAddress: custodial.address };
  });
}
