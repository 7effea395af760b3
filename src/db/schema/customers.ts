import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id, timestamps } from './columns.js';
import { entities } from './entities.js';
import { integratorId } from './integrators.js';
import { statusCheck, type VerificationStatus } from './verification-status.js';

/**
 * End users. `user_info` holds the spec's UserInfo without the SSN: that is sealed (AES-256-GCM) in
 * `ssn_sealed`, and only its last four digits are kept in clear, for masked display.
 */
export const users = pgTable(
  'users',
  {
    id: id(),
    integratorId: integratorId(),
    userInfo: jsonb('user_info').notNull(),
    ssnSealed: text('ssn_sealed'),
    ssnLast4: text('ssn_last4'),
    /** Keyed hash of the SSN, to find the same SSN on two users without decrypting (verification checks). */
    ssnFingerprint: text('ssn_fingerprint'),
    additionalUserInfo: jsonb('additional_user_info'),
    partnerSignedAgreementId: text('partner_signed_agreement_id'),
    serviceTermsSignedAt: at('service_terms_signed_at').notNull(),
    verificationStatus: text('verification_status').$type<VerificationStatus>().notNull(),
    /** When the user first verified an OTP (isOtpActivated); null until then. */
    otpActivatedAt: at('otp_activated_at'),
    /** The version of the service terms accepted (the hosted onboarding flow records it); null: not known. */
    termsVersion: text('terms_version'),
    /** The requirements as last announced (requirements.updated is written when they change; docs/onboarding-links.md). */
    requirements: jsonb('requirements'),
    ...timestamps(),
  },
  (t) => [
    index('users_integrator_idx').on(t.integratorId, t.id),
    // The review queue and list-accounts filter by status, oldest change first.
    index('users_status_idx').on(t.verificationStatus, t.updatedAt, t.id),
    check('users_status_check', statusCheck(t.verificationStatus)),
  ],
);

/** The user a row belongs to. */
export const userId = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id);

/** An account is what the integrator operates: an individual's (with a user) or an entity's. */
export const accounts = pgTable(
  'accounts',
  {
    id: id(),
    integratorId: integratorId(),
    type: text('type', { enum: ['individual', 'entity'] }).notNull(),
    userId: uuid('user_id').references(() => users.id),
    entityId: uuid('entity_id').references(() => entities.id),
    /** Null for accounts created by create-user, which get no wallet. */
    walletAddress: text('wallet_address'),
    custody: text('custody', { enum: ['custodial', 'self_custodial'] }),
    /** The custody organization that signs for a custodial wallet (named by signedBody.organizationId). */
    organizationId: uuid('organization_id'),
    requiredApprovals: integer('required_approvals'),
    ...timestamps(),
  },
  (t) => [
    index('accounts_integrator_idx').on(t.integratorId, t.id),
    // A submission finds the account its signedBody names: by custody organization, or a self-custodial one by its
    // wallet address (findSubmissionContext). Without these, every submission read all of an integrator's accounts.
    index('accounts_organization_idx').on(t.integratorId, t.organizationId),
    index('accounts_self_custodial_wallet_idx').on(t.integratorId, sql`lower(${t.walletAddress})`).where(sql`${t.custody} = 'self_custodial'`),
    // The incoming watcher matches a block's recipients against every account's wallet at once (docs/incoming.md).
    index('accounts_wallet_address_idx')
      .on(sql`lower(${t.walletAddress})`)
      .where(sql`${t.walletAddress} is not null`),
    uniqueIndex('accounts_user_key').on(t.userId),
    uniqueIndex('accounts_entity_key').on(t.entityId),
    check('accounts_owner_check', sql`(${t.type} = 'individual' and ${t.userId} is not null) or (${t.type} = 'entity' and ${t.entityId} is not null)`),
  ],
);

/** The account a row belongs to. */
export const accountId = () =>
  uuid('account_id')
    .notNull()
    .references(() => accounts.id);

/**
 * Custodial wallets. The secp256k1 private key is either sealed under ENCRYPTION_KEY (CUSTODY_KEYS=sealed) or held by
 * a PKCS#11 token (CUSTODY_KEYS=pkcs11, docs/key-management.md), where only its label and public key are kept here.
 */
export const wallets = pgTable(
  'wallets',
  {
    id: id(),
    integratorId: integratorId(),
    accountId: accountId(),
    address: text('address').notNull(),
    /** Null once the key lives on the token (created there, or moved by `keys import-to-token`). */
    privateKeySealed: text('private_key_sealed'),
    /** The token object's CKA_LABEL (`wallet:<id>`), when the key is on the token. */
    keyLabel: text('key_label'),
    /** 0x04 ‖ x ‖ y of the token's key: a signature's recovery id is found against it. */
    publicKey: text('public_key'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('wallets_address_key').on(t.address),
    uniqueIndex('wallets_account_key').on(t.accountId),
    // Every wallet can sign: its key is sealed here, or on the token with the public key to recover against.
    check('wallets_key_check', sql`${t.privateKeySealed} is not null or (${t.keyLabel} is not null and ${t.publicKey} is not null)`),
  ],
);

/**
 * WebAuthn registrations submitted with a user, verified at creation (docs/passkeys.md). The submitted
 * blobs are kept as sent; the verified ES256 key (SPKI DER, base64), rpIdHash (hex), signature counter,
 * AAGUID and attestation format are what stamps are checked against. Those columns are null only for rows
 * written before registrations were verified: such a credential cannot stamp.
 */
export const authenticators = pgTable(
  'authenticators',
  {
    id: id(),
    integratorId: integratorId(),
    userId: userId(),
    authenticatorName: text('authenticator_name').notNull(),
    credentialId: text('credential_id').notNull(),
    challenge: text('challenge').notNull(),
    clientDataJson: text('client_data_json').notNull(),
    attestationObject: text('attestation_object').notNull(),
    transports: jsonb('transports').$type<string[]>().notNull(),
    publicKey: text('public_key'),
    /** COSE algorithm of publicKey: -7 (ES256), the only one accepted. */
    publicKeyAlgorithm: integer('public_key_algorithm'),
    rpIdHash: text('rp_id_hash'),
    /** Last signature counter seen (32-bit unsigned); 0 for authenticators that keep none. */
    signCount: bigint('sign_count', { mode: 'number' }).notNull().default(0),
    aaguid: text('aaguid'),
    attestationFormat: text('attestation_format'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('authenticators_integrator_credential_key').on(t.integratorId, t.credentialId), index('authenticators_user_idx').on(t.userId)],
);

