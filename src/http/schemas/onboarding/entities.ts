import { RequirementsSchema } from './requirements.js';
import { Type } from 'typebox';
import { BUSINESS_TYPES, CURRENCIES, ENTITY_SOURCES_OF_FUNDS, HIGH_RISK_ACTIVITIES } from '../../../domain/onboarding/reference/index.js';
import { AddressSchema, DocumentViewSchema, EntityDocumentSubmission, MissingList, Nullable, Text, UserDocumentSubmission, Uuid, VerificationStatusSchema } from './common.js';
import { UserInfoPatchSchema, UserInfoSchema } from './users.js';
import { FORMATS, patterned } from '../patterns.js';

const range = (description: string) => patterned(FORMATS.usdRange15, { description });

const financialFields = {
  sourceOfFunds: Type.Optional(Type.Enum([...ENTITY_SOURCES_OF_FUNDS], { type: 'string' })),
  estimatedAnnualRevenueUsd: Type.Optional(range('A range: two whole numbers, low then high, joined by an underscore (low < high), e.g. "100000_500000"')),
  expectedMonthlyPaymentsUsd: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  hasMaterialIntermediaryEntityOwner: Type.Optional(Type.Boolean()),
};
const FinancialInfoInput = Type.Object(financialFields, { additionalProperties: false, title: 'FinancialInfoInput' });
const FinancialInfoOutput = Type.Object(
  { preferredPrimaryCurrency: Type.Optional(Type.Enum([...CURRENCIES], { type: 'string' })), ...financialFields },
  { additionalProperties: false, title: 'FinancialInfo' },
);

const entityInfoFields = <F extends typeof FinancialInfoInput | typeof FinancialInfoOutput>(financialInfo: F) => ({
  businessLegalName: Type.Optional(Text(200, { minLength: 1 })),
  businessTradeName: Type.Optional(Text(200)),
  businessType: Type.Optional(Type.Enum([...BUSINESS_TYPES], { type: 'string' })),
  companyNumber: Type.Optional(Text(100, { minLength: 1 })),
  email: Type.Optional(Text(254)),
  website: Type.Optional(Text(2048, { description: 'http(s) URL' })),
  logoUrl: Type.Optional(Text(2048, { description: 'http(s) URL' })),
  registeredAddress: Type.Optional(AddressSchema),
  physicalAddress: Type.Optional(AddressSchema),
  activityInfo: Type.Optional(
    Type.Object(
      {
        businessDescription: Type.Optional(Text(2000, { minLength: 1 })),
        businessIndustry: Type.Optional(Type.Integer({ minimum: 0, maximum: 999_999, description: 'Numeric industry code (NAICS, 2 to 6 digits)' })),
      },
      { additionalProperties: false, title: 'ActivityInfo' },
    ),
  ),
  financialInfo: Type.Optional(financialInfo),
  highRiskInfo: Type.Optional(
    Type.Object(
      {
        operatesInProhibitedCountries: Type.Optional(Type.Boolean()),
        highRiskActivities: Type.Optional(Type.Enum([...HIGH_RISK_ACTIVITIES], { type: 'string' })),
        highRiskActivitiesExplanation: Type.Optional(Text(2000)),
        conductsMoneyServices: Type.Optional(Type.Boolean()),
        conductsMoneyServicesDescription: Type.Optional(Text(2000)),
      },
      { additionalProperties: false, title: 'HighRiskInfo' },
    ),
  ),
});

/** As submitted: every field optional, no preferredPrimaryCurrency (the spec: returned, not updated). */
export const EntityInfoInput = Type.Object(entityInfoFields(FinancialInfoInput), { additionalProperties: false, title: 'EntityInfoInput' });
/** As returned. */
export const EntityInfoOutput = Type.Object(entityInfoFields(FinancialInfoOutput), { additionalProperties: false, title: 'EntityInfo' });

