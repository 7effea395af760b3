import { RequirementsSchema } from './requirements.js';
import { Type } from 'typebox';
import { EMPLOYMENT_STATUSES, INDIVIDUAL_SOURCES_OF_FUNDS, OCCUPATION_CODES } from '../../../domain/onboarding/reference/index.js';
import { AddressSchema, CountryCodeSchema, DocumentViewSchema, MissingList, Nullable, Text, UserDocumentSubmission, Uuid, VerificationStatusSchema } from './common.js';
import { FORMATS, patterned } from '../patterns.js';

const userInfoFields = {
  firstName: Text(100, { minLength: 1 }),
  middleName: Type.Optional(Nullable(Text(100))),
  lastName: Text(100, { minLength: 1 }),
  email: Text(254, { description: 'Contact e-mail' }),
  phone: Type.Optional(Nullable(Text(20, { description: 'E.164, e.g. +14155552671' }))),
  birthDate: Type.Optional(Nullable(Text(10, { description: 'YYYY-MM-DD; the person must be 18 to 120 years old' }))),
  nationality: Type.Optional(Nullable(CountryCodeSchema)),
  countryOfBirth: Type.Optional(Nullable(CountryCodeSchema)),
  residentialAddress: Type.Optional(Nullable(AddressSchema)),
  socialSecurityNumber: Type.Optional(
    Nullable(Text(11, { description: 'Required for US residents: 9 digits, with or without dashes. Returned masked (***-**-1234).' })),
  ),
  profilePictureUrl: Type.Optional(Nullable(Text(2048, { description: 'http(s) URL' }))),
};

export const UserInfoSchema = Type.Object(userInfoFields, { additionalProperties: false, title: 'UserInfo' });

/** For updates: every UserInfo field optional. */
export const UserInfoPatchSchema = Type.Partial(UserInfoSchema, { additionalProperties: false, minProperties: 1, title: 'UserInfoPatch' });

export const AdditionalUserInfoSchema = Type.Object(
  {
    employmentStatus: Type.Enum([...EMPLOYMENT_STATUSES], { type: 'string' }),
    expectedMonthlyPaymentsUsd: patterned(FORMATS.usdRange12, { description: 'A range: two whole numbers, low then high, joined by an underscore (low < high), e.g. "1000_5000"' }),
    sourceOfFunds: Type.Enum([...INDIVIDUAL_SOURCES_OF_FUNDS], { type: 'string' }),
    mostRecentOccupation: Type.Enum([...OCCUPATION_CODES], { type: 'string', description: 'SOC 2018 major group code' }),
  },
  { additionalProperties: false, title: 'AdditionalUserInfo', description: 'Required for users over 60 or considered high risk; all four fields together' },
);

export const AuthenticatorSchema = Type.Object(
  {
    authenticatorName: Text(100, { minLength: 1 }),
    challenge: Text(1024, { minLength: 1 }),
    attestation: Type.Object(
      {
        credentialId: Text(1024, { minLength: 1 }),
        clientDataJson: Text(8192, { minLength: 1 }),
        attestationObject: Text(65536, { minLength: 1 }),
        transports: Type.Array(Type.String({ maxLength: 20 }), { maxItems: 8 }),
      },
      { additionalProperties: false, title: 'PasskeyAttestation', description: 'The PublicKeyCredential of navigator.credentials.create(), blobs base64url' },
    ),
  },
  {
    additionalProperties: false,
    title: 'PasskeyRegistration',
    description: 'A passkey registration, verified before it is stored: attestation format none or packed, an ES256 key, an allowed rp id and origin (docs/passkeys.md)',
  },
);

const commonCreate = {
  userInfo: UserInfoSchema,
  serviceTermsSignedAt: Type.String({ format: 'date-time', description: 'ISO 8601 moment the service terms were signed' }),
  additionalUserInfo: Type.Optional(AdditionalUserInfoSchema),
  verificationDocuments: Type.Optional(Nullable(Type.Array(UserDocumentSubmission, { maxItems: 10 }))),
  authenticators: Type.Optional(Nullable(Type.Array(AuthenticatorSchema, { maxItems: 10 }))),
};

export const CreateUserBody = Type.Object(
  { ...commonCreate, partnerSignedAgreementId: Text(200, { minLength: 1, description: 'Id of the signed partner terms agreement' }) },
  { additionalProperties: false },
);

export const CreateIndividualAccountBody = Type.Object(
  {
    ...commonCreate,
    walletAddress: Type.Optional(Nullable(Type.String({ maxLength: 42, description: 'Self-custodial EVM address (EIP-55 checksum enforced when mixed case)' }))),
  },
  { additionalProperties: false },
);

const userAccountFields = {
  userId: Uuid(),
  accountId: Uuid(),
  userInfo: UserInfoSchema,
  serviceTermsSignedAt: Type.String({ format: 'date-time' }),
  isPasskeyActivated: Type.Boolean(),
  isOtpActivated: Type.Boolean(),
  additionalUserInfo: Type.Optional(AdditionalUserInfoSchema),
  verificationDocuments: Nullable(Type.Array(DocumentViewSchema)),
};

const MISSING_USER = 'Present only when something required is missing: IDENTITY_DOCUMENT, PROOF_OF_ADDRESS_DOCUMENT, USER_INFO_*';

export const CreateUserResponse = Type.Object(
  {
    ...userAccountFields,
    verificationStatus: Type.Enum(['under_review', 'waiting_for_information', 'active', 'rejected', 'inactive'], { type: 'string' }),
    partnerSignedAgreementId: Type.String(),
  },
  { additionalProperties: false, description: 'The created user (the spec’s create-user status set)' },
);

export const IndividualAccountResponse = Type.Object(
  {
    ...userAccountFields,
    verificationStatus: VerificationStatusSchema,
    walletAddress: Type.String(),
    organizationId: Type.Optional(Uuid('Custody organization of a custodial wallet (signedBody.organizationId)')),
    missingDocuments: MissingList(MISSING_USER),
  },
  { additionalProperties: false, description: 'The created individual account' },
);

export const UserDetailsResponse = Type.Object(
  {
    ...userAccountFields,
    verificationStatus: VerificationStatusSchema,
    walletAddress: Type.Optional(Type.String()),
    organizationId: Type.Optional(Uuid()),
    partnerSignedAgreementId: Type.Optional(Type.String()),
    missingDocuments: MissingList(MISSING_USER),
    termsAcceptedAt: Type.String({ format: 'date-time', description: 'When the user accepted the service terms (serviceTermsSignedAt)' }),
    termsVersion: Nullable(Type.String({ description: 'The version of the terms accepted, when known (the hosted onboarding flow records it); null otherwise' })),
    requirements: RequirementsSchema,
  },
  { additionalProperties: false, title: 'User', description: 'The user with its account' },
);
