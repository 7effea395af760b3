import type {
  BUSINESS_TYPES,
  CURRENCIES,
  CountryCode,
  EMPLOYMENT_STATUSES,
  EntityDocumentType,
  ENTITY_SOURCES_OF_FUNDS,
  HIGH_RISK_ACTIVITIES,
  INDIVIDUAL_SOURCES_OF_FUNDS,
  OccupationCode,
  UserDocumentType,
} from './reference/index.js';

/** Wire shapes of the spec's resources as the domain receives them (already structurally validated). */
type OneOf<T extends readonly string[]> = T[number];

export interface Address {
  streetLine1: string;
  streetLine2?: string | null;
  city: string;
  state?: string | null;
  postalCode: string;
  country: CountryCode;
}

export interface UserInfo {
  firstName: string;
  middleName?: string | null;
  lastName: string;
  email: string;
  phone?: string | null;
  birthDate?: string | null;
  nationality?: CountryCode | null;
  countryOfBirth?: CountryCode | null;
  residentialAddress?: Address | null;
  socialSecurityNumber?: string | null;
  profilePictureUrl?: string | null;
}

export interface AdditionalUserInfo {
  employmentStatus: OneOf<typeof EMPLOYMENT_STATUSES>;
  expectedMonthlyPaymentsUsd: string;
  sourceOfFunds: OneOf<typeof INDIVIDUAL_SOURCES_OF_FUNDS>;
  mostRecentOccupation: OccupationCode;
}

export interface SubmittedDocument {
  documentType?: string;
  issuingCountry: CountryCode;
  document: string;
  documentNumber?: string;
  description?: string;
}

/** A verification document as returned: never the bytes. */
export interface DocumentView {
  documentType: UserDocumentType | EntityDocumentType;
  documentNumber: string | null;
  description: string | null;
  issuingCountry: string;
  documentId: string;
  warnings: string[] | null;
  errors: string[] | null;
}

export interface Authenticator {
  authenticatorName: string;
  challenge: string;
  attestation: {
    credentialId: string;
    clientDataJson: string;
    attestationObject: string;
    transports: string[];
  };
}

export interface BeneficiaryDetails {
  beneficiaryType: ('ubo' | 'representative')[];
  title?: string | null;
  ownershipPercentage?: number | null;
}

export interface EntityInfo {
  businessLegalName?: string;
  businessTradeName?: string;
  businessType?: OneOf<typeof BUSINESS_TYPES>;
  companyNumber?: string;
  email?: string;
  website?: string;
  logoUrl?: string;
  registeredAddress?: Address;
  physicalAddress?: Address;
  activityInfo?: { businessDescription?: string; businessIndustry?: number };
  financialInfo?: {
    preferredPrimaryCurrency?: OneOf<typeof CURRENCIES>;
    sourceOfFunds?: OneOf<typeof ENTITY_SOURCES_OF_FUNDS>;
    estimatedAnnualRevenueUsd?: string;
    expectedMonthlyPaymentsUsd?: number;
    hasMaterialIntermediaryEntityOwner?: boolean;
  };
  highRiskInfo?: {
    operatesInProhibitedCountries?: boolean;
    highRiskActivities?: OneOf<typeof HIGH_RISK_ACTIVITIES>;
    highRiskActivitiesExplanation?: string;
    conductsMoneyServices?: boolean;
    conductsMoneyServicesDescription?: string;
  };
}