export const CreateEntityAccountBody = Type.Object(
  {
    entityInfo: Type.Optional(EntityInfoInput),
    entityDocuments: Type.Optional(Nullable(Type.Array(EntityDocumentSubmission, { maxItems: 10 }))),
    serviceTermsSignedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const UpdateEntityAccountBody = Type.Object(
  {
    accountId: Uuid(),
    entityInfo: Type.Optional(EntityInfoInput),
    entityDocuments: Type.Optional(Nullable(Type.Array(EntityDocumentSubmission, { maxItems: 10 }))),
  },
  { additionalProperties: false },
);

const entityAccountFields = {
  entityId: Uuid(),
  accountId: Uuid(),
  verificationStatus: VerificationStatusSchema,
  entityInfo: EntityInfoOutput,
  entityDocuments: Type.Array(DocumentViewSchema),
  missingDocuments: MissingList('The spec’s document groups and questionnaire codes still missing; absent when complete'),
  missingCompanyData: MissingList('Required entityInfo fields still missing, by dotted name; absent when complete'),
  requirements: RequirementsSchema,
};

export const EntityAccountResponse = Type.Object(entityAccountFields, { additionalProperties: false, title: 'EntityAccount', description: 'The entity account' });

export const BeneficiaryDetailsSchema = Type.Object(
  {
    beneficiaryType: Type.Array(Type.Enum(['ubo', 'representative'], { type: 'string' }), { minItems: 1, maxItems: 2 }),
    title: Type.Optional(Nullable(Text(100, { description: 'Required for representatives' }))),
    ownershipPercentage: Type.Optional(Nullable(Type.Number({ description: 'Required for UBOs: more than 25, at most 100' }))),
  },
  { additionalProperties: false, title: 'BeneficiaryDetails' },
);

export const AssociatedPersonSummarySchema = Type.Object(
  {
    beneficiaryId: Uuid(),
    verificationStatus: VerificationStatusSchema,
    firstName: Type.String(),
    lastName: Type.String(),
    beneficiaryDetails: BeneficiaryDetailsSchema,
  },
  { additionalProperties: false, title: 'AssociatedPersonSummary' },
);

export const EntityDetailsResponse = Type.Object(
  { ...entityAccountFields, associatedPersons: Type.Array(AssociatedPersonSummarySchema) },
  { additionalProperties: false, title: 'EntityDetails', description: 'The entity account with its associated persons' },
);

export const AssociatedPersonResponse = Type.Object(
  {
    beneficiaryId: Uuid(),
    verificationStatus: VerificationStatusSchema,
    userInfo: UserInfoSchema,
    beneficiaryDetails: BeneficiaryDetailsSchema,
    verificationDocuments: Nullable(Type.Array(DocumentViewSchema)),
    missingDocuments: MissingList('Present only when not all required documents were submitted'),
  },
  { additionalProperties: false, title: 'AssociatedPerson', description: 'The associated person' },
);

export const CreateAssociatedPersonBody = Type.Object(
  {
    accountId: Uuid('The entity account'),
    userInfo: UserInfoSchema,
    beneficiaryDetails: BeneficiaryDetailsSchema,
    verificationDocuments: Type.Optional(Nullable(Type.Array(UserDocumentSubmission, { maxItems: 10 }))),
  },
  { additionalProperties: false },
);

export const UpdateAssociatedPersonBody = Type.Object(
  {
    beneficiaryId: Uuid(),
    userInfo: Type.Optional(UserInfoPatchSchema),
    beneficiaryDetails: Type.Optional(Type.Partial(BeneficiaryDetailsSchema, { additionalProperties: false, minProperties: 1, title: 'BeneficiaryDetailsPatch' })),
    verificationDocuments: Type.Optional(Nullable(Type.Array(UserDocumentSubmission, { maxItems: 10 }))),
  },
  { additionalProperties: false },
);

export const RemoveAssociatedPersonBody = Type.Object({ beneficiaryId: Uuid() }, { additionalProperties: false });
